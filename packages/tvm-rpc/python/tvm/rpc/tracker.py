"""Tracker: a queue of servers per key; clients request a free server and are handed its
address and a one-time match key. Messages are length-prefixed JSON (docs/rpc-protocol.md)."""

import collections
import errno
import heapq
import itertools
import logging
import resource
import selectors
import signal
import sys
import time

from . import auth
from .peer_warnings import PeerWarnings
from .process import Service
from .tracker_client import (  # noqa: F401  (re-exported: tvm.rpc.tracker's public names)
    PEER_PROOF,
    TRACKER_PROOF,
    TrackerServerLink,
    TrackerSession,
    connect_tracker,
)
from .tracker_wire import (
    MAGIC,
    MAX_REPLY,
    TRACKER_MAGIC,
    MessageError,
    check_message,
    encode,
    pop_messages,
)

logger = logging.getLogger("tvm.rpc")

# Seconds a server waits, once its match key is handed out, for the client to connect.
DEFAULT_MATCH_TIMEOUT = 5.0
# Bounds on what peers can make the tracker hold (each peer is one connection).
MAX_CONNECTIONS = 4096
MAX_PENDING = 4096
MAX_PENDING_PER_CONNECTION = 16
# Seconds a connection has to send the magic and its first message (with a secret, to
# authenticate), and a refused peer has to read why before it is cut off.
HANDSHAKE_TIMEOUT = 10.0
_MAX_OUTBUF = 2 * MAX_REPLY
# Messages handled for one peer per loop turn; the rest wait in its buffer for later turns
# (so one peer's burst cannot keep the loop from the others).
MESSAGES_PER_TURN = 64


class _Conn:
    __slots__ = (
        "sock",
        "inbuf",
        "outbuf",
        "greeted",
        "authed",
        "nonces",
        "closing",
        "deadline",
        "pending",
        "server_key",
        "requests",
        "host",
    )

    def __init__(self, sock, deadline, host="?"):
        self.sock = sock
        self.host = host  # the peer's address, for rate-limited warnings
        self.inbuf = bytearray()
        self.outbuf = bytearray()
        self.greeted = False
        self.authed = False
        self.nonces = None  # (peer's, tracker's) once the peer has asked to authenticate
        self.closing = False
        self.deadline = deadline  # None once the connection is through its handshake
        self.pending = 0
        self.server_key = None  # the key of its entry in the free queue, if any
        self.requests = collections.Counter()  # key -> its pending requests of that key


def _connection_limit():
    """MAX_CONNECTIONS, or fewer when the descriptor limit would run out first."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(1, min(MAX_CONNECTIONS, soft - 32))


class TrackerLoop:
    def __init__(self, sock, secret=None):
        self.listen_sock = sock
        self.secret = secret
        self.selector = selectors.DefaultSelector()
        self.conns = set()
        self.free = {}  # key -> OrderedDict(conn -> (host, port, match)), oldest first
        self.pending = {}  # key -> heap of (-priority, seq, conn)
        self.n_pending = 0
        self.seq = itertools.count()
        self.max_connections = _connection_limit()
        self.accept_paused_until = None
        self.backlog = set()  # connections with messages still in their buffer
        self.warnings = PeerWarnings()

    def run(self):
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        self.listen_sock.setblocking(False)
        self.selector.register(self.listen_sock, selectors.EVENT_READ, None)
        while True:
            for key, events in self.selector.select(timeout=0 if self.backlog else 0.5):
                if key.data is None:
                    self._accept()
                    continue
                conn = key.data
                self._guarded(conn, events)
            for conn in list(self.backlog):
                self._guarded(conn, 0)
            self._sweep()

    def _guarded(self, conn, events):
        """Serve one connection's events, or with none its backlog; a peer's error drops
        only that peer. A connection with a backlog is not read until it is worked off."""
        try:
            if events & selectors.EVENT_READ and conn not in self.backlog:
                self._read(conn)
            if events & selectors.EVENT_WRITE:
                self._flush(conn)
            if not events and conn in self.backlog:
                self._work(conn)
        except MessageError as err:
            self.backlog.discard(conn)
            self._refuse(conn, str(err))
        except Exception as err:  # noqa: BLE001  (one peer must never end the loop)
            self._warn(conn, "dropping a connection: %r", err)
            self._drop(conn)

    # -- connections ----------------------------------------------------------------------
    def _accept(self):
        try:
            sock, addr = self.listen_sock.accept()
        except OSError as err:
            if err.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                # Out of descriptors: stop accepting a moment rather than spin on the backlog.
                logger.warning("tvm.rpc tracker: cannot accept a connection: %s", err)
                self.selector.unregister(self.listen_sock)
                self.accept_paused_until = time.monotonic() + 0.5
            return
        if len(self.conns) >= self.max_connections:
            logger.warning(
                "tvm.rpc tracker: refusing a connection: %d open (the limit)", len(self.conns)
            )
            sock.close()
            return
        sock.setblocking(False)
        host = addr[0] if isinstance(addr, tuple) and addr else str(addr)
        conn = _Conn(sock, time.monotonic() + HANDSHAKE_TIMEOUT, host)
        self.conns.add(conn)
        self.selector.register(sock, selectors.EVENT_READ, conn)

    def _sweep(self):
        now = time.monotonic()
        if self.accept_paused_until is not None and now >= self.accept_paused_until:
            self.accept_paused_until = None
            self.selector.register(self.listen_sock, selectors.EVENT_READ, None)
        for conn in [c for c in self.conns if c.deadline is not None and c.deadline <= now]:
            if not conn.closing:
                self._warn(
                    conn,
                    "dropping a connection: no handshake (the magic and a "
                    "first message) within %g s",
                    HANDSHAKE_TIMEOUT,
                )
            self._drop(conn)

    def _read(self, conn):
        data = conn.sock.recv(65536)
        if not data:
            self._drop(conn)
            return
        if conn.closing:
            return
        conn.inbuf += data
        if not conn.greeted:
            if len(conn.inbuf) < 4:
                return
            if MAGIC.unpack_from(conn.inbuf)[0] != TRACKER_MAGIC:
                raise MessageError("not a tracker client (bad magic)")
            del conn.inbuf[:4]
            conn.greeted = True
        self.backlog.add(conn)

    def _work(self, conn):
        """Handle up to MESSAGES_PER_TURN of the connection's buffered messages; none once
        it is dropped or refused (nothing is queued for a connection that is gone)."""
        messages = pop_messages(conn.inbuf, max_count=MESSAGES_PER_TURN)
        if len(messages) < MESSAGES_PER_TURN:
            self.backlog.discard(conn)
        for message in messages:
            if conn.closing or conn not in self.conns:
                self.backlog.discard(conn)
                return
            self._handle(conn, message)

    def _send(self, conn, message):
        if conn not in self.conns:
            return
        conn.outbuf += encode(message)
        if len(conn.outbuf) > _MAX_OUTBUF:
            self._warn(conn, "dropping a connection that does not read its replies")
            self._drop(conn)
            return
        self._flush(conn)

    def _flush(self, conn):
        if conn not in self.conns:
            return
        if conn.outbuf:
            try:
                sent = conn.sock.send(conn.outbuf)
            except BlockingIOError:
                sent = 0
            except OSError as err:  # a peer gone without a word: it must not take the sender down
                self._warn(conn, "dropping a connection: %s", err)
                self._drop(conn)
                return
            del conn.outbuf[:sent]
        if conn.closing and not conn.outbuf:
            self._drop(conn)
            return
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if conn.outbuf else 0)
        self.selector.modify(conn.sock, events, conn)

    def _refuse(self, conn, reason):
        """Tell the peer why, then close its connection (once the reason is sent)."""
        if conn not in self.conns or conn.closing:
            return
        self._warn(conn, "refusing a peer: %s", reason)
        self._forget(conn)
        conn.closing = True
        conn.deadline = time.monotonic() + HANDSHAKE_TIMEOUT
        conn.inbuf.clear()
        self._send(conn, {"error": f"tvm.rpc tracker: {reason}"})

    def _warn(self, conn, fmt, *args):
        self.warnings.warn(conn.host, "tvm.rpc tracker: %s: " + fmt, conn.host, *args)

    def _drop(self, conn):
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        self.backlog.discard(conn)
        self.selector.unregister(conn.sock)
        conn.sock.close()
        self._forget(conn)

    def _forget(self, conn):
        """Take the connection's server entry and pending requests out of the queues."""
        self._forget_server(conn)
        for key in conn.requests:
            waiting = [w for w in self.pending[key] if w[2] is not conn]
            if waiting:
                heapq.heapify(waiting)
                self.pending[key] = waiting
            else:
                del self.pending[key]
        self.n_pending -= conn.pending
        conn.pending = 0
        conn.requests.clear()

    def _forget_server(self, conn):
        key, conn.server_key = conn.server_key, None
        if key is not None:
            entries = self.free[key]
            del entries[conn]
            if not entries:
                del self.free[key]

    # -- messages -------------------------------------------------------------------------
    def _handle(self, conn, message):
        message = check_message(message)
        op = message["op"]
        if self.secret is None:
            conn.deadline = None  # through its handshake: a valid first message
        if self.secret is not None and not conn.authed:
            self._authenticate(conn, message)
        elif op in ("auth", "proof"):
            raise MessageError(
                "this tracker has no secret: connect without one"
                if self.secret is None
                else "already authenticated"
            )
        elif op == "put":
            self._forget_server(conn)  # a connection is one server: a new put replaces its last
            key = message["key"]
            self.free.setdefault(key, collections.OrderedDict())[conn] = (
                message["host"],
                message["port"],
                message["match"],
            )
            conn.server_key = key
            self._match(key)
        elif op == "request":
            if conn.pending >= MAX_PENDING_PER_CONNECTION or self.n_pending >= MAX_PENDING:
                raise MessageError(
                    f"too many pending requests (at most {MAX_PENDING} in all, "
                    f"{MAX_PENDING_PER_CONNECTION} per connection)"
                )
            key = message["key"]
            heapq.heappush(
                self.pending.setdefault(key, []), (-message["priority"], next(self.seq), conn)
            )
            conn.pending += 1
            conn.requests[key] += 1
            self.n_pending += 1
            self._match(key)
        else:  # summary
            self._send(conn, self.summary(full=self.secret is not None))

    def _authenticate(self, conn, message):
        if conn.nonces is None:
            if message["op"] != "auth":
                raise MessageError(
                    "authentication required: this tracker has a secret "
                    "(pass secret=... or set $TVM_RPC_SECRET)"
                )
            conn.nonces = (bytes.fromhex(message["nonce"]), auth.new_nonce())
            self._send(
                conn,
                {
                    "op": "challenge",
                    "nonce": conn.nonces[1].hex(),
                    "proof": auth.proof(self.secret, TRACKER_PROOF, *conn.nonces).hex(),
                },
            )
            return
        if message["op"] != "proof" or not auth.check(
            self.secret, PEER_PROOF, bytes.fromhex(message["proof"]), *conn.nonces
        ):
            raise MessageError("authentication failed: wrong secret")
        conn.authed = True
        conn.deadline = None

    def _match(self, key):
        # Looked up afresh each time: a send that drops a peer rebuilds the queues.
        while self.free.get(key) and self.pending.get(key):
            item = heapq.heappop(self.pending[key])
            client = item[2]
            self._count_out(client, key)
            server, (host, port, match) = self.free[key].popitem(last=False)
            server.server_key = None
            for queue in (self.free, self.pending):
                if not queue.get(key, True):
                    del queue[key]
            # The server waits a bounded time for this client and puts itself again if it
            # never comes (a crashed or departed client must not keep it out of the queue).
            self._send(server, {"op": "matched", "match": match})
            if server not in self.conns:  # dropped by that send: the client waits on
                if client not in self.conns:
                    continue
                heapq.heappush(self.pending.setdefault(key, []), item)
                client.pending += 1
                client.requests[key] += 1
                self.n_pending += 1
                continue
            self._send(client, {"host": host, "port": port, "match": match})

    def _count_out(self, client, key):
        client.pending -= 1
        self.n_pending -= 1
        client.requests[key] -= 1
        if not client.requests[key]:
            del client.requests[key]

    def summary(self, full=True):
        """The queues; server addresses only when ``full`` (to authenticated peers)."""
        keys = sorted(set(self.free) | set(self.pending))
        return {
            "queue_info": {
                k: {"free": len(self.free.get(k, ())), "pending": len(self.pending.get(k, ()))}
                for k in keys
            },
            "server_info": [
                {"key": k, "addr": [e[0], e[1]]}
                for k in keys
                for e in self.free.get(k, {}).values()
            ]
            if full
            else [],
        }


class Tracker(Service):
    """A tracker process listening on host:port (first free port in [port, port_end)).

    secret: the shared secret every server and client must prove it knows before the
    tracker accepts any other message (None: $TVM_RPC_SECRET, else none). Without one the
    tracker is open to anyone who can connect, and its summary omits server addresses.
    """

    def __init__(self, host="127.0.0.1", port=9190, port_end=9199, silent=False, *, secret=None):
        secret = auth.resolve_secret(secret, "tvm.rpc.Tracker: argument 'secret'")
        self._listen_and_start(
            host, port, port_end, "tvm.rpc.Tracker", silent, lambda sock: TrackerLoop(sock, secret)
        )
