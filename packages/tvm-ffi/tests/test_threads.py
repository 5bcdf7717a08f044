"""Thread safety: concurrent registration, lookup and calls from several Python threads."""

import threading

import tvm_ffi
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
