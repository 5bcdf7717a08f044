"""The cyclic GC and FFI objects: cycles through Functions, Arrays and Maps are collected."""

import gc
import weakref

import pytest
import tvm_ffi
from tvm_ffi import testing


class Holder:
    pass


def _cycle(kind):
    """A Holder reachable only through a cycle that crosses an FFI object; a weak ref to it."""
    h = Holder()
    if kind == "function":
        h.ffi = tvm_ffi.Function(lambda: h)
    elif kind == "array":
        h.ffi = tvm_ffi.Array([1, h])
    elif kind == "map":
        h.ffi = tvm_ffi.Map({"k": h})
    elif kind == "array of callbacks":
        h.ffi = tvm_ffi.Array([lambda: h])
    elif kind == "nested":
        h.ffi = tvm_ffi.Map({"a": [[tvm_ffi.Function(lambda: h)]]})
    return weakref.ref(h)


@pytest.mark.parametrize("kind", ["function", "array", "map", "array of callbacks", "nested"])
def test_cycle_through_ffi_object_is_collected(kind):
    ref = _cycle(kind)
    gc.collect()
    assert ref() is None


def test_shared_ffi_object_keeps_what_it_holds():
    # Two wrappers of one Array (and a C++ reference) own it together: neither may claim
    # the Python objects inside, and a collection must leave them intact.
    h = Holder()
    h.value = 7
    h.arr = tvm_ffi.Array([h])
    other = testing.echo(h.arr)
    ref = weakref.ref(h)
    del h
    gc.collect()
    assert ref() is not None
    assert other[0].value == 7
    del other
    gc.collect()
    assert ref() is None


def test_reachable_cycle_member_survives_collection():
    h = Holder()
    h.f = tvm_ffi.Function(lambda h=h: h)
    f = h.f
    del h
    gc.collect()
    assert f() is not None
    assert f().f.same_as(f)


def test_cycle_with_a_finalizer_is_collected():
    seen = []

    class Finalized:
        def __del__(self):
            seen.append(self.f() is self)  # finalizers run before the GC clears the cycle

    h = Finalized()
    h.f = tvm_ffi.Function(lambda h=h: h)
    del h
    gc.collect()
    assert seen == [True]
