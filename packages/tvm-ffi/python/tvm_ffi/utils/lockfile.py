"""FileLock: an exclusive lock on a file shared by processes (e.g. concurrent extension builds)."""

import os
import time


class FileLock:
    """``with FileLock(path): ...`` holds an exclusive lock on `path` (created if missing).

    acquire() returns True once held; with timeout=None it waits forever, otherwise it raises
    TimeoutError after `timeout` seconds. The lock is per open file, so threads of one
    process each taking their own FileLock exclude each other as processes do.
    """

    def __init__(self, lock_file_path):
        self.lock_file_path = os.fspath(lock_file_path)
        self._fd = None

    def acquire(self, timeout=None, poll_interval=0.05):
        import fcntl

        if self._fd is not None:
            raise RuntimeError(
                f"FileLock.acquire: {self.lock_file_path} is already held by this FileLock"
            )
        fd = os.open(self.lock_file_path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self._fd = fd
                return True
            except BlockingIOError:
                if deadline is not None and time.monotonic() >= deadline:
                    os.close(fd)
                    raise TimeoutError(
                        f"FileLock.acquire: could not lock {self.lock_file_path} within {timeout} s"
                    ) from None
                time.sleep(poll_interval)

    def release(self):
        import fcntl

        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc_info):
        self.release()
