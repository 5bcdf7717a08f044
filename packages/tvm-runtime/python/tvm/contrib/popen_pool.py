"""tvm.contrib.popen_pool: functions run in child Python processes, with time limits as upstream."""

from __future__ import annotations

import concurrent.futures
import enum
import os
import pickle
import select
import struct
import subprocess
import sys
import threading
from collections import namedtuple

_HEADER = struct.Struct("<Q")  # each message: its length, then its pickle
# The child's entry point: it serves calls read from one pipe, answering on another.
_CHILD = (
    "import sys; from tvm.contrib.popen_pool import _serve; "
    "_serve(int(sys.argv[1]), int(sys.argv[2]))"
)


def _pickler():
    # cloudpickle (when installed) also sends lambdas and local functions, as upstream does.
    try:
        import cloudpickle

        return cloudpickle
    except ImportError:
        return pickle


class StatusKind(enum.IntEnum):
    """How a call of map_with_error_catching ended."""

    RUNNING = 0
    COMPLETE = 1
    EXCEPTION = 2
    TIMEOUT = 3


class MapResult(namedtuple("MapResult", ["status", "value"])):
    """One result of map_with_error_catching: status (a StatusKind) and value (the function's
    result, or the exception it raised, or the TimeoutError)."""

    __slots__ = ()


class PopenWorker:
    """One child Python process that runs the functions sent to it, one at a time.

    initializer(*initargs) runs in each new process; after maximum_uses calls the process is
    replaced by a fresh one; stdout/stderr are where the child's output goes (as Popen's).
    """

    def __init__(self, initializer=None, initargs=(), maximum_uses=None, stdout=None, stderr=None):
        if initializer is not None and not callable(initializer):
            raise TypeError(
                "PopenWorker: argument 'initializer' must be callable, got "
                f"{type(initializer).__name__}"
            )
        if maximum_uses is not None and (not isinstance(maximum_uses, int) or maximum_uses < 1):
            raise ValueError(
                f"PopenWorker: argument 'maximum_uses' must be an int >= 1, got {maximum_uses!r}"
            )
        self._initializer, self._initargs = initializer, tuple(initargs)
        self._maximum_uses = maximum_uses
        self._stdout, self._stderr = stdout, stderr
        self._proc = None
        self._reader = self._writer = None
        self._uses = 0
        self._timeout = None

    def _start(self) -> None:
        child_read, parent_write = os.pipe()
        parent_read, child_write = os.pipe()
        self._proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(child_read), str(child_write)],
            pass_fds=(child_read, child_write),
            stdout=self._stdout,
            stderr=self._stderr,
        )
        os.close(child_read)
        os.close(child_write)
        self._reader = os.fdopen(parent_read, "rb")
        self._writer = os.fdopen(parent_write, "wb")
        self._uses = 0
        # The child sees what this process imports from (test folders included).
        self._write(("path", list(sys.path)))
        if self._initializer is not None:
            try:
                self._write(("init", self._initializer, self._initargs))
            except (pickle.PicklingError, AttributeError, TypeError) as err:
                # No child may serve a call without its initializer: the next send retries.
                self.kill()
                raise TypeError(
                    f"PopenWorker: cannot send the initializer {self._initializer!r} and its "
                    f"initargs to the child: {err}"
                ) from err

    def _write(self, message) -> None:
        data = _pickler().dumps(message)
        self._writer.write(_HEADER.pack(len(data)) + data)
        self._writer.flush()

    def is_alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def kill(self) -> None:
        """Stop the child process (a later send starts a new one)."""
        proc, self._proc = self._proc, None
        for stream in (self._reader, self._writer):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        self._reader = self._writer = None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()

    def join(self, timeout=None) -> None:
        """Wait for the child process to end (after kill, or when it exits)."""
        if self._proc is not None:
            try:
                self._proc.wait(timeout)
            except subprocess.TimeoutExpired:
                pass

    def send(self, fn, args=(), kwargs=None, timeout=None) -> None:
        """Start fn(*args, **kwargs) in the child; recv() gives its result. timeout (seconds)
        limits the call: past it, recv kills the child and raises TimeoutError."""
        if not callable(fn):
            raise TypeError(f"PopenWorker.send: argument 'fn' must be callable, got {fn!r}")
        if self._proc is not None and self._maximum_uses and self._uses >= self._maximum_uses:
            self.kill()  # used up: a fresh process serves the next call
        if self._proc is None or not self.is_alive():
            self.kill()
            self._start()
        self._uses += 1
        self._timeout = timeout
        try:
            self._write(("call", fn, tuple(args), dict(kwargs or {})))
        except (pickle.PicklingError, AttributeError, TypeError) as err:
            self.kill()
            raise TypeError(f"PopenWorker.send: cannot send {fn!r} to the child: {err}") from err

    def recv(self):
        """The result of the call sent last: its value, or the exception it raised."""
        if self._reader is None:
            raise ChildProcessError("PopenWorker.recv: no call is running (send one first)")
        ready, _, _ = select.select([self._reader], [], [], self._timeout)
        if not ready:
            self.kill()
            raise TimeoutError(f"PopenWorker.recv: the call took longer than {self._timeout} s")
        header = self._reader.read(_HEADER.size)
        if len(header) < _HEADER.size:
            code = self._proc.wait() if self._proc is not None else None
            self.kill()
            raise ChildProcessError(f"Subprocess terminated (exit code {code})")
        (size,) = _HEADER.unpack(header)
        ok, value = pickle.loads(self._reader.read(size))
        if ok:
            return value
        raise value

    def __del__(self):
        try:
            self.kill()
        except Exception:  # noqa: BLE001  (interpreter shutdown)
            pass


class PopenPoolExecutor:
    """A pool of PopenWorkers behind a thread pool: submit() gives a concurrent.futures.Future,
    map_with_error_catching() a MapResult per item; timeout (seconds) limits each call."""

    def __init__(
        self,
        max_workers=None,
        timeout=None,
        initializer=None,
        initargs=(),
        maximum_process_uses=None,
        stdout=None,
        stderr=None,
    ):
        if max_workers is None:
            max_workers = os.cpu_count() or 1
        if not isinstance(max_workers, int) or max_workers < 1:
            raise ValueError(
                "PopenPoolExecutor: argument 'max_workers' must be an int >= 1, got "
                f"{max_workers!r}"
            )
        if timeout is not None and (not isinstance(timeout, (int, float)) or timeout <= 0):
            raise ValueError(
                f"PopenPoolExecutor: argument 'timeout' must be a number > 0, got {timeout!r}"
            )
        self._timeout = timeout
        self._worker_args = (initializer, initargs, maximum_process_uses, stdout, stderr)
        self._threadpool = concurrent.futures.ThreadPoolExecutor(max_workers=max_workers)
        self._workers: dict = {}  # thread id -> that thread's PopenWorker
        self._lock = threading.Lock()

    def _worker(self) -> PopenWorker:
        with self._lock:
            worker = self._workers.get(threading.get_ident())
            if worker is None:
                worker = self._workers[threading.get_ident()] = PopenWorker(*self._worker_args)
            return worker

    def _worker_run(self, fn, args, kwargs):
        worker = self._worker()
        worker.send(fn, args, kwargs, self._timeout)
        return worker.recv()

    def _worker_run_with_error_catching(self, fn, args, kwargs) -> MapResult:
        try:
            return MapResult(StatusKind.COMPLETE, self._worker_run(fn, args, kwargs))
        except TimeoutError as err:
            return MapResult(StatusKind.TIMEOUT, err)
        except Exception as err:  # noqa: BLE001  (the result says how the call ended)
            return MapResult(StatusKind.EXCEPTION, err)

    def submit(self, fn, *args, **kwargs) -> concurrent.futures.Future:
        """fn(*args, **kwargs) in a child process; the future raises what the call raised."""
        return self._threadpool.submit(self._worker_run, fn, args, kwargs)

    def map_with_error_catching(self, fn, iterator):
        """fn(item) for each item, as MapResults in order; no call's failure stops the rest."""
        return self._threadpool.map(
            lambda item: self._worker_run_with_error_catching(fn, (item,), None), iterator
        )

    def shutdown(self, wait: bool = True) -> None:
        self._threadpool.shutdown(wait=wait)
        with self._lock:
            for worker in self._workers.values():
                worker.kill()
            self._workers.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.shutdown()
        return False

    def __del__(self):
        try:
            self.shutdown(wait=False)
        except Exception:  # noqa: BLE001  (interpreter shutdown)
            pass


def _serve(read_fd: int, write_fd: int) -> None:
    """The child's loop: run each call read from read_fd, answer (ok, value) on write_fd."""
    reader = os.fdopen(read_fd, "rb")
    writer = os.fdopen(write_fd, "wb")
    while True:
        header = reader.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return  # the parent closed the pipe
        (size,) = _HEADER.unpack(header)
        message = pickle.loads(reader.read(size))
        if message[0] == "path":
            sys.path[:] = message[1]
            continue
        if message[0] == "init":
            message[1](*message[2])
            continue
        _, fn, args, kwargs = message
        try:
            answer = (True, fn(*args, **kwargs))
            data = _pickler().dumps(answer)
        except Exception as err:  # noqa: BLE001  (the parent re-raises it)
            try:
                data = _pickler().dumps((False, err))
            except Exception:  # noqa: BLE001  (an exception that does not pickle)
                data = pickle.dumps((False, RuntimeError(f"{type(err).__name__}: {err}")))
        writer.write(_HEADER.pack(len(data)) + data)
        writer.flush()
