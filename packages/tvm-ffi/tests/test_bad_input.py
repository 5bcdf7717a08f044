"""Bad input from Python: misused objects, descriptors and hooks raise clear errors, never crash."""

import subprocess
import sys
import threading

import numpy as np
import pytest
import tvm_ffi
from tvm_ffi import _core, testing
from tvm_ffi import error as ffi_error


def make_base():
    return testing.TestObjectBase(1, 2.0, "s")


def run_in_small_stack_thread(target):
    """Runs target() in a thread with a 1 MiB C stack; returns the exception it raised."""
    caught = []

    def body():
        try:
            target()
        except BaseException as e:  # noqa: BLE001 - handed back to the test
            caught.append(e)

    old = threading.stack_size(1 << 20)
    try:
        t = threading.Thread(target=body)
        t.start()
    finally:
        threading.stack_size(old)
    t.join(timeout=60)
    assert not t.is_alive()
    return caught[0] if caught else None


# ---- reflected fields on the wrong object ----
def test_field_descriptor_rejects_objects_of_other_types():
    base_field = testing.TestObjectBase.__dict__["v_i64"]
    arr = tvm_ffi.Array([1, 2])
    with pytest.raises(
        TypeError,
        match="field v_i64: expected an initialized testing.TestObjectBase object, got ffi.Array",
    ):
        base_field.__get__(arr, testing.TestObjectBase)
    with pytest.raises(TypeError, match="got ffi.Array"):
        base_field.__set__(arr, 5)
    assert list(arr) == [1, 2]
    with pytest.raises(TypeError, match="got int"):
        base_field.__set__(5, 5)
    derived_field = testing.TestObjectDerived.__dict__["v_array"]
    with pytest.raises(
        TypeError, match="testing.TestObjectDerived object, got testing.TestObjectBase"
    ):
        derived_field.__get__(make_base(), testing.TestObjectDerived)
    # A derived object has the base's fields.
    derived = testing.TestObjectDerived({}, [3], 25)
    assert base_field.__get__(derived, testing.TestObjectDerived) == 25


def test_field_on_uninitialized_object_raises():
    empty = testing.TestObjectBase.__new__(testing.TestObjectBase)
    with pytest.raises(TypeError, match="field v_i64: expected an initialized"):
        _ = empty.v_i64
    with pytest.raises(TypeError, match="field v_i64: expected an initialized"):
        empty.v_i64 = 1


# ---- moving handles between Python objects ----
def test_move_handle_rejects_a_handle_the_native_type_cannot_hold():
    arr = tvm_ffi.Array([1])
    f = tvm_ffi.Function(lambda: 7)
    with pytest.raises(
        TypeError,
        match="__move_handle_from__: a tvm_ffi.core.Function cannot hold an object of type "
        "ffi.Array",
    ):
        f.__move_handle_from__(arr)
    assert f() == 7
    t = tvm_ffi.Tensor()
    with pytest.raises(TypeError, match="Tensor cannot hold an object of type ffi.Array"):
        t.__move_handle_from__(arr)
    assert list(arr) == [1]
    with pytest.raises(
        TypeError, match="__init_handle_by_constructor__: a tvm_ffi.core.Tensor cannot hold"
    ):
        t.__init_handle_by_constructor__(tvm_ffi.convert, [1])


def test_calling_a_function_whose_handle_was_moved_out_raises():
    f = tvm_ffi.Function(lambda: 1)
    holder = tvm_ffi.Object()
    holder.__move_handle_from__(f)
    with pytest.raises(ValueError, match="Function is not initialized"):
        f()
    assert testing.apply(holder) == 1


def test_move_handle_onto_itself_keeps_the_object():
    arr = tvm_ffi.Array([1, 2])
    arr.__move_handle_from__(arr)
    assert list(arr) == [1, 2]


# ---- class registration ----
def test_register_object_rejects_native_types_that_cannot_hold_the_key():
    with pytest.raises(
        TypeError,
        match="register_object: a tvm_ffi.core.Function cannot hold an object of type ffi.Array",
    ):
        _core.register_object_class("ffi.Array", tvm_ffi.Function)
    with pytest.raises(TypeError, match="Tensor cannot hold an object of type ffi.Array"):
        _core.register_object_class("ffi.Array", tvm_ffi.Tensor)
    assert type(tvm_ffi.convert([1])) is tvm_ffi.Array


def test_set_dtype_class_rejects_classes_that_are_not_str():
    for bad in (5, None, int):
        with pytest.raises(
            TypeError, match="set_dtype_class: argument `cls` must be a subclass of str"
        ):
            _core.set_dtype_class(bad)
    assert testing.echo(tvm_ffi.dtype("float32")) == "float32"


def test_dtype_fields_out_of_range():
    with pytest.raises(ValueError, match=r"lanes in 1..65535, got \(2, 32, -1\)"):
        tvm_ffi.dtype("float32").with_lanes(-1)
    with pytest.raises(ValueError, match="expected type code and bits in 0..255"):
        _core.dtype_to_str(300, 32, 1)


# ---- devices ----
def test_device_subclass_crosses_as_a_device():
    class MyDevice(tvm_ffi.Device):
        pass

    back = testing.echo(MyDevice(1, 0))
    assert type(back) is tvm_ffi.Device
    assert back == tvm_ffi.device("cpu", 0)


def test_device_arguments_of_the_wrong_type_name_the_argument():
    with pytest.raises(TypeError, match="Device: argument `device_id` must be an int, got str"):
        tvm_ffi.device("cpu", "x")
    # A device name is accepted (Device("cpu"), as upstream); other non-ints are refused.
    with pytest.raises(TypeError, match="Device: argument `device_type` must be an int, got list"):
        tvm_ffi.Device([1])
    with pytest.raises(OverflowError, match="Device: argument `device_id` does not fit in int32"):
        tvm_ffi.device("cpu", 2**40)


# ---- tensors ----
def test_tensor_empty_with_an_overflowing_shape_raises():
    empty = tvm_ffi.get_global_func("ffi.TensorEmpty")
    cpu = tvm_ffi.device("cpu")
    for shape in [(2**40, 2**40), (2**62, 4), (2**61,)]:
        with pytest.raises(
            MemoryError, match="ffi.TensorEmpty: (argument `shape` has too many|cannot allocate)"
        ):
            empty(shape, tvm_ffi.dtype("float32"), cpu)
    assert empty((0, 2**62), tvm_ffi.dtype("float32"), cpu).shape == (0, 2**62)


def test_from_dlpack_of_a_consumed_capsule_raises():
    capsule = np.arange(3.0).__dlpack__()

    class Producer:
        def __dlpack__(self, **kwargs):
            return capsule

    assert tvm_ffi.from_dlpack(Producer()).shape == (3,)
    with pytest.raises(BufferError, match="already consumed"):
        tvm_ffi.from_dlpack(Producer())


def test_from_dlpack_of_a_non_capsule_names_what_came_back():
    class Producer:
        def __dlpack__(self, **kwargs):
            return 5

    with pytest.raises(TypeError, match="__dlpack__\\(\\) returned int, expected a DLPack capsule"):
        tvm_ffi.from_dlpack(Producer())


# ---- errors ----
@pytest.mark.parametrize(
    ("name", "value", "range_text"),
    [
        ("testing.add_one_i32", 2**40, r"an int32 in \[-2147483648, 2147483647\]"),
        ("testing.add_one_i32", -(2**31) - 1, r"an int32 in \[-2147483648, 2147483647\]"),
        ("testing.id_u8", 300, r"a uint8 in \[0, 255\]"),
        ("testing.id_u8", -1, r"a uint8 in \[0, 255\]"),
    ],
)
def test_narrow_int_parameter_out_of_range_raises(name, value, range_text):
    f = tvm_ffi.get_global_func(name)
    pattern = (
        rf"Argument #0 out of range when calling: `{name}\(0: int\) -> int`\. "
        rf"Expected {range_text} but got {value}"
    )
    with pytest.raises(OverflowError, match=pattern):
        f(value)


def test_narrow_int_parameter_in_range():
    assert tvm_ffi.get_global_func("testing.add_one_i32")(2**31 - 2) == 2**31 - 1
    assert tvm_ffi.get_global_func("testing.id_u8")(255) == 255
    assert tvm_ffi.get_global_func("testing.id_u8")(True) == 1


def test_unencodable_str_argument_names_the_argument():
    with pytest.raises(UnicodeEncodeError, match="'utf-8' codec can't encode") as info:
        testing.echo(1, "\ud800")
    assert info.value.__notes__ == ["while converting argument 1 of an FFI function call"]
    assert info.value.start == 0


class ErrorWithCode(Exception):
    def __init__(self, message, code=0):
        super().__init__(message)
        self.code = code


class RaisingIndex:
    def __init__(self, exc):
        self.exc = exc

    def __index__(self):
        raise self.exc


@pytest.mark.parametrize(
    "exc",
    [
        ErrorWithCode("boom", code=42),
        FileNotFoundError(2, "No such file", "/missing"),
        KeyError("k"),
    ],
    ids=repr,
)
def test_exception_raised_while_an_argument_converts_is_kept(exc):
    # It used to be rebuilt from its message: code=42 became 0 and OSError lost errno/filename.
    with pytest.raises(type(exc)) as info:
        testing.echo(RaisingIndex(exc))
    assert info.value is exc
    assert info.value.__notes__ == ["while converting argument 0 of an FFI function call"]
    assert vars(info.value) == vars(exc) and info.value.args == exc.args


def test_system_exit_raised_while_an_argument_converts_keeps_its_status():
    code = """
import tvm_ffi
class Exit:
    def __index__(self):
        raise SystemExit(3)
tvm_ffi.get_global_func("testing.echo")(Exit())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 3, out.stderr


def test_error_kind_whose_class_needs_more_than_a_message():
    with pytest.raises(UnicodeError, match="bad bytes"):
        testing.test_raise_error("UnicodeDecodeError", "bad bytes")


def test_error_hook_returning_a_non_exception_still_raises():
    try:
        _core.set_error_hooks(
            lambda *args: 5, ffi_error._kind_of_exception, ffi_error._format_traceback
        )
        with pytest.raises(RuntimeError, match="ValueError: boom"):
            testing.test_raise_error("ValueError", "boom")
    finally:
        _core.set_error_hooks(
            ffi_error._make_exception, ffi_error._kind_of_exception, ffi_error._format_traceback
        )


def test_deep_traceback_is_cut_to_the_newest_frames():
    def deep(n):
        if n == 0:
            raise ValueError("bottom")
        return deep(n - 1)

    try:
        deep(200)
    except ValueError as e:
        text = ffi_error._format_traceback(e)
    lines = text.splitlines()
    assert lines[0].strip().endswith("earlier frames omitted")
    assert len(lines) == ffi_error._MAX_TRACEBACK_FRAMES + 1
    assert "in deep" in lines[-1]


# ---- recursion that runs out of C stack ----
def test_callback_recursion_in_a_small_stack_raises_recursion_error():
    def recurse(n):
        return testing.apply(recurse, n + 1)

    err = run_in_small_stack_thread(lambda: testing.apply(recurse, 0))
    assert isinstance(err, RecursionError)


def test_deep_container_with_a_raised_recursion_limit_raises_recursion_error():
    nested = []
    for _ in range(100_000):
        nested = [nested]
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1_000_000)
    try:
        err = run_in_small_stack_thread(lambda: tvm_ffi.convert(nested))
    finally:
        sys.setrecursionlimit(old)
    assert isinstance(err, RecursionError)


# ---- containers and modules ----
def test_array_index_of_the_wrong_kind():
    arr = tvm_ffi.Array([1, 2, 3])
    with pytest.raises(IndexError):
        arr[2**70]
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        arr[1.0]
    assert arr[np.int64(-1)] == 3


def test_repr_of_uninitialized_objects():
    for cls in (tvm_ffi.Array, tvm_ffi.Map, tvm_ffi.Shape, tvm_ffi.Module):
        assert "(uninitialized)" in repr(cls.__new__(cls))


def test_remove_global_func_name_must_be_str():
    with pytest.raises(
        TypeError, match="remove_global_func: argument `name` must be a str, got NoneType"
    ):
        tvm_ffi.remove_global_func(None)


def test_load_module_path_checks(tmp_path):
    with pytest.raises(ValueError, match="load_module: argument `path` contains a NUL character"):
        tvm_ffi.load_module(str(tmp_path / "a\0b.so"))
    with pytest.raises(FileNotFoundError, match="load_module: no file at"):
        tvm_ffi.load_module(bytes(tmp_path / "missing.so"))
