"""The native types Object, Function, Tensor, Device and FieldDescriptor: lifetimes and lockdown."""

import gc
import sys

import numpy as np
import pytest
import tvm_ffi
from tvm_ffi import core, testing


class Sub(tvm_ffi.Object):
    pass


class SubDevice(core.Device):
    pass


def _field_descriptor():
    return testing.TestObjectBase.__dict__["v_i64"]


# (the class whose reference count is watched, a function making one new instance of it)
MAKERS = [
    (core.Object, lambda: core.Object()),
    (Sub, lambda: Sub()),
    (core.Function, lambda: tvm_ffi.Function(lambda: None)),
    (core.Tensor, lambda: tvm_ffi.from_dlpack(np.zeros(3, "float32"))),
    (core.Device, lambda: core.Device(1, 0)),
    (SubDevice, lambda: SubDevice(1, 0)),
    (tvm_ffi.Array, lambda: tvm_ffi.Array([1, 2])),
]


@pytest.mark.parametrize("cls, make", MAKERS, ids=[c.__name__ for c, _ in MAKERS])
def test_dropped_instances_leave_their_class_as_it_was(cls, make):
    # Each instance may hold its class; dropping it must give that reference back exactly once
    # (a leak would grow the count, a second release shrink it).
    for _ in range(3):
        make()  # first uses fill caches (the class table, interned names)
    gc.collect()
    before = sys.getrefcount(cls)
    made = [make() for _ in range(200)]
    assert all(type(x) is cls for x in made)
    del made
    gc.collect()
    assert sys.getrefcount(cls) == before


def test_field_descriptors_are_released():
    cls = type(_field_descriptor())
    index = testing.TestObjectBase.__ffi_type_index__
    gc.collect()
    before = sys.getrefcount(cls)
    for _ in range(200):
        tvm_ffi._core.type_info(index)  # makes a new descriptor per field each time
    gc.collect()
    assert sys.getrefcount(cls) == before


@pytest.mark.parametrize("cls", [core.Object, core.Function, core.Tensor, core.Device])
def test_native_types_cannot_be_patched(cls):
    with pytest.raises(TypeError, match="immutable type|built-in/extension type"):
        cls.patched = 1
    assert not hasattr(cls, "patched")


def test_field_descriptor_cannot_be_made_from_python():
    with pytest.raises(TypeError, match="cannot create"):
        type(_field_descriptor())()


def test_python_subclasses_stay_open():
    Sub.extra = 5
    assert Sub().extra == 5
    del Sub.extra


def test_function_calls_through_vectorcall_and_call():
    f = tvm_ffi.get_global_func("testing.echo")
    assert f(3) == 3
    assert type(f).__call__(f, "x") == "x"  # tp_call: the tuple path
