"""Error objects: __tvm_ffi_error__, kind, message, backtrace, update_backtrace, py_error, names."""

import traceback

import pytest
import tvm_ffi
from tvm_ffi import core, testing


def _raise_native(kind, message):
    try:
        testing.test_raise_error(kind, message)
    except Exception as exc:  # noqa: BLE001 - the test inspects whatever arrives
        return exc
    raise AssertionError("testing.test_raise_error did not raise")


def test_native_error_carries_its_error_object():
    exc = _raise_native("ValueError", "boom")
    assert type(exc) is ValueError
    err = exc.__tvm_ffi_error__
    assert isinstance(err, core.Error)
    assert err.kind == "ValueError" and err.message == "boom"
    assert "testing.cc" in err.backtrace and err.backtrace.lstrip().startswith("File ")


def test_py_error_rebuilds_the_exception_with_the_native_traceback():
    err = _raise_native("KeyError", "k").__tvm_ffi_error__
    again = err.py_error()
    assert type(again) is KeyError and again.__tvm_ffi_error__ is err
    frames = traceback.extract_tb(again.__traceback__)
    assert any(f.filename.endswith("testing.cc") for f in frames)


def test_error_objects_made_in_python_pass_through_the_ffi():
    err = core.Error("TypeError", "msg", '  File "x.py", line 3, in f\n')
    assert (err.kind, err.message) == ("TypeError", "msg")
    back = testing.echo(err)
    assert isinstance(back, core.Error) and back.__ffi_handle__ == err.__ffi_handle__
    exc = err.py_error()
    assert type(exc) is TypeError and str(exc) == "msg"
    assert traceback.extract_tb(exc.__traceback__)[-1].filename == "x.py"


def test_update_and_append_backtrace():
    err = core.Error("RuntimeError", "m", "new\n")
    err.update_backtrace('  File "a.py", line 1, in g\n')
    assert err.backtrace == '  File "a.py", line 1, in g\n'
    err.append_backtrace('  File "b.py", line 2, in h\n')  # older frames go in front
    assert err.backtrace.splitlines() == [
        '  File "b.py", line 2, in h',
        '  File "a.py", line 1, in g',
    ]


@pytest.mark.parametrize("args", [(1, "m", "b"), ("k", None, "b"), ("k", "m", 3)])
def test_error_constructor_bad_input(args):
    with pytest.raises(TypeError, match="Error: argument"):
        core.Error(*args)


def test_update_backtrace_bad_input():
    err = core.Error("RuntimeError", "m", "")
    with pytest.raises(TypeError, match="update_backtrace: argument `backtrace` must be a str"):
        err.update_backtrace(5)


def test_error_kind_tables_follow_register_error():
    class MyKindError(Exception):
        pass

    tvm_ffi.register_error("MyKindForTables", MyKindError)
    assert core.ERROR_NAME_TO_TYPE["MyKindForTables"] is MyKindError
    assert core.ERROR_TYPE_TO_NAME[MyKindError] == "MyKindForTables"
    assert core.ERROR_NAME_TO_TYPE["ValueError"] is ValueError


def test_core_names():
    for name in [
        "Object",
        "Function",
        "Tensor",
        "String",
        "Bytes",
        "Error",
        "DataType",
        "Device",
        "DLDeviceType",
        "MISSING",
        "OpaquePyObject",
        "PyNativeObject",
        "ObjectConvertible",
        "CAny",
    ]:
        assert hasattr(core, name), name
    assert issubclass(core.String, str) and issubclass(core.String, core.PyNativeObject)
    assert issubclass(core.Bytes, bytes)
    assert repr(core.MISSING) == "<MISSING>" and not core.MISSING
    assert core.DLDeviceType.kDLCUDA == 2 and tvm_ffi.DLDeviceType is core.DLDeviceType
    assert tvm_ffi.device("cuda:1").dlpack_device_type() == core.DLDeviceType.kDLCUDA
    dt = core.DataType("float32x4")
    assert (dt.type_code, dt.bits, dt.lanes, dt.itemsize) == (2, 32, 4, 16)
    assert core.CAny(5).type_index == 1 and core.CAny(tvm_ffi.List()).type_index == 75
    assert core.CAny("x").to_py() == "x"
    with pytest.raises(NotImplementedError, match="asobject"):
        core.ObjectConvertible().asobject()


def test_python_exception_coming_back_carries_an_error_object():
    def callback():
        raise IndexError("from python")

    with pytest.raises(IndexError) as info:
        testing.apply(callback)
    err = info.value.__tvm_ffi_error__
    assert isinstance(err, core.Error)
    assert (err.kind, err.message) == ("IndexError", "from python")
    assert "callback" in err.backtrace


def test_python_exception_error_object_makes_no_uncollectable_cycle():
    import gc
    import weakref

    class WeakReferableError(ValueError):  # builtin exceptions take no weak references
        pass

    def callback():
        raise WeakReferableError("cycle?")

    try:
        testing.apply(callback)
    except WeakReferableError as exc:
        assert isinstance(exc.__tvm_ffi_error__, core.Error)
        ref = weakref.ref(exc)
    gc.collect()
    assert ref() is None


class _Wrapped(core.ObjectConvertible):
    def __init__(self, obj):
        self.obj = obj

    def asobject(self):
        return self.obj


def test_object_convertible_converts_through_asobject():
    arr = tvm_ffi.Array([1, 2])
    out = testing.echo(_Wrapped(arr))
    assert isinstance(out, tvm_ffi.Array) and out.__ffi_handle__ == arr.__ffi_handle__
    assert isinstance(tvm_ffi.convert(_Wrapped(arr)), tvm_ffi.Array)


def test_object_convertible_returning_a_non_object_is_a_type_error():
    with pytest.raises(
        TypeError, match=r"_Wrapped.asobject\(\) must return an initialized tvm_ffi.Object"
    ):
        testing.echo(_Wrapped(5))
    with pytest.raises(NotImplementedError):
        testing.echo(core.ObjectConvertible())


def test_convert_gives_string_and_bytes():
    s, b = tvm_ffi.convert("hello"), tvm_ffi.convert(b"bytes")
    assert isinstance(s, core.String) and s == "hello"
    assert isinstance(b, core.Bytes) and b == b"bytes"
    assert testing.echo(s) == "hello"
