"""A bare tracker peer for tests: raw connections, length-prefixed JSON messages, replies."""

import json
import socket
import struct

from tvm.rpc.tracker_wire import TRACKER_MAGIC


def msg(obj) -> bytes:
    """A length-prefixed message: raw bytes as given, anything else as JSON."""
    data = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    return struct.pack("<I", len(data)) + data


def raw(port, rcvbuf=None):
    """A bare connection to the tracker, past its magic (no secret, no client code)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:  # before connect, so the window stays small
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    sock.sendall(struct.pack("<I", TRACKER_MAGIC))
    return sock


def reply(sock):
    """The next message from the tracker, parsed; None when it closed the connection."""
    head = sock.recv(4, socket.MSG_WAITALL)
    if len(head) < 4:
        return None
    (n,) = struct.unpack("<I", head)
    return json.loads(sock.recv(n, socket.MSG_WAITALL))
