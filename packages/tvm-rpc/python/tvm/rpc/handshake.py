"""The socket handshake of both sides: versions, mutual HMAC authentication, key, session.

    client -> server  magic, INIT [version, "client", client nonce, key]
    server -> client  INIT [version, "server", server nonce, authentication required]
    client -> server  HELLO [client proof or NONE, session timeout, constructor args]
    server -> client  READY [worker pid, server proof or NONE]  (or EXCEPTION)

Until the client has proved it knows the secret, every frame is at most
PREAUTH_MAX_FRAME_SIZE bytes and the whole exchange runs under one deadline. The key
travels in INIT so that a Proxy can pair the client with a server without reading further;
it is a routing name (the tracker's match key), not a secret. See docs/rpc-protocol.md.
"""

import os
import time

import tvm_ffi
from tvm.error import RPCError

from . import auth
from .codec import ProtocolError, decode_all
from .protocol import MAGIC, MAGIC_STRUCT, PREAUTH_MAX_FRAME_SIZE, Code, frame_name

# Bound on connecting plus the handshake (total, not per read), so a silent or slow peer
# cannot hold either side.
HANDSHAKE_TIMEOUT = 30.0
CLIENT_PROOF = "rpc.client"
SERVER_PROOF = "rpc.server"


@tvm_ffi.register_error
class AuthenticationError(RPCError):
    """The peer could not prove it knows the shared secret (or asked us for one we lack)."""


def _types(values):
    return ", ".join(type(v).__name__ for v in values)


def _nonce_ok(value):
    return type(value) is bytes and len(value) == auth.NONCE_SIZE


# -- client side ----------------------------------------------------------------------------
def client_handshake(endpoint, where, key, secret, session_timeout, constructor_args, deadline):
    """Run the client side on ``endpoint`` (a SocketChannel's); returns the worker pid."""
    channel = endpoint.channel
    channel.deadline = deadline
    client_nonce = auth.new_nonce()
    channel._send_all(MAGIC_STRUCT.pack(MAGIC))
    endpoint.send_init(client_nonce, key)
    extra = endpoint.receive_init()
    if not extra:
        # A proxy that found no server for the key answers INIT + EXCEPTION and hangs up.
        endpoint.read_reply(expect=Code.READY)
        raise ProtocolError("expected EXCEPTION after a bare INIT")
    if len(extra) != 2 or not _nonce_ok(extra[0]) or type(extra[1]) is not bool:
        raise ProtocolError(
            f"malformed INIT frame from the server: expected (nonce, "
            f"authentication required), got ({_types(extra)})"
        )
    server_nonce, required = extra
    if required and secret is None:
        raise AuthenticationError(
            f"tvm.rpc.connect: the server at {where} requires authentication; pass secret= "
            f"(the server's shared secret) or set ${auth.SECRET_ENV_VAR}"
        )
    if secret is not None and not required:
        raise AuthenticationError(
            f"tvm.rpc.connect: the server at {where} does not authenticate (it has no secret) "
            "but this client has one, so it cannot tell the server is genuine; give the "
            f"server the same secret, or connect with secret=None and ${auth.SECRET_ENV_VAR} "
            "unset"
        )
    my_proof = (
        None if secret is None else auth.proof(secret, CLIENT_PROOF, client_nonce, server_nonce)
    )
    endpoint.send(Code.HELLO, [my_proof, float(session_timeout), list(constructor_args)])
    values = endpoint.read_reply(expect=Code.READY)
    if len(values) != 2 or type(values[0]) is not int:
        raise ProtocolError(f"malformed READY frame: expected (pid, proof), got ({_types(values)})")
    if secret is not None and not auth.check(
        secret, SERVER_PROOF, values[1], client_nonce, server_nonce
    ):
        raise AuthenticationError(
            f"tvm.rpc.connect: the server at {where} failed to prove it "
            "knows the shared secret; it is not the server you meant"
        )
    channel.deadline = None
    return values[0]


# -- server side ----------------------------------------------------------------------------
def read_magic(channel):
    magic = bytearray(MAGIC_STRUCT.size)
    channel.read_into(memoryview(magic))
    return MAGIC_STRUCT.unpack(magic)[0]


def server_handshake(endpoint, secret, accept_key, max_frame_size):
    """Run the server side after the magic; returns (session timeout, constructor args,
    server proof), or a str saying why the client was refused (it has been told)."""
    channel = endpoint.channel
    saved_limit = channel.max_frame_size
    channel.max_frame_size = min(saved_limit, PREAUTH_MAX_FRAME_SIZE)
    server_nonce = auth.new_nonce()
    endpoint.send_init(server_nonce, secret is not None)
    extra = endpoint.receive_init()
    if len(extra) != 2 or not _nonce_ok(extra[0]) or type(extra[1]) is not str:
        raise ProtocolError(
            f"malformed INIT frame: expected (version, side, nonce, key), got "
            f"(int, str, {_types(extra)})"
        )
    client_nonce, key = extra
    code, meta, bulk_len = channel.recv_frame()
    if code != Code.HELLO or bulk_len:
        raise ProtocolError(
            f"expected the client's HELLO frame (code {Code.HELLO}), got "
            f"{frame_name(code)}" + (f" with {bulk_len} bulk bytes" if bulk_len else "")
        )
    values = decode_all(meta)
    if (
        len(values) != 3
        or type(values[1]) is not float
        or not isinstance(values[2], list)
        or not (values[0] is None or type(values[0]) is bytes)
    ):
        raise ProtocolError(
            "malformed HELLO frame: expected (proof, session_timeout, "
            f"constructor args), got ({_types(values)})"
        )
    client_proof, session_timeout, constructor_args = values
    if secret is not None and not auth.check(
        secret, CLIENT_PROOF, client_proof, client_nonce, server_nonce
    ):
        reason = "authentication failed: the client did not prove it knows the shared secret"
        endpoint.send(Code.EXCEPTION, ["AuthenticationError", f"tvm.rpc.connect: {reason}", ""])
        return reason
    verdict = accept_key(key)
    if verdict is not True:
        reason = verdict or f"tvm.rpc.connect: key mismatch: the server does not accept key {key!r}"
        endpoint.send(Code.EXCEPTION, ["RPCError", reason, ""])
        return reason if verdict else f"key {key!r} does not match this server's"
    channel.max_frame_size = saved_limit if max_frame_size is None else max_frame_size
    server_proof = (
        None if secret is None else auth.proof(secret, SERVER_PROOF, client_nonce, server_nonce)
    )
    return session_timeout, constructor_args, server_proof


def send_ready(endpoint, server_proof):
    """The session is up: tell the client (with our proof) and lift the deadline."""
    endpoint.send(Code.READY, [os.getpid(), server_proof])
    endpoint.channel.deadline = None


def deadline_after(seconds):
    return time.monotonic() + seconds
