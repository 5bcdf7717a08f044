"""Thread safety: concurrent registration, lookup and calls from several Python threads."""

import threading

import pytest
import tvm_ffi
from native_build import build_library, run_python
from tvm_ffi import testing


def test_concurrent_register_get_call():
    errors = []
    obj = testing.TestObjectBase(1, 2.0, "s")
    base = testing.object_use_count(obj)

    def worker(tid):
        try:
            for i in range(200):
                name = f"test.threads.{tid}.{i % 5}"
                tvm_ffi.register_global_func(name, lambda x, tid=tid: x + tid, override=True)
                f = tvm_ffi.get_global_func(name)
                assert f(i) == i + tid
                assert testing.echo([obj, i])[1] == i
                assert testing.add_one(i) == i + 1
                tvm_ffi.list_global_func_names()
        except BaseException as err:  # noqa: BLE001 - reported by the main thread
            errors.append(err)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert testing.object_use_count(obj) == base
    for tid in range(4):
        for i in range(5):
            assert tvm_ffi.remove_global_func(f"test.threads.{tid}.{i}")


def test_concurrent_calls_with_released_gil_share_objects():
    sleep = tvm_ffi.get_global_func("testing.sleep_ms")
    obj = testing.TestObjectBase(1, 2.0, "s")
    base = testing.object_use_count(obj)
    errors = []

    def worker():
        try:
            f = tvm_ffi.Function(lambda o: o.v_i64)
            for _ in range(300):
                assert testing.apply(f, obj) == 1
                tvm_ffi.Array([obj, obj])
            sleep(1)
        except BaseException as err:  # noqa: BLE001
            errors.append(err)

    sleep.release_gil = True
    try:
        threads = [threading.Thread(target=worker) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    finally:
        sleep.release_gil = False
    assert errors == []
    assert testing.object_use_count(obj) == base


CALLBACK_LIBRARY = r"""
#include <tvm_ffi/ffi.h>

#include <thread>
#include <vector>

using namespace tvm::ffi;

// Calls f from threads of its own and waits for them: the caller must not hold the GIL.
void CallFromThreads(Function f, int64_t threads, int64_t calls) {
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < threads; ++t) {
    pool.emplace_back([f, calls]() {
      for (int64_t i = 0; i < calls; ++i) f();
    });
  }
  for (auto& t : pool) t.join();
}

// Calls f n times; like many plugins, it turns every exception into an error count.
int64_t CallLoop(Function f, int64_t n) {
  int64_t failures = 0;
  for (int64_t i = 0; i < n; ++i) {
    try {
      f();
    } catch (...) {
      ++failures;
    }
  }
  return failures;
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_from_threads, CallFromThreads);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_loop, CallLoop);

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef().def("callbacks.call_from_threads", CallFromThreads);
});
"""


@pytest.fixture(scope="module")
def callback_library(tmp_path_factory):
    return build_library(
        tmp_path_factory.mktemp("callbacks"), "callbacks", CALLBACK_LIBRARY, "c++", link_ffi=True
    )


def test_plugin_global_calling_python_from_its_threads(callback_library):
    code = (
        "import sys, tvm_ffi\n"
        "mod = tvm_ffi.load_module(sys.argv[1])\n"
        "hits = []\n"
        "g = tvm_ffi.get_global_func('callbacks.call_from_threads')\n"
        "for f in (mod.call_from_threads, g):\n"
        "    assert f.release_gil\n"
        "    f(lambda: hits.append(1), 4, 25)\n"
        "print(len(hits))\n"
    )
    # A child process: before the fix the registry's copy deadlocks.
    result = run_python(code, callback_library, timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "200"


def test_tvm_ffi_own_functions_keep_the_gil():
    assert not tvm_ffi.get_global_func("testing.nop").release_gil
    assert not tvm_ffi.Function(lambda: None).release_gil


# Daemon threads stay inside a GIL-released plugin call that calls Python back, when the
# interpreter exits; the plugin swallows every exception, as many do.
EXIT_SCRIPT = """
import sys, threading, time, tvm_ffi
loop = tvm_ffi.load_module(sys.argv[1]).call_loop
callback = {"sleep": lambda: time.sleep(0.0005), "none": lambda: None}[sys.argv[2]]
for _ in range(8):
    threading.Thread(target=loop, args=(callback, 1 << 62), daemon=True).start()
time.sleep(0.1)
print("exiting")
"""


@pytest.mark.parametrize("callback", ["sleep", "none"])
def test_daemon_threads_in_python_callbacks_at_exit(callback_library, callback):
    for _ in range(5):
        result = run_python(EXIT_SCRIPT, callback_library, callback, timeout=60)
        assert result.returncode == 0, result.stderr[-2000:]
        assert "Fatal Python error" not in result.stderr
        assert result.stdout.strip() == "exiting"
