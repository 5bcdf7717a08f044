"""tvm_ffi.testing.run_with_gpu_lock: runs a callable under a machine-wide file lock."""

import multiprocessing
import time

from tvm_ffi import testing


def test_runs_the_callable_and_returns_its_result(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_TEST_LOCK_DIR", str(tmp_path / "locks"))
    monkeypatch.setattr("tvm_ffi.testing._locking._GPU_LOCK_PATH", None)
    assert testing.run_with_gpu_lock(lambda a, b=0: a + b, 40, b=2) == 42
    assert (tmp_path / "locks" / "gpu.lock").exists()


def _hold(lock_dir, log, pause):
    import os

    os.environ["TVM_FFI_TEST_LOCK_DIR"] = lock_dir

    def body():
        with open(log, "a") as f:
            f.write("start\n")
        time.sleep(pause)
        with open(log, "a") as f:
            f.write("end\n")

    from tvm_ffi import testing as t

    t.run_with_gpu_lock(body)


def test_two_processes_take_turns(tmp_path):
    log = tmp_path / "log.txt"
    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=_hold, args=(str(tmp_path), str(log), 0.3)) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=60)
        assert w.exitcode == 0
    assert log.read_text().split() == ["start", "end", "start", "end"]
