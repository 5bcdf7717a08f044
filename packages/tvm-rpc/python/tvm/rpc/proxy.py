"""Proxy: relays sessions to servers that connect out to it (servers behind a NAT or a
firewall). A server registers with its key; a client connects to the proxy exactly as to a
server, and the proxy pairs it with a waiting server of the same key and relays the bytes."""

import logging
import os
import selectors
import socket
import threading
import time

from tvm.error import RPCError

from . import auth, proxy_registration
from .channel import SocketChannel
from .codec import ProtocolError, decode_all
from .endpoint import RPCEndpoint
from .process import Service
from .protocol import FRAME_FIXED, FRAME_HEADER, MAGIC, MAGIC_STRUCT, Code
from .proxy_registration import PROXY_MAGIC  # noqa: F401  (re-exported)
from .tracker_wire import check_key

logger = logging.getLogger("tvm.rpc")

# How long a client waits at the proxy for a server of its key to be free (and how long
# any peer has for its handshake).
PAIR_TIMEOUT = 10.0
# Connections the proxy serves at once (handshakes and relayed sessions), and servers it
# holds registered; beyond them new connections are closed and registrations refused.
MAX_CONNECTIONS = 512
MAX_SERVERS = 1024


# Bytes a client's INIT or HELLO frame may take: the proxy reads them before any server
# has authenticated the client, so they must not cost it more than a few KiB.
MAX_HANDSHAKE_FRAME = 4096


def _gone(sock):
    """True when a registered server's connection has closed (it sends nothing until paired).
    A peek, not select(): any descriptor number works."""
    try:
        sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return True
    return True  # closed (b""), or sent bytes it has no business sending


class _Registry:
    """Servers waiting at the proxy: one per key, as upstream's proxy (a second one is
    refused, unless the first has gone)."""

    def __init__(self):
        self.cond = threading.Condition()
        self.waiting = {}

    def add(self, key, sock, announce):
        """Register; the refusal status when the key is taken or the proxy is full. On
        success ``announce()`` (which tells the server OK) runs before any client can take
        the server, so the OK status precedes the relayed bytes; if it fails, nothing is
        registered and the OSError propagates."""
        with self.cond:
            held = self.waiting.get(key)
            if held is not None:
                if not _gone(held):
                    return proxy_registration.DUPLICATE
                held.close()
                del self.waiting[key]
            if len(self.waiting) >= MAX_SERVERS:
                for other in [k for k, s in self.waiting.items() if _gone(s)]:
                    self.waiting.pop(other).close()
                if len(self.waiting) >= MAX_SERVERS:
                    return proxy_registration.FULL
            announce()
            self.waiting[key] = sock
            self.cond.notify_all()
            return proxy_registration.OK

    def take(self, key, timeout):
        """A live server of ``key`` within ``timeout`` s (those gone meanwhile are dropped),
        else None."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                remaining = deadline - time.monotonic()
                if not self.cond.wait_for(lambda: key in self.waiting, max(0.0, remaining)):
                    return None
                server = self.waiting.pop(key)
                if not _gone(server):
                    return server
                server.close()


def _read_frame_bytes(sock, deadline):
    """One whole frame of the client's handshake (at most MAX_HANDSHAKE_FRAME bytes, read
    as it arrives by ``deadline``), as raw bytes and its decoded values."""
    what = "the client's handshake"
    header = proxy_registration.recv_exact(sock, FRAME_HEADER.size, deadline, what)
    length, code, meta_len = FRAME_HEADER.unpack(header)
    if length > MAX_HANDSHAKE_FRAME:
        raise ProtocolError(f"handshake frame of {length} bytes exceeds {MAX_HANDSHAKE_FRAME}")
    if length < FRAME_FIXED or meta_len != length - FRAME_FIXED:
        raise ProtocolError("handshake frames carry no bulk")
    meta = proxy_registration.recv_exact(sock, meta_len, deadline, what)
    return code, header + meta, decode_all(meta)


def _relay(src, dst):
    buf = bytearray(1 << 20)
    view = memoryview(buf)
    try:
        while True:
            n = src.recv_into(buf)
            if not n:
                break
            dst.sendall(view[:n])
    except OSError:
        pass
    for sock in (dst, src):
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _register(conn, peer, registry, secret):
    """A server registering: authenticate it (with a secret) and queue it for its key."""

    def announce():
        conn.settimeout(1.0)  # four bytes to a socket that has sent nothing of ours unread
        proxy_registration.answer(conn, proxy_registration.OK)
        conn.settimeout(None)

    try:
        key = proxy_registration.accept(conn, secret)
        status = registry.add(key, conn, announce)
    except proxy_registration.Refused as refused:
        status, key = refused.status, None
    if status != proxy_registration.OK:
        logger.warning(
            "tvm.rpc proxy: refused a server from %s: %s", peer, proxy_registration.REASONS[status]
        )
        proxy_registration.answer(conn, status)
        conn.close()


def _handle(conn, peer, registry, secret):
    try:
        deadline = time.monotonic() + PAIR_TIMEOUT  # for the whole handshake
        head = proxy_registration.recv_exact(conn, 4, deadline, "the magic")
        (magic,) = MAGIC_STRUCT.unpack(head)
        if magic == PROXY_MAGIC:
            _register(conn, peer, registry, secret)
            return
        if magic != MAGIC:
            logger.warning("tvm.rpc proxy: rejected %s: bad magic 0x%08x", peer, magic)
            conn.close()
            return
        code, init, values = _read_frame_bytes(conn, deadline)
        # The client's INIT carries the key after version, side and nonce (see handshake.py);
        # the rest of the handshake runs between client and server through the relay.
        if code != Code.INIT or len(values) != 4 or not isinstance(values[3], str):
            raise ProtocolError("expected the client's INIT (version, side, nonce, key)")
        server = registry.take(values[3], PAIR_TIMEOUT)
        if server is None:
            conn.settimeout(PAIR_TIMEOUT)
            endpoint = RPCEndpoint(SocketChannel(conn), "proxy")
            endpoint.send_init()
            endpoint.send(
                Code.EXCEPTION,
                ["RPCError", f"tvm.rpc proxy: no server with key {values[3]!r} is free", ""],
            )
            conn.close()
            return
        conn.settimeout(None)
        server.sendall(head + init)
        threading.Thread(target=_relay, args=(server, conn), daemon=True).start()
        _relay(conn, server)
    except (OSError, ProtocolError, UnicodeDecodeError) as err:
        logger.warning("tvm.rpc proxy: connection from %s dropped: %s", peer, err)
        conn.close()


class _ProxyLoop:
    def __init__(self, sock, secret=None):
        self.sock = sock
        self.secret = secret
        self.registry = _Registry()
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def run(self):
        while True:
            try:
                conn, peer = self.sock.accept()
            except OSError as err:  # out of descriptors, say: keep serving the others
                logger.warning("tvm.rpc proxy: cannot accept a connection: %s", err)
                threading.Event().wait(0.1)
                continue
            if not self.slots.acquire(blocking=False):
                logger.warning(
                    "tvm.rpc proxy: refusing %s: %d connections open (the limit)",
                    peer,
                    MAX_CONNECTIONS,
                )
                conn.close()
                continue
            threading.Thread(target=self._serve, args=(conn, peer), daemon=True).start()

    def _serve(self, conn, peer):
        try:
            _handle(conn, peer, self.registry, self.secret)
        finally:
            self.slots.release()


class Proxy(Service):
    """A proxy process listening on host:port (first free port in [port, port_end)).

    secret: the shared secret a server must prove it knows to register (None reads
    $TVM_RPC_SECRET; unset: anyone who can connect may register a key). Clients are
    authenticated by the server they are relayed to, end to end, not by the proxy.
    """

    def __init__(self, host="127.0.0.1", port=9090, port_end=9199, silent=False, *, secret=None):
        secret = auth.resolve_secret(secret, "tvm.rpc.Proxy: argument 'secret'")
        self._listen_and_start(
            host, port, port_end, "tvm.rpc.Proxy", silent, lambda sock: _ProxyLoop(sock, secret)
        )


def serve_through_proxy(
    address, key, max_frame_size=None, retry_wait=1.0, *, secret=None, policy=None
):
    """Server side: register at the proxy, serve one session at a time, register again.
    secret: the proxy's shared secret (None reads $TVM_RPC_SECRET), also the one clients
    prove through the relay; policy: what those sessions may construct and load."""
    import time

    from .worker import serve_connection

    secret = auth.resolve_secret(secret, "tvm.rpc.Server: argument 'secret'")
    host, _, port = address.rpartition(":")
    check_key(key, "tvm.rpc.Server: argument 'key' (behind a proxy)")
    while True:
        try:
            sock = socket.create_connection((host.strip("[]"), int(port)), timeout=10.0)
        except OSError as err:
            logger.warning("tvm.rpc: cannot reach the proxy at %s: %s", address, err)
            time.sleep(retry_wait)
            continue
        try:
            proxy_registration.register(sock, key, secret)
        except (OSError, RPCError) as err:
            logger.warning("tvm.rpc: cannot register at the proxy at %s: %s", address, err)
            sock.close()
            time.sleep(retry_wait)
            continue
        sock.settimeout(None)
        with selectors.DefaultSelector() as waiting:  # poll/epoll: any descriptor number
            waiting.register(sock, selectors.EVENT_READ)
            waiting.select()  # until a client is paired with us (or the proxy goes)
        pid = os.fork()
        if pid == 0:
            try:
                serve_connection(
                    sock,
                    address,
                    lambda k: k == key,
                    max_frame_size=max_frame_size,
                    secret=secret,
                    policy=policy,
                )
            finally:
                os._exit(0)
        sock.close()
        os.waitpid(pid, 0)
