"""The server side of one connection, run in its own worker process: handshake, then serve."""

import logging
import os
import struct
import time

from tvm.error import RPCError

from .channel import ChannelClosed, SocketChannel
from .codec import ProtocolError
from .endpoint import RPCEndpoint
from .errors import describe
from .handshake import HANDSHAKE_TIMEOUT, read_magic, send_ready, server_handshake
from .protocol import MAGIC, Code
from .session_constructors import make_session

logger = logging.getLogger("tvm.rpc")

# Status messages a worker writes to its server: session start (with its time limit).
STATUS_STARTED = struct.Struct("<cd")


def serve_connection(
    sock,
    peer,
    accept_key,
    status_fd=None,
    write_lock=None,
    max_frame_size=None,
    handshake_timeout=HANDSHAKE_TIMEOUT,
    *,
    secret=None,
    ssl_context=None,
    policy=None,
    workspace=None,
):
    """Handshake with the client on ``sock`` and serve its session until it ends.

    accept_key(key) says whether the client's key is acceptable: True, False, or a str
    saying why it is refused. secret: bytes the client must prove it knows (None: anyone).
    ssl_context: a server-side ssl.SSLContext (None: plain TCP). policy: the
    sessions.SessionPolicy limiting what a client may construct. workspace: the folder the
    session's uploads go to. The worker reports the session's start and time limit on
    ``status_fd`` so its server can enforce the limit. The whole handshake, TLS included,
    must end within ``handshake_timeout`` seconds.
    """
    deadline = time.monotonic() + handshake_timeout
    channel = None
    session = None
    try:
        if ssl_context is not None:
            sock.settimeout(handshake_timeout)
            sock = ssl_context.wrap_socket(sock, server_side=True)
        channel = SocketChannel(sock)
        channel.deadline = deadline
        endpoint = RPCEndpoint(channel, "server")
        value = read_magic(channel)
        if value != MAGIC:
            logger.warning("tvm.rpc: rejected %s: not an RPC client (magic 0x%08x)", peer, value)
            return
        outcome = server_handshake(endpoint, secret, accept_key, max_frame_size)
        if isinstance(outcome, str):
            logger.warning("tvm.rpc: rejected %s: %s", peer, outcome)
            return
        session_timeout, constructor_args, server_proof = outcome
        if status_fd is not None:  # from here on the session (and its time limit) is running
            os.write(status_fd, STATUS_STARTED.pack(b"S", session_timeout))
        try:
            session = make_session(constructor_args, policy, workspace)
        except Exception as err:  # noqa: BLE001  (the client learns why its session failed)
            endpoint.send(Code.EXCEPTION, describe(err))
            return
        # The server writes to this connection only to tell a session past its time limit
        # that it ended; without a limit no frame needs guarding (and each send is cheaper).
        channel.write_lock = write_lock if session_timeout > 0 else None
        send_ready(endpoint, server_proof)
        sock.settimeout(None)
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
        if channel is not None:
            channel.close()
        else:
            sock.close()
