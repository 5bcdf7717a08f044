"""Errors across the FFI: builtin kinds, registered kinds, native traceback entries, no cycles."""

import gc
import traceback
import weakref

import pytest
import tvm_ffi
from tvm_ffi import testing

BUILTIN_KINDS = [
    ValueError,
    TypeError,
    AttributeError,
    KeyError,
    IndexError,
    RuntimeError,
    NotImplementedError,
    AssertionError,
    MemoryError,
    TimeoutError,
    OverflowError,
]


@pytest.mark.parametrize("cls", BUILTIN_KINDS, ids=lambda c: c.__name__)
def test_builtin_kinds_arrive_as_builtin_classes(cls):
    with pytest.raises(cls) as info:
        testing.test_raise_error(cls.__name__, "the message")
    assert type(info.value) is cls
    assert "the message" in str(info.value)


def test_unknown_kind_is_runtime_error_naming_the_kind():
    with pytest.raises(RuntimeError) as info:
        testing.test_raise_error("SomeUnknownKind", "details")
    assert type(info.value) is RuntimeError
    assert "SomeUnknownKind" in str(info.value)
    assert "details" in str(info.value)


def test_traceback_contains_the_native_frame():
    with pytest.raises(ValueError) as info:
        testing.test_raise_error("ValueError", "with frames")
    frames = traceback.extract_tb(info.value.__traceback__)
    native = [f for f in frames if f.filename.endswith("testing.cc")]
    assert native, [(f.filename, f.name) for f in frames]
    assert native[-1].name == "RaiseError"
    assert native[-1].lineno > 0
    # Most recent call last: the native frame comes after this test's own frame.
    names = [f.name for f in frames]
    assert names.index("test_traceback_contains_the_native_frame") < names.index("RaiseError")
    text = "".join(traceback.format_exception(info.value))
    assert 'testing.cc", line' in text
    assert "in RaiseError" in text


def test_traceback_limit_env_caps_native_frames(monkeypatch):
    monkeypatch.setenv("TVM_TRACEBACK_LIMIT", "0")
    with pytest.raises(ValueError) as info:
        testing.test_raise_error("ValueError", "no frames")
    frames = traceback.extract_tb(info.value.__traceback__)
    assert not [f for f in frames if f.filename.endswith(".cc")]


class RegisteredError(ValueError):
    pass


tvm_ffi.register_error("TestRegisteredKind", RegisteredError)


@tvm_ffi.register_error
class DecoratedError(RuntimeError):
    pass


def test_registered_kind_from_native():
    with pytest.raises(RegisteredError, match="native side"):
        testing.test_raise_error("TestRegisteredKind", "native side")
    with pytest.raises(DecoratedError, match="by class name"):
        testing.test_raise_error("DecoratedError", "by class name")


def test_registered_class_raised_in_callback_comes_back_as_same_object():
    original = RegisteredError("from python")

    def callback():
        raise original

    with pytest.raises(RegisteredError) as info:
        testing.apply(callback)
    assert info.value is original
    names = [f.name for f in traceback.extract_tb(info.value.__traceback__)]
    assert "callback" in names


def test_builtin_raised_in_callback_keeps_type_and_traceback():
    def inner():
        raise KeyError("missing-key")

    def outer():
        inner()

    with pytest.raises(KeyError) as info:
        testing.apply(outer)
    names = [f.name for f in traceback.extract_tb(info.value.__traceback__)]
    assert names[-2:] == ["outer", "inner"]


def test_callback_error_through_two_native_layers():
    def leaf():
        raise IndexError("deep")

    with pytest.raises(IndexError, match="deep"):
        testing.apply(testing.apply, leaf)


def test_register_error_rejects_non_exception():
    with pytest.raises(TypeError):
        tvm_ffi.register_error("NotAClass", 42)


def test_native_error_leaves_no_reference_cycles():
    gc.collect()
    gc.disable()
    try:

        class Marker:
            pass

        def raise_with_local():
            local = Marker()
            ref = weakref.ref(local)
            try:
                testing.test_raise_error("ValueError", "cycle check")
            except ValueError:
                pass
            return ref

        ref = raise_with_local()
        assert ref() is None  # freed by reference counting alone
    finally:
        gc.enable()


def test_callback_error_leaves_no_reference_cycles():
    gc.collect()
    old_flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:

        def callback():
            raise TypeError("from callback")

        for _ in range(3):
            try:
                testing.apply(callback)
            except TypeError:
                pass
            try:
                testing.test_raise_error("RuntimeError", "native")
            except RuntimeError:
                pass
        gc.collect()
        assert gc.garbage == []
    finally:
        gc.set_debug(old_flags)
        gc.garbage.clear()
