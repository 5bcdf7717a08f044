"""The server side of one connection, run in its own worker process: handshake, then serve."""

import logging
import os
import struct

from tvm.error import RPCError

from .channel import ChannelClosed, SocketChannel
from .codec import ProtocolError, decode_all
from .endpoint import RPCEndpoint
from .errors import describe
from .protocol import MAGIC, MAGIC_STRUCT, Code
from .sessions import make_session

logger = logging.getLogger("tvm.rpc")

HANDSHAKE_TIMEOUT = 30.0
# Status messages a worker writes to its server: session start (with its time limit).
STATUS_STARTED = struct.Struct("<cd")


def _read_hello(endpoint):
    code, meta, bulk_len = endpoint.channel.recv_frame()
    values = decode_all(meta) if code == Code.HELLO else None
    if (code != Code.HELLO or bulk_len or values is None or len(values) != 3
            or not isinstance(values[0], str) or type(values[1]) is not float
            or not isinstance(values[2], list)):
        raise ProtocolError(f"expected HELLO (key, session_timeout, constructor args), got code {code}")
    return values


def serve_connection(sock, peer, accept_key, status_fd=None, write_lock=None,
                     max_frame_size=None, handshake_timeout=HANDSHAKE_TIMEOUT):
    """Handshake with the client on ``sock`` and serve its session until it ends.

    accept_key(key) says whether the client's key is acceptable: True, False, or a str
    saying why it is refused. The worker reports the
    session's start and time limit on ``status_fd`` so its server can enforce the limit.
    """
    sock.settimeout(handshake_timeout)
    channel = SocketChannel(sock) if max_frame_size is None else SocketChannel(sock, max_frame_size)
    endpoint = RPCEndpoint(channel, "server")
    session = None
    try:
        magic = bytearray(MAGIC_STRUCT.size)
        channel.read_into(memoryview(magic))
        (value,) = MAGIC_STRUCT.unpack(magic)
        if value != MAGIC:
            logger.warning("tvm.rpc: rejected %s: not an RPC client (magic 0x%08x)", peer, value)
            return
        endpoint.send_init()
        endpoint.receive_init()
        key, session_timeout, constructor_args = _read_hello(endpoint)
        verdict = accept_key(key)
        if verdict is not True:
            if verdict:
                reason = verdict
                logger.warning("tvm.rpc: rejected %s: %s", peer, reason)
            else:
                reason = f"tvm.rpc.connect: key mismatch: the server does not accept key {key!r}"
                logger.warning("tvm.rpc: rejected %s: key %r does not match this server's", peer, key)
            endpoint.send(Code.EXCEPTION, ["RPCError", reason, ""])
            return
        if status_fd is not None:  # from here on the session (and its time limit) is running
            os.write(status_fd, STATUS_STARTED.pack(b"S", session_timeout))
        try:
            session = make_session(constructor_args)
        except Exception as err:  # noqa: BLE001  (the client learns why its session failed)
            endpoint.send(Code.EXCEPTION, describe(err))
            return
        channel.write_lock = write_lock
        sock.settimeout(None)
        endpoint.send(Code.READY, [os.getpid()])
        endpoint.serve(session)
    except RPCError as err:
        logger.error("tvm.rpc: session with %s failed: %s", peer, err)
    except ProtocolError as err:
        logger.warning("tvm.rpc: closing connection from %s: malformed frame: %s", peer, err)
    except (ChannelClosed, OSError) as err:
        logger.info("tvm.rpc: connection from %s ended: %s", peer, err)
    finally:
        if session is not None:
            session.close()
        channel.close()
