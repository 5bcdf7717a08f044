"""The server process: accepts connections, forks one worker per session, enforces session
time limits, and keeps its tracker (if any) told whether it is free."""

import collections
import ctypes
import errno
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
from .handshake import HANDSHAKE_TIMEOUT
from .protocol import FRAME_HEADER, Code
from .tracker import DEFAULT_MATCH_TIMEOUT, TrackerServerLink
from .workspaces import WorkspaceRoot

logger = logging.getLogger("tvm.rpc")

# How long the server waits for a worker to finish writing a frame before it sends the
# timeout notice anyway (the worker is killed right after). The loop never blocks on it: it
# polls the lock every _NOTICE_POLL seconds while it goes on serving.
_NOTICE_LOCK_WAIT = 2.0
_NOTICE_POLL = 0.01
# Connections at once (sessions plus handshakes), and of those, handshakes at once. A
# connection beyond either is accepted and closed at once, so the server keeps serving.
DEFAULT_MAX_CONNECTIONS = 128
DEFAULT_MAX_HANDSHAKES = 32
_OUT_OF_FDS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
# How many expired match keys a server remembers, to tell a late client why it is refused.
_EXPIRED_KEYS_KEPT = 16


class _Worker:
    __slots__ = (
        "pid",
        "conn",
        "status_fd",
        "lock",
        "deadline",
        "limit",
        "peer",
        "tracked",
        "started",
        "notice_until",
    )

    def __init__(self, pid, conn, status_fd, lock, peer, handshake_deadline):
        self.pid = pid
        self.conn = conn
        self.status_fd = status_fd
        self.lock = lock
        self.deadline = handshake_deadline  # until the session starts: the handshake's end
        self.limit = 0.0
        self.peer = peer
        self.tracked = False
        self.started = False
        self.notice_until = None  # set while the timeout notice waits for the write lock


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
    for value in (
        "RPCSessionTimeoutError",
        f"tvm.rpc: the session ran past its session_timeout of {limit:g} s; the server ended it",
        "",
    ):
        encode(value, frame)
    FRAME_HEADER.pack_into(frame, 0, len(frame) - 8, Code.EXCEPTION, len(frame) - FRAME_HEADER.size)
    return bytes(frame)


class ServerLoop:
    def __init__(
        self,
        listen_sock,
        key="",
        tracker_addr=None,
        custom_addr=None,
        max_frame_size=None,
        match_timeout=DEFAULT_MATCH_TIMEOUT,
        *,
        secret=None,
        ssl_context=None,
        policy=None,
        max_connections=DEFAULT_MAX_CONNECTIONS,
        max_handshakes=DEFAULT_MAX_HANDSHAKES,
        handshake_timeout=HANDSHAKE_TIMEOUT,
    ):
        self.listen_sock = listen_sock
        self.key = key
        self.max_frame_size = max_frame_size
        self.secret = secret
        self.ssl_context = ssl_context
        self.policy = policy
        self.max_connections = max_connections
        self.max_handshakes = max_handshakes
        self.handshake_timeout = handshake_timeout
        self.workers = {}  # status fd -> _Worker
        self.selector = selectors.DefaultSelector()
        self.tracker = None
        self.match_key = None
        self.tracker_busy = False
        self.match_timeout = match_timeout
        self.match_deadline = None  # set while a client the tracker matched us to is awaited
        self.expired_keys = collections.deque(maxlen=_EXPIRED_KEYS_KEPT)
        self._mp = multiprocessing.get_context("fork")
        self.workspaces = WorkspaceRoot()
        # A descriptor held in reserve: when the process runs out of them, closing this one
        # lets the server accept (and close) the connection waiting in the backlog.
        self._reserve_fd = _open_reserve()
        if tracker_addr is not None:
            host, port = listen_sock.getsockname()[:2]
            if host in ("0.0.0.0", "::"):
                host = "127.0.0.1"  # a wildcard bind is no address to hand out: use custom_addr
            self.tracker = TrackerServerLink(
                tracker_addr, key, custom_addr or host, port, secret=secret
            )

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
            return (
                f"tvm.rpc.connect: match key {key!r} expired: no session started within "
                f"{self.match_timeout:g} s of the tracker handing it out, so the server "
                "put itself back in the queue with a new key; request a server again"
            )
        return key == self.match_key and not self.tracker_busy

    def _on_tracker(self):
        messages = self.tracker.receive()
        if messages is None:
            self.selector.unregister(self.tracker.sock)
            return
        for message in messages:
            if not isinstance(message, dict):  # a broken or hostile tracker: ignore it
                logger.warning(
                    "tvm.rpc: ignoring a tracker message that is not a JSON object: %.80r", message
                )
                continue
            # A notice for an older key, or one arriving after its session began, is moot.
            if (
                message.get("op") == "matched"
                and message.get("match") == self.match_key
                and not self.tracker_busy
            ):
                self.match_deadline = time.monotonic() + self.match_timeout

    def _awaiting_handshake(self):
        return any(not w.started for w in self.workers.values())

    def _expire_match(self):
        """Put the server back in the queue when its matched client never started a session.
        A connection still in its handshake may hold the key, so the key outlives it."""
        if (
            self.match_deadline is None
            or self.match_deadline > time.monotonic()
            or self._awaiting_handshake()
        ):
            return
        logger.info(
            "tvm.rpc: no client came with match key %r within %g s; re-announcing",
            self.match_key,
            self.match_timeout,
        )
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
                    elif key.fileobj in self.workers:
                        self._on_status(key.fileobj)
                self._expire()
                if self.tracker is not None:
                    self._expire_match()
        finally:
            for w in list(self.workers.values()):
                _kill(w.pid)
            for w in list(self.workers.values()):
                _wait(w.pid)
            self.workspaces.remove_all()

    def _next_wait(self):
        deadlines = [w.deadline for w in self.workers.values() if w.deadline is not None]
        if any(w.notice_until is not None for w in self.workers.values()):
            deadlines.append(time.monotonic() + _NOTICE_POLL)
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
            if err.errno in _OUT_OF_FDS:
                self._refuse_one(err)
            else:
                logger.warning("tvm.rpc: accept failed: %s", err)
            return
        handshakes = sum(1 for w in self.workers.values() if not w.started)
        if len(self.workers) >= self.max_connections or handshakes >= self.max_handshakes:
            logger.warning(
                "tvm.rpc: refused %s: %d connections (%d in their handshake) are "
                "open, the most this server takes (max_connections=%d, %d "
                "handshakes)",
                peer,
                len(self.workers),
                handshakes,
                self.max_connections,
                self.max_handshakes,
            )
            conn.close()
            return
        try:
            self._start_worker(conn, peer)
        except OSError as err:  # out of descriptors or processes: refuse this one, go on
            logger.warning("tvm.rpc: refused %s: cannot start its worker: %s", peer, err)
            conn.close()

    def _refuse_one(self, err):
        """Out of descriptors: free the reserve, accept and close one connection, so it is
        not left waiting and the loop does not spin on it."""
        if self._reserve_fd is not None:
            os.close(self._reserve_fd)
            self._reserve_fd = None
        try:
            conn, peer = self.listen_sock.accept()
            logger.warning("tvm.rpc: refused %s: %s", peer, err)
            conn.close()
        except OSError:
            pass
        self._reserve_fd = _open_reserve()

    def _start_worker(self, conn, peer):
        conn.setblocking(True)
        read_fd, write_fd = os.pipe()
        try:
            lock = self._mp.Lock()
            pid = os.fork()
        except BaseException:
            os.close(read_fd)
            os.close(write_fd)
            raise
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
                worker_mod.serve_connection(
                    conn,
                    peer,
                    self.accept_key,
                    write_fd,
                    lock,
                    self.max_frame_size,
                    self.handshake_timeout,
                    secret=self.secret,
                    ssl_context=self.ssl_context,
                    policy=self.policy,
                    workspace=self.workspaces.path(os.getpid()),
                )
            except BaseException:  # noqa: BLE001  (a worker must never return into the loop)
                logger.exception("tvm.rpc: worker failed")
                code = 1
            finally:
                logging.shutdown()
                os._exit(code)
        os.close(write_fd)
        # The server ends a handshake that outlives its time limit, however slowly the
        # client drips its bytes (the worker's own deadline covers the same).
        w = _Worker(pid, conn, read_fd, lock, peer, time.monotonic() + self.handshake_timeout + 1.0)
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
            w.started = True
            w.deadline = None
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
        _wait(w.pid)
        self.workspaces.remove(w.pid)
        if w.tracked:
            self.tracker_busy = False
            self._new_match_key()

    def _expire(self):
        """End sessions past their time limit and handshakes past theirs, never blocking:
        a worker in the middle of writing a frame is given _NOTICE_LOCK_WAIT seconds to
        finish it, checked on later turns of the loop."""
        now = time.monotonic()
        for w in list(self.workers.values()):
            if w.notice_until is not None:
                self._try_notice(w, now)
                continue
            if w.deadline is None or w.deadline > now:
                continue
            w.deadline = None
            if not w.started:
                logger.warning(
                    "tvm.rpc: handshake of %s ran past %g s; closing it",
                    w.peer,
                    self.handshake_timeout,
                )
                _kill(w.pid)
                continue
            logger.info("tvm.rpc: session of %s ran past %g s; ending it", w.peer, w.limit)
            w.notice_until = now + _NOTICE_LOCK_WAIT
            self._try_notice(w, now)

    def _try_notice(self, w, now):
        # Hold the worker's write lock so the notice never lands inside one of its frames.
        if w.lock.acquire(block=False):
            _send_nowait(w.conn, timeout_notice(w.limit))
        elif now < w.notice_until:
            return
        w.notice_until = None
        _kill(w.pid)


def _send_nowait(conn, data):
    """Send what the socket takes at once: a client that does not read gets no notice."""
    try:
        conn.send(data, socket.MSG_DONTWAIT)
    except OSError:
        pass


def _open_reserve():
    try:
        return os.open(os.devnull, os.O_RDONLY)
    except OSError:
        return None


def _wait(pid):
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
