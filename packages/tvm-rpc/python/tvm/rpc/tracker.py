"""Tracker: a queue of servers per key; clients request a free server and are handed its
address and a one-time match key. Messages are length-prefixed JSON (docs/rpc-protocol.md)."""

import itertools
import json
import logging
import selectors
import signal
import socket
import struct
import sys
import time

from tvm.error import RPCError

from .process import Service

logger = logging.getLogger("tvm.rpc")

TRACKER_MAGIC = 0x54565254
_MAGIC = struct.Struct("<I")
_LEN = struct.Struct("<I")
MAX_MESSAGE = 1 << 20
# Seconds a server waits, once its match key is handed out, for the client to connect.
DEFAULT_MATCH_TIMEOUT = 5.0


def _encode(message):
    data = json.dumps(message).encode()
    return _LEN.pack(len(data)) + data


def _recv_exact(sock, n):
    data = bytearray()
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise RPCError("tvm.rpc tracker: connection closed")
        data += chunk
    return bytes(data)


def _recv_message(sock):
    (n,) = _LEN.unpack(_recv_exact(sock, 4))
    if n > MAX_MESSAGE:
        raise RPCError(f"tvm.rpc tracker: message of {n} bytes exceeds {MAX_MESSAGE}")
    return json.loads(_recv_exact(sock, n))


def _pop_messages(buf):
    """Take every complete message off the front of ``buf`` (a bytearray) and return them."""
    messages = []
    while len(buf) >= 4:
        (n,) = _LEN.unpack_from(buf)
        if n > MAX_MESSAGE:
            raise ValueError(f"message of {n} bytes exceeds {MAX_MESSAGE}")
        if len(buf) < 4 + n:
            break
        messages.append(json.loads(bytes(buf[4:4 + n])))
        del buf[:4 + n]
    return messages


def _connect(addr, timeout=10.0):
    host, port = addr
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as err:
        raise RPCError(f"tvm.rpc: cannot connect to the tracker at {host}:{port}: {err}") from None
    sock.sendall(_MAGIC.pack(TRACKER_MAGIC))
    return sock


# -- the tracker process ---------------------------------------------------------------------
class _Conn:
    __slots__ = ("sock", "inbuf", "outbuf", "greeted")

    def __init__(self, sock):
        self.sock = sock
        self.inbuf = bytearray()
        self.outbuf = bytearray()
        self.greeted = False


class TrackerLoop:
    def __init__(self, sock):
        self.listen_sock = sock
        self.selector = selectors.DefaultSelector()
        self.free = {}  # key -> [(conn, host, port, match)]
        self.pending = {}  # key -> [(-priority, seq, conn)]
        self.seq = itertools.count()

    def run(self):
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        self.listen_sock.setblocking(False)
        self.selector.register(self.listen_sock, selectors.EVENT_READ, None)
        while True:
            for key, events in self.selector.select():
                if key.data is None:
                    self._accept()
                    continue
                conn = key.data
                try:
                    if events & selectors.EVENT_READ:
                        self._read(conn)
                    if events & selectors.EVENT_WRITE:
                        self._flush(conn)
                except (OSError, ValueError, KeyError, TypeError) as err:
                    logger.warning("tvm.rpc tracker: dropping a connection: %s", err)
                    self._drop(conn)

    def _accept(self):
        try:
            sock, _ = self.listen_sock.accept()
        except OSError:
            return
        sock.setblocking(False)
        self.selector.register(sock, selectors.EVENT_READ, _Conn(sock))

    def _read(self, conn):
        data = conn.sock.recv(65536)
        if not data:
            self._drop(conn)
            return
        conn.inbuf += data
        if not conn.greeted:
            if len(conn.inbuf) < 4:
                return
            if _MAGIC.unpack_from(conn.inbuf)[0] != TRACKER_MAGIC:
                raise ValueError("not a tracker client (bad magic)")
            del conn.inbuf[:4]
            conn.greeted = True
        for message in _pop_messages(conn.inbuf):
            self._handle(conn, message)

    def _send(self, conn, message):
        conn.outbuf += _encode(message)
        self._flush(conn)

    def _flush(self, conn):
        if conn.outbuf:
            try:
                sent = conn.sock.send(conn.outbuf)
            except BlockingIOError:
                sent = 0
            except OSError as err:  # a peer gone without a word: it must not take the sender down
                logger.warning("tvm.rpc tracker: dropping a connection: %s", err)
                self._drop(conn)
                return
            del conn.outbuf[:sent]
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if conn.outbuf else 0)
        self.selector.modify(conn.sock, events, conn)

    def _drop(self, conn):
        try:
            self.selector.unregister(conn.sock)
        except (KeyError, ValueError):
            return
        conn.sock.close()
        for entries in self.free.values():
            entries[:] = [e for e in entries if e[0] is not conn]
        for waiting in self.pending.values():
            waiting[:] = [w for w in waiting if w[2] is not conn]

    def _handle(self, conn, message):
        op = message["op"]
        if op == "put":
            key = str(message["key"])
            entries = self.free.setdefault(key, [])
            entries[:] = [e for e in entries if e[0] is not conn]
            entries.append((conn, str(message["host"]), int(message["port"]), str(message["match"])))
            self._match(key)
        elif op == "request":
            key = str(message["key"])
            self.pending.setdefault(key, []).append(
                (-int(message.get("priority", 1)), next(self.seq), conn))
            self._match(key)
        elif op == "summary":
            self._send(conn, self.summary())
        else:
            raise ValueError(f"unknown tracker operation {op!r}")

    def _match(self, key):
        free, waiting = self.free.get(key, []), self.pending.get(key, [])
        while free and waiting:
            waiting.sort(key=lambda w: w[:2])
            _, _, client = waiting.pop(0)
            server, host, port, match = free.pop(0)
            # The server waits a bounded time for this client and puts itself again if it
            # never comes (a crashed or departed client must not keep it out of the queue).
            self._send(server, {"op": "matched", "match": match})
            self._send(client, {"host": host, "port": port, "match": match})

    def summary(self):
        keys = sorted(set(self.free) | set(self.pending))
        return {
            "queue_info": {k: {"free": len(self.free.get(k, [])),
                               "pending": len(self.pending.get(k, []))} for k in keys},
            "server_info": [{"key": k, "addr": [e[1], e[2]]}
                            for k in keys for e in self.free.get(k, [])],
        }


class Tracker(Service):
    """A tracker process listening on host:port (first free port in [port, port_end))."""

    def __init__(self, host="127.0.0.1", port=9190, port_end=9199, silent=False):
        self._listen_and_start(host, port, port_end, "tvm.rpc.Tracker", silent, TrackerLoop)


# -- clients of the tracker ------------------------------------------------------------------
class TrackerServerLink:
    """A server's connection to its tracker: announces it is free with a new match key and
    hears when the tracker hands that key to a client."""

    def __init__(self, addr, key, host, port):
        self.addr = tuple(addr)
        self.key = key
        self.host = host
        self.port = port
        self.sock = _connect(self.addr)
        self.sock.settimeout(10.0)
        self._inbuf = bytearray()

    def receive(self):
        """The messages the tracker sent (call when the socket is readable, so this does not
        block); None once the tracker has closed the connection."""
        try:
            data = self.sock.recv(65536)
            if data:
                self._inbuf += data
                return _pop_messages(self._inbuf)
            reason = "connection closed"
        except (OSError, ValueError) as err:
            reason = err
        logger.warning("tvm.rpc: lost the tracker at %s:%s: %s", *self.addr, reason)
        return None

    def put(self, match):
        try:
            self.sock.sendall(_encode({"op": "put", "key": self.key, "host": self.host,
                                       "port": self.port, "match": match}))
        except OSError as err:
            logger.warning("tvm.rpc: lost the tracker at %s:%s: %s", *self.addr, err)

    def close_in_child(self):
        self.sock.detach()  # a worker must not shut down the server's tracker connection


class TrackerSession:
    """A client's connection to a tracker (see connect_tracker)."""

    def __init__(self, addr):
        self.addr = tuple(addr)
        self._sock = _connect(self.addr)

    def close(self):
        self._sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def summary(self):
        """{"queue_info": {key: {"free": n, "pending": m}}, "server_info": [...]}"""
        self._sock.settimeout(10.0)
        self._sock.sendall(_encode({"op": "summary"}))
        return _recv_message(self._sock)

    def request(self, key, priority=1, session_timeout=0, max_retry=5, timeout=None,
                session_constructor_args=None):
        """Wait (up to ``timeout`` seconds, None: no limit) for a free server of ``key`` and
        open a session on it. Returns the ClientSession."""
        from .client import connect

        if not isinstance(key, str) or not key:
            raise TypeError(f"TrackerSession.request: argument 'key' must be a non-empty str, got {key!r}")
        last_error = None
        end = None if timeout is None else time.monotonic() + timeout
        for _ in range(max(1, max_retry)):
            # A fresh connection per request: an abandoned wait must not leave a stale reply.
            sock = _connect(self.addr)
            try:
                sock.sendall(_encode({"op": "request", "key": key, "priority": priority}))
                sock.settimeout(None if end is None else max(0.001, end - time.monotonic()))
                try:
                    reply = _recv_message(sock)
                except socket.timeout:
                    raise RPCError(f"TrackerSession.request: no free server for key {key!r} "
                                   f"within {timeout:g} s") from None
            finally:
                sock.close()
            try:
                return connect(reply["host"], reply["port"], reply["match"], session_timeout,
                               session_constructor_args)
            except RPCError as err:
                if getattr(err, "remote_kind", "RPCError") != "RPCError":
                    raise  # the session itself failed (bad constructor, say): retrying won't help
                last_error = err
        raise RPCError(f"TrackerSession.request: could not open a session for key {key!r} "
                       f"after {max_retry} tries: {last_error}")


def connect_tracker(url, port):
    """Connect to the tracker at url:port."""
    return TrackerSession((url, port))
