"""tvm.contrib.popen_pool: calls run in child processes, with upstream's results and errors."""

import os
import time

import pytest
from tvm.contrib.popen_pool import MapResult, PopenPoolExecutor, PopenWorker, StatusKind

_STATE = {}


def add(a, b=0):
    return a + b


def pid():
    return os.getpid()


def fail(message):
    raise ValueError(message)


def sleep_then(seconds, value):
    time.sleep(seconds)
    return value


def remember(key, value):
    _STATE[key] = value


def recall(key):
    return _STATE.get(key)


def die():
    os._exit(3)


def test_a_worker_runs_calls_in_another_process():
    worker = PopenWorker()
    worker.send(add, (1,), {"b": 2})
    assert worker.recv() == 3
    worker.send(pid)
    child = worker.recv()
    assert child != os.getpid() and worker.is_alive()
    worker.send(pid)
    assert worker.recv() == child  # the same process serves the next call
    worker.kill()
    assert not worker.is_alive()


def test_the_exception_of_a_call_is_raised_by_recv():
    worker = PopenWorker()
    worker.send(fail, ("bad input",))
    with pytest.raises(ValueError, match="bad input"):
        worker.recv()
    worker.send(add, (2, 2))
    assert worker.recv() == 4  # the worker goes on
    worker.kill()


def test_a_call_past_its_timeout_is_a_timeout_error_and_the_worker_restarts():
    worker = PopenWorker()
    worker.send(sleep_then, (30, "late"), timeout=0.5)
    with pytest.raises(TimeoutError):
        worker.recv()
    assert not worker.is_alive()
    worker.send(add, (1, 1))
    assert worker.recv() == 2
    worker.kill()


def test_a_child_that_dies_is_a_child_process_error():
    worker = PopenWorker()
    worker.send(die)
    with pytest.raises(ChildProcessError, match="Subprocess terminated"):
        worker.recv()


def test_initializer_runs_in_each_new_process_and_maximum_uses_renews_it():
    worker = PopenWorker(initializer=remember, initargs=("k", "set"), maximum_uses=2)
    worker.send(pid)
    first = worker.recv()
    worker.send(recall, ("k",))
    assert worker.recv() == "set"
    worker.send(pid)
    assert worker.recv() != first  # the third call runs in a fresh process
    worker.kill()


def test_an_initializer_that_cannot_be_sent_fails_every_call_not_just_the_first():
    import threading

    worker = PopenWorker(initializer=remember, initargs=("k", threading.Lock()))
    for _ in range(2):  # the retry must not reach a child that skipped its initializer
        with pytest.raises(TypeError, match="PopenWorker: cannot send the initializer"):
            worker.send(recall, ("k",))
    assert not worker.is_alive()


def test_the_pool_submits_futures_and_maps_with_error_catching():
    with PopenPoolExecutor(max_workers=2, timeout=10) as pool:
        assert pool.submit(add, 20, b=22).result() == 42
        with pytest.raises(ValueError, match="boom"):
            pool.submit(fail, "boom").result()
        results = list(pool.map_with_error_catching(add, [1, 2, "x"]))
    assert [r.status for r in results] == [
        StatusKind.COMPLETE,
        StatusKind.COMPLETE,
        StatusKind.EXCEPTION,
    ]
    assert results[0] == MapResult(StatusKind.COMPLETE, 1)
    assert isinstance(results[2].value, TypeError)


def test_the_pool_reports_timeouts():
    with PopenPoolExecutor(max_workers=1, timeout=0.5) as pool:
        (result,) = pool.map_with_error_catching(lambda_free_sleep, [30])
    assert result.status == StatusKind.TIMEOUT
    assert isinstance(result.value, TimeoutError)


def lambda_free_sleep(seconds):
    return sleep_then(seconds, None)


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: PopenWorker(initializer=3), TypeError, "argument 'initializer' must be callable"),
        (lambda: PopenWorker(maximum_uses=0), ValueError, "argument 'maximum_uses' must be"),
        (lambda: PopenWorker().send(3), TypeError, "argument 'fn' must be callable"),
        (lambda: PopenWorker().recv(), ChildProcessError, "no call is running"),
        (lambda: PopenPoolExecutor(max_workers=0), ValueError, "argument 'max_workers' must be"),
        (lambda: PopenPoolExecutor(timeout=-1), ValueError, "argument 'timeout' must be"),
    ],
)
def test_bad_arguments_name_them(make, error, message):
    with pytest.raises(error, match=message):
        make()
