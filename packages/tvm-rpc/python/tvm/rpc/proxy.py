"""Proxy: relays sessions to servers that connect out to it (servers behind a NAT or a
firewall). A server registers with its key; a client connects to the proxy exactly as to a
server, and the proxy pairs it with a waiting server of the same key and relays the bytes."""

import logging
import os
import select
import socket
import struct
import threading

from .channel import SocketChannel, new_frame
from .codec import ProtocolError, decode_all
from .endpoint import RPCEndpoint
from .process import Service
from .protocol import MAGIC, MAGIC_STRUCT, PREAUTH_MAX_FRAME_SIZE, Code

logger = logging.getLogger("tvm.rpc")

PROXY_MAGIC = 0x54565258
_LEN = struct.Struct("<I")
# How long a client waits at the proxy for a server of its key to be free.
PAIR_TIMEOUT = 10.0


class _Registry:
    """Servers waiting at the proxy, per key."""

    def __init__(self):
        self.cond = threading.Condition()
        self.waiting = {}

    def add(self, key, sock):
        with self.cond:
            self.waiting.setdefault(key, []).append(sock)
            self.cond.notify_all()

    def take(self, key, timeout):
        with self.cond:
            if not self.cond.wait_for(lambda: self.waiting.get(key), timeout):
                return None
            return self.waiting[key].pop(0)


def _read_frame_bytes(sock, channel):
    """One whole frame from the client's handshake, as raw bytes and its decoded values."""
    code, meta, bulk_len = channel.recv_frame()
    if bulk_len:
        raise ProtocolError("handshake frames carry no bulk")
    frame = new_frame()
    frame += meta
    struct.pack_into("<QII", frame, 0, len(frame) - 8, code, len(meta))
    return code, bytes(frame), decode_all(meta)


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


def _handle(conn, peer, registry):
    try:
        conn.settimeout(PAIR_TIMEOUT)
        head = conn.recv(4, socket.MSG_WAITALL)
        if len(head) != 4:
            conn.close()
            return
        (magic,) = MAGIC_STRUCT.unpack(head)
        if magic == PROXY_MAGIC:
            (n,) = _LEN.unpack(conn.recv(4, socket.MSG_WAITALL))
            key = conn.recv(n, socket.MSG_WAITALL).decode()
            conn.settimeout(None)
            registry.add(key, conn)
            return
        if magic != MAGIC:
            logger.warning("tvm.rpc proxy: rejected %s: bad magic 0x%08x", peer, magic)
            conn.close()
            return
        channel = SocketChannel(conn, PREAUTH_MAX_FRAME_SIZE)
        # The client's INIT carries the key after version, side and nonce (see handshake.py);
        # the rest of the handshake runs between client and server through the relay.
        code, init, values = _read_frame_bytes(conn, channel)
        if code != Code.INIT or len(values) != 4 or not isinstance(values[3], str):
            raise ProtocolError("expected the client's INIT (version, side, nonce, key)")
        server = registry.take(values[3], PAIR_TIMEOUT)
        if server is None:
            endpoint = RPCEndpoint(channel, "proxy")
            endpoint.send_init()
            endpoint.send(Code.EXCEPTION, [
                "RPCError", f"tvm.rpc proxy: no server with key {values[3]!r} is free", ""])
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
    def __init__(self, sock):
        self.sock = sock
        self.registry = _Registry()

    def run(self):
        while True:
            conn, peer = self.sock.accept()
            threading.Thread(target=_handle, args=(conn, peer, self.registry), daemon=True).start()


class Proxy(Service):
    """A proxy process listening on host:port (first free port in [port, port_end))."""

    def __init__(self, host="127.0.0.1", port=9090, port_end=9199, silent=False):
        self._listen_and_start(host, port, port_end, "tvm.rpc.Proxy", silent, _ProxyLoop)


def serve_through_proxy(address, key, max_frame_size=None, retry_wait=1.0, *, secret=None,
                        policy=None):
    """Server side: register at the proxy, serve one session at a time, register again."""
    import time

    from .worker import serve_connection

    host, _, port = address.rpartition(":")
    key_bytes = key.encode()
    while True:
        try:
            sock = socket.create_connection((host.strip("[]"), int(port)), timeout=10.0)
        except OSError as err:
            logger.warning("tvm.rpc: cannot reach the proxy at %s: %s", address, err)
            time.sleep(retry_wait)
            continue
        sock.sendall(struct.pack("<II", PROXY_MAGIC, len(key_bytes)) + key_bytes)
        sock.settimeout(None)
        select.select([sock], [], [])  # until a client is paired with us (or the proxy goes)
        pid = os.fork()
        if pid == 0:
            try:
                serve_connection(sock, address, lambda k: k == key, max_frame_size=max_frame_size,
                                 secret=secret, policy=policy)
            finally:
                os._exit(0)
        sock.close()
        os.waitpid(pid, 0)
