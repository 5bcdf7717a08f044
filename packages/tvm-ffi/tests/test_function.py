"""Global function registry, Function objects, typed-function errors and GIL release."""

import sys
import threading
import time
import uuid

import pytest
import tvm_ffi
from tvm_ffi import testing

# The native global itself (tvm_ffi.testing.add_one is a Python helper around it, as upstream).
native_add_one = tvm_ffi.get_global_func("testing.add_one")


def unique(prefix="test.fn"):
    return f"{prefix}.{uuid.uuid4().hex[:8]}"


def test_register_direct_then_get_and_call():
    name = unique()
    tvm_ffi.register_global_func(name, lambda x, y: x * y)
    try:
        f = tvm_ffi.get_global_func(name)
        assert isinstance(f, tvm_ffi.Function)
        assert f(6, 7) == 42
        assert name in tvm_ffi.list_global_func_names()
    finally:
        assert tvm_ffi.remove_global_func(name)


def test_register_as_decorator_returns_the_python_function():
    name = unique()

    @tvm_ffi.register_global_func(name)
    def concat(a, b):
        return a + b

    try:
        assert concat("a", "b") == "ab"  # still the plain Python function
        assert tvm_ffi.get_global_func(name)("x", "yz") == "xyz"
    finally:
        tvm_ffi.remove_global_func(name)


def test_register_existing_name_needs_override():
    name = unique()
    tvm_ffi.register_global_func(name, lambda: 1)
    try:
        with pytest.raises(KeyError, match=name):
            tvm_ffi.register_global_func(name, lambda: 2)
        assert tvm_ffi.get_global_func(name)() == 1
        tvm_ffi.register_global_func(name, lambda: 3, override=True)
        assert tvm_ffi.get_global_func(name)() == 3
    finally:
        tvm_ffi.remove_global_func(name)


def test_register_rejects_non_callable_and_non_str_name():
    with pytest.raises(TypeError, match="callable"):
        tvm_ffi.register_global_func(unique(), 42)
    with pytest.raises(TypeError, match="func_name"):
        tvm_ffi.register_global_func(3, lambda: 1)


def test_get_missing_names_it_or_returns_none():
    name = unique("test.missing")
    with pytest.raises(ValueError, match=name.replace(".", r"\.")):
        tvm_ffi.get_global_func(name)
    assert tvm_ffi.get_global_func(name, allow_missing=True) is None


def test_remove_and_list():
    name = unique()
    tvm_ffi.register_global_func(name, lambda: None)
    names = tvm_ffi.list_global_func_names()
    assert name in names
    assert list(names) == sorted(names)
    assert "testing.echo" in names
    assert tvm_ffi.remove_global_func(name) is True
    assert tvm_ffi.remove_global_func(name) is False
    assert name not in tvm_ffi.list_global_func_names()
    assert tvm_ffi.get_global_func(name, allow_missing=True) is None


def test_function_from_callable():
    f = tvm_ffi.Function(lambda a, b=10: a - b)
    assert isinstance(f, tvm_ffi.Function)
    assert f(15) == 5
    assert f(15, 1) == 14
    with pytest.raises(TypeError):
        tvm_ffi.Function(123)


def test_python_callables_become_functions():
    seen = []

    def callback(*args):
        seen.append(args)
        return sum(args)

    assert testing.apply(callback, 1, 2, 3) == 6
    assert seen == [(1, 2, 3)]
    f = testing.echo(callback)
    assert isinstance(f, tvm_ffi.Function)
    assert f(4, 5) == 9
    # A Function passed back through the FFI stays the same object.
    assert testing.echo(f).same_as(f)


def test_function_calls_native_function_passed_as_argument():
    assert testing.apply(native_add_one, 41) == 42
    counter = []
    testing.call_n_times(lambda: counter.append(1), 5)
    assert len(counter) == 5


def test_typed_function_wrong_argument_type():
    with pytest.raises(TypeError) as info:
        native_add_one("x")
    message = str(info.value)
    assert "testing.add_one" in message
    assert "#0" in message
    assert "`int`" in message
    assert "`str`" in message


def test_typed_function_wrong_argument_count():
    with pytest.raises(TypeError, match=r"testing\.add_one.*Expected 1 but got 2"):
        native_add_one(1, 2)
    with pytest.raises(TypeError, match=r"Expected 1 but got 0"):
        native_add_one()


def test_typed_function_converts_bool_and_rejects_float():
    assert native_add_one(True) == 2
    with pytest.raises(TypeError, match="float"):
        native_add_one(1.5)


def test_release_gil_attribute():
    f = tvm_ffi.get_global_func("testing.sleep_ms")
    assert f.release_gil in (False, True)
    g = tvm_ffi.get_global_func("testing.nop")
    g.release_gil = True
    assert g.release_gil is True
    g.release_gil = False
    assert g.release_gil is False


def _ticks_during_native_sleep(release_gil):
    """How often the main thread ran Python while another thread sat in testing.sleep_ms.

    A huge switch interval means a thread that holds the GIL keeps it until it blocks, so
    the main thread (ticking with 1 ms sleeps) can only run during the native call if the
    call released the GIL.
    """
    sleep = tvm_ffi.get_global_func("testing.sleep_ms")
    old_interval = sys.getswitchinterval()
    sleep.release_gil = release_gil
    ticks = []
    result = {}
    done = threading.Event()

    def worker():
        before = len(ticks)
        sleep(300)
        result["ticks"] = len(ticks) - before
        done.set()

    sys.setswitchinterval(30.0)
    try:
        thread = threading.Thread(target=worker)
        thread.start()
        for _ in range(5000):  # bounded: at most ~5 s
            if done.is_set():
                break
            ticks.append(1)
            time.sleep(0.001)
        thread.join(10)
    finally:
        sys.setswitchinterval(old_interval)
        sleep.release_gil = False
    assert done.is_set()
    return result["ticks"]


def test_long_call_with_release_gil_lets_python_threads_run():
    assert _ticks_during_native_sleep(release_gil=True) >= 5


def test_long_call_without_release_gil_holds_the_gil():
    assert _ticks_during_native_sleep(release_gil=False) == 0
