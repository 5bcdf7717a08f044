"""The server process: accepts connections, forks one worker per session, enforces session
time limits, and keeps its tracker (if any) told whether it is free."""

import collections
import ctypes
import logging
import multiprocessing
import os
import secrets
import selectors
import signal
import socket
import sys
import time

from . import worker as worker_mod
from .channel import new_frame
from .codec import encode
from .protocol import FRAME_HEADER, Code
from .tracker import DEFAULT_MATCH_TIMEOUT, TrackerServerLink

logger = logging.getLogger("tvm.rpc")

# How long the server waits for a worker to finish writing a frame before it sends the
# timeout notice anyway (the worker is killed right after).
_NOTICE_LOCK_WAIT = 2.0
# How many expired match keys a server remembers, to tell a late client why it is refused.
_EXPIRED_KEYS_KEPT = 16


class _Worker:
    __slots__ = ("pid", "conn", "status_fd", "lock", "deadline", "limit", "peer", "tracked")

    def __init__(self, pid, conn, status_fd, lock, peer):
        self.pid = pid
        self.conn = conn
        self.status_fd = status_fd
        self.lock = lock
        self.deadline = None
        self.limit = 0.0
        self.peer = peer
        self.tracked = False


def _die_with_parent():
    """Workers die with their server even when it is killed with SIGKILL (Linux)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def timeout_notice(limit):
    """The EXCEPTION frame telling a client its session ran out of time."""
    frame = new_frame()
    for value in ("RPCSessionTimeoutError",
                  f"tvm.rpc: the session ran past its session_timeout of {limit:g} s; "
                  "the server ended it", ""):
        encode(value, frame)
    FRAME_HEADER.pack_into(frame, 0, len(frame) - 8, Code.EXCEPTION, len(frame) - FRAME_HEADER.size)
    return bytes(frame)


class ServerLoop:
    def __init__(self, listen_sock, key="", tracker_addr=None, custom_addr=None,
                 max_frame_size=None, match_timeout=DEFAULT_MATCH_TIMEOUT):
        self.listen_sock = listen_sock
        self.key = key
        self.max_frame_size = max_frame_size
        self.workers = {}  # status fd -> _Worker
        self.selector = selectors.DefaultSelector()
        self.tracker = None
        self.match_key = None
        self.tracker_busy = False
        self.match_timeout = match_timeout
        self.match_deadline = None  # set while a client the tracker matched us to is awaited
        self.expired_keys = collections.deque(maxlen=_EXPIRED_KEYS_KEPT)
        self._mp = multiprocessing.get_context("fork")
        if tracker_addr is not None:
            host, port = listen_sock.getsockname()[:2]
            if host in ("0.0.0.0", "::"):
                host = "127.0.0.1"  # a wildcard bind is no address to hand out: use custom_addr
            self.tracker = TrackerServerLink(tracker_addr, key, custom_addr or host, port)

    # -- keys ---------------------------------------------------------------------------
    def _new_match_key(self):
        self.match_key = f"{self.key}:{secrets.token_hex(8)}"
        self.match_deadline = None
        self.tracker.put(self.match_key)

    def accept_key(self, key):
        """True, or why the key is refused (run in a worker, on the state at its fork)."""
        if self.tracker is None:
            return key == self.key
        if key in self.expired_keys:
            return (f"tvm.rpc.connect: match key {key!r} expired: no session started within "
                    f"{self.match_timeout:g} s of the tracker handing it out, so the server "
                    "put itself back in the queue with a new key; request a server again")
        return key == self.match_key and not self.tracker_busy

    def _on_tracker(self):
        messages = self.tracker.receive()
        if messages is None:
            self.selector.unregister(self.tracker.sock)
            return
        for message in messages:
            if not isinstance(message, dict):  # a broken or hostile tracker: ignore it
                logger.warning("tvm.rpc: ignoring a tracker message that is not a JSON "
                               "object: %.80r", message)
                continue
            # A notice for an older key, or one arriving after its session began, is moot.
            if (message.get("op") == "matched" and message.get("match") == self.match_key
                    and not self.tracker_busy):
                self.match_deadline = time.monotonic() + self.match_timeout

    def _awaiting_handshake(self):
        return any(not w.tracked for w in self.workers.values())

    def _expire_match(self):
        """Put the server back in the queue when its matched client never started a session.
        A connection still in its handshake may hold the key, so the key outlives it."""
        if (self.match_deadline is None or self.match_deadline > time.monotonic()
                or self._awaiting_handshake()):
            return
        logger.info("tvm.rpc: no client came with match key %r within %g s; re-announcing",
                    self.match_key, self.match_timeout)
        self.expired_keys.append(self.match_key)
        self._new_match_key()

    # -- the loop -----------------------------------------------------------------------
    def run(self):
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        self.listen_sock.setblocking(False)
        self.selector.register(self.listen_sock, selectors.EVENT_READ)
        if self.tracker is not None:
            self.selector.register(self.tracker.sock, selectors.EVENT_READ)
            self._new_match_key()
        try:
            while True:
                events = self.selector.select(self._next_wait())
                for key, _ in events:
                    if key.fileobj is self.listen_sock:
                        self._accept()
                    elif self.tracker is not None and key.fileobj is self.tracker.sock:
                        self._on_tracker()
                    else:
                        self._on_status(key.fileobj)
                self._expire()
                if self.tracker is not None:
                    self._expire_match()
        finally:
            for w in list(self.workers.values()):
                _kill(w.pid)

    def _next_wait(self):
        deadlines = [w.deadline for w in self.workers.values() if w.deadline is not None]
        # While a handshake is pending the match key waits for it (its end wakes the loop).
        if self.match_deadline is not None and not self._awaiting_handshake():
            deadlines.append(self.match_deadline)
        if not deadlines:
            return None
        return max(0.0, min(deadlines) - time.monotonic())

    def _accept(self):
        try:
            conn, peer = self.listen_sock.accept()
        except (BlockingIOError, InterruptedError):
            return
        except OSError as err:
            logger.warning("tvm.rpc: accept failed: %s", err)
            return
        conn.setblocking(True)
        read_fd, write_fd = os.pipe()
        lock = self._mp.Lock()
        pid = os.fork()
        if pid == 0:  # worker
            code = 0
            try:
                _die_with_parent()
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                os.close(read_fd)
                self.listen_sock.close()
                for w in self.workers.values():
                    os.close(w.status_fd)
                    w.conn.close()
                if self.tracker is not None:
                    self.tracker.close_in_child()
                worker_mod.serve_connection(conn, peer, self.accept_key, write_fd, lock,
                                            self.max_frame_size)
            except BaseException:  # noqa: BLE001  (a worker must never return into the loop)
                logger.exception("tvm.rpc: worker failed")
                code = 1
            finally:
                logging.shutdown()
                os._exit(code)
        os.close(write_fd)
        w = _Worker(pid, conn, read_fd, lock, peer)
        self.workers[read_fd] = w
        self.selector.register(read_fd, selectors.EVENT_READ)

    def _on_status(self, fd):
        w = self.workers[fd]
        try:
            data = os.read(fd, worker_mod.STATUS_STARTED.size)
        except OSError:
            data = b""
        if len(data) == worker_mod.STATUS_STARTED.size:
            _, limit = worker_mod.STATUS_STARTED.unpack(data)
            if limit > 0:
                w.limit = limit
                w.deadline = time.monotonic() + limit
            if self.tracker is not None:
                w.tracked = True
                self.tracker_busy = True
                self.match_deadline = None
            return
        self._reap(w)

    def _reap(self, w):
        self.selector.unregister(w.status_fd)
        del self.workers[w.status_fd]
        os.close(w.status_fd)
        w.conn.close()
        try:
            os.waitpid(w.pid, 0)
        except ChildProcessError:
            pass
        if w.tracked:
            self.tracker_busy = False
            self._new_match_key()

    def _expire(self):
        now = time.monotonic()
        for w in list(self.workers.values()):
            if w.deadline is None or w.deadline > now:
                continue
            w.deadline = None
            logger.info("tvm.rpc: session of %s ran past %g s; ending it", w.peer, w.limit)
            # Hold the worker's write lock so the notice never lands inside one of its frames.
            if w.lock.acquire(timeout=_NOTICE_LOCK_WAIT):
                _send_nowait(w.conn, timeout_notice(w.limit))
            _kill(w.pid)


def _send_nowait(conn, data, wait=1.0):
    """Send without blocking the server for long on a client that does not read."""
    import select

    view = memoryview(data)
    end = time.monotonic() + wait
    while view:
        left = end - time.monotonic()
        if left <= 0 or not select.select([], [conn], [], left)[1]:
            return
        try:
            view = view[conn.send(view, socket.MSG_DONTWAIT):]
        except (BlockingIOError, InterruptedError):
            continue
        except OSError:
            return


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
