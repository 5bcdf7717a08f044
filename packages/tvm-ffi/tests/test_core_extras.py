"""tvm_ffi.core's ObjectRValueRef / FFIProperty / FieldGetter / FieldSetter / ByteArrayArg /
DLTensorTestWrapper, TestObjectPtrHolder and the re-exports upstream modules carry."""

import pytest
import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import core


def test_move_hands_the_reference_to_the_call():
    echo = tvm_ffi.get_global_func("testing.echo")
    pair = t.TestIntPair(1, 2)
    ref = pair._move()
    assert isinstance(ref, core.ObjectRValueRef) and ref.obj is pair
    out = echo(ref)
    assert (out.a, out.b) == (1, 2)
    assert pair.__ffi_handle__ == 0  # moved out
    with pytest.raises(ValueError, match="already moved"):
        echo(ref)
    with pytest.raises(TypeError, match="argument `obj` must be a tvm_ffi.Object, got int"):
        core.ObjectRValueRef(3)


def test_field_property_getter_setter():
    prop = t.TestIntPair.__dict__["a"]
    assert isinstance(prop, core.FFIProperty)
    pair = t.TestIntPair(1, 2)
    assert core.FieldGetter(prop)(pair) == 1
    core.FieldSetter(prop)(pair, 5)  # the escape hatch writes a read-only field
    assert pair.a == 5
    with pytest.raises(TypeError, match="FieldGetter: argument `field` must be a reflected"):
        core.FieldGetter(property(lambda s: 1))
    with pytest.raises(TypeError, match="FieldSetter: argument `field` must be a reflected"):
        core.FieldSetter(None)


def test_byte_array_arg():
    arg = core.ByteArrayArg(bytearray(b"ab"))
    assert arg.data == b"ab"
    assert tvm_ffi.get_global_func("testing.echo")(arg) is arg
    with pytest.raises(TypeError, match="argument `data` must be bytes-like, got str"):
        core.ByteArrayArg("ab")


def test_dltensor_test_wrapper():
    empty = tvm_ffi.get_global_func("ffi.TensorEmpty")
    tensor = empty((2, 3), "float32", tvm_ffi.device("cpu"))
    wrapped = core.DLTensorTestWrapper(tensor)
    assert wrapped.__dlpack_device__() == tensor.__dlpack_device__()
    back = tvm_ffi.from_dlpack(wrapped)
    assert back.shape == (2, 3) and back.data_ptr == tensor.data_ptr
    with pytest.raises(TypeError, match="argument `tensor` must be a tvm_ffi.Tensor, got list"):
        core.DLTensorTestWrapper([1])


def test_object_ptr_holder():
    base = t.create_object("testing.TestObjectBase")
    holder = t.TestObjectPtrHolder(base)
    assert holder.value.same_as(base) and holder.optional_value is None
    holder.optional_value = base
    assert holder.optional_value.same_as(base)
    with pytest.raises(TypeError, match="argument `value` must be testing.TestObjectBase"):
        t.TestObjectPtrHolder(t.TestIntPair(1, 2))
    with pytest.raises(TypeError, match="`optional_value` must be testing.TestObjectBase"):
        t.TestObjectPtrHolder(base, t.TestIntPair(1, 2))


def test_module_reexports():
    import tvm_ffi.access_path as access_path
    import tvm_ffi.cpp.extension as extension
    import tvm_ffi.stream as stream

    assert stream.device is tvm_ffi.device
    assert access_path.Object is tvm_ffi.Object
    assert access_path.register_object is tvm_ffi.register_object
    assert extension.Module is tvm_ffi.Module and extension.load_module is tvm_ffi.load_module
    assert extension.find_include_path is tvm_ffi.libinfo.find_include_path
    assert extension.find_libtvm_ffi is tvm_ffi.libinfo.find_libtvm_ffi
    assert extension.find_dlpack_include_path is tvm_ffi.libinfo.find_dlpack_include_path
    from tvm_ffi.utils.lockfile import FileLock

    assert extension.FileLock is FileLock
    from tvm_ffi.dataclasses import Object
    from tvm_ffi.dataclasses.field import TypeSchema
    from tvm_ffi.dataclasses.py_class import TypeSchema as TypeSchema2

    assert Object is tvm_ffi.Object and TypeSchema is core.TypeSchema is TypeSchema2


def test_testing_python_marks():
    assert t.testing.requires_py310.name == "skipif"
    assert t.testing.entry is tvm_ffi.dataclasses.entry


def test_device_from_a_name():
    assert tvm_ffi.Device("cuda", 1) == tvm_ffi.device("cuda", 1)
    assert tvm_ffi.Device("cpu:0") == tvm_ffi.Device(1, 0)
    with pytest.raises(ValueError, match="unknown device type 'nope'"):
        tvm_ffi.Device("nope")
    with pytest.raises(TypeError, match="argument `device_type` must be an int, got float"):
        tvm_ffi.Device(1.5)


def test_ffi_api_module():
    from tvm_ffi import _ffi_api

    assert _ffi_api.RecursiveEq(1, 1)
    assert "RecursiveHash" in dir(_ffi_api)
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        _ = _ffi_api.Nope
