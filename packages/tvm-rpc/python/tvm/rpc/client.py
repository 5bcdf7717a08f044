"""ClientSession (a session served by a peer over an endpoint) and tvm.rpc.connect."""

import numbers
import socket
import threading

from tvm.error import RPCError

from . import auth
from .channel import ChannelClosed, SocketChannel
from .codec import Handle, ProtocolError
from .endpoint import RPCEndpoint
from .handshake import HANDSHAKE_TIMEOUT, client_handshake, deadline_after
from .protocol import BULK_CHUNK_SIZE, Code, HandleKind
from .session import RPCSession


class ClientSession(RPCSession):
    """A session whose requests travel over ``endpoint`` to the side serving it."""

    def __init__(self, endpoint, description):
        super().__init__()
        self._endpoint = endpoint
        self._lock = threading.Lock()
        self.description = description

    def __repr__(self):
        state = "closed" if self._endpoint.closed else "open"
        return f"<{type(self).__name__} {self.description} ({state})>"

    def _request(self, code, values, bulk=None, bulk_into=None):
        with self._lock:
            if self._pending_frees:
                self._send_frees(self._take_pending_frees())
            return self._endpoint.request(code, values, bulk, bulk_into)

    def _send_frees(self, pairs):
        if self._endpoint.closed:
            return
        try:
            self._endpoint.send(Code.FREE, [[list(p) for p in pairs]])
        except (ChannelClosed, OSError):
            pass  # the request that follows reports the broken connection

    # -- the session interface ----------------------------------------------------------
    def get_function_handle(self, name):
        return self._request(Code.GET_FUNCTION, (name,))[0]

    def call_handle(self, function_id, args):
        with self._lock:
            if self._pending_frees:
                self._send_frees(self._take_pending_frees())
            return self._endpoint.call(function_id, args)

    def free_handles(self, handles):
        with self._lock:
            self._send_frees(handles)

    def tensor_empty(self, shape, dtype, device):
        return self._request(Code.TENSOR_EMPTY, (list(shape), dtype, device[0], device[1]))[0]

    def copy_to_remote(self, tensor_id, offset, data):
        for start in range(0, data.nbytes, BULK_CHUNK_SIZE):
            chunk = data[start : start + BULK_CHUNK_SIZE]
            self._request(Code.COPY_TO_REMOTE, (tensor_id, offset + start), bulk=chunk)

    def copy_from_remote(self, tensor_id, offset, out):
        for start in range(0, out.nbytes, BULK_CHUNK_SIZE):
            chunk = out[start : start + BULK_CHUNK_SIZE]
            self._request(
                Code.COPY_FROM_REMOTE, (tensor_id, offset + start, chunk.nbytes), bulk_into=chunk
            )

    def device_api(self, op, device):
        return self._request(Code.DEVICE_API, (op, device[0], device[1]))[0]

    def write_file(self, path, data, append):
        self._request(Code.UPLOAD, (path, append), bulk=data)

    def read_file(self, path, offset, nbytes):
        received = []

        def into(size):
            received.append(bytearray(size))
            return memoryview(received[0])

        self._request(Code.DOWNLOAD, (path, offset, nbytes), bulk_into=into)
        return bytes(received[0]) if received else b""

    def remove_file(self, path):
        self._request(Code.REMOVE, (path,))

    def load_module_handle(self, path):
        return self._request(Code.LOAD_MODULE, (path,))[0]

    def module_get_function_handle(self, module_id, name):
        return self._request(
            Code.MODULE_GET_FUNCTION, (Handle(HandleKind.MODULE, module_id), name)
        )[0]

    def close(self):
        with self._lock:
            if self._endpoint.closed:
                return
            try:
                self._endpoint.send(Code.SHUTDOWN)
            except (ChannelClosed, OSError):
                pass
            self._endpoint.close()

    @property
    def closed(self):
        return self._endpoint.closed


def _check_connect_args(host, port, key, session_timeout, session_constructor_args):
    if not isinstance(host, str) or not host:
        raise TypeError(f"tvm.rpc.connect: argument 'host' must be a non-empty str, got {host!r}")
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise ValueError(
            f"tvm.rpc.connect: argument 'port' must be an int in 1..65535, got {port!r}"
        )
    if not isinstance(key, str):
        raise TypeError(f"tvm.rpc.connect: argument 'key' must be a str, got {type(key).__name__}")
    if (
        not isinstance(session_timeout, numbers.Real)
        or isinstance(session_timeout, bool)
        or session_timeout < 0
    ):
        raise ValueError(
            f"tvm.rpc.connect: argument 'session_timeout' must be a number >= 0 "
            f"(0: no limit), got {session_timeout!r}"
        )
    if session_constructor_args is not None and (
        not isinstance(session_constructor_args, (list, tuple))
        or not session_constructor_args
        or not isinstance(session_constructor_args[0], str)
    ):
        raise TypeError(
            "tvm.rpc.connect: argument 'session_constructor_args' must be None or a "
            "list starting with a constructor name, e.g. "
            f"['rpc.Connect', host, port, key]; got {session_constructor_args!r}"
        )


def connect(
    host,
    port,
    key="",
    session_timeout=0,
    session_constructor_args=None,
    handshake_timeout=HANDSHAKE_TIMEOUT,
    *,
    secret=None,
    ssl_context=None,
):
    """Open a session on the RPC server at host:port.

    key: must match the server's key. session_timeout: seconds after which the server ends
    the session (0: no limit); the next call then raises RPCSessionTimeoutError.
    session_constructor_args: what the server serves, e.g. ["rpc.Connect", host2, port2, key2]
    to chain to another server (default: a LocalSession in the server's worker).
    secret: the server's shared secret (str or bytes; None reads $TVM_RPC_SECRET): both
    sides prove they know it by HMAC challenge-response, it never crosses the wire.
    ssl_context: an ssl.SSLContext to run the connection over TLS (None: plain TCP).
    """
    _check_connect_args(host, port, key, session_timeout, session_constructor_args)
    secret = auth.resolve_secret(secret, "tvm.rpc.connect: argument 'secret'")
    check_ssl_context(ssl_context, "tvm.rpc.connect")
    where = f"{host}:{port}"
    deadline = deadline_after(handshake_timeout)
    try:
        sock = socket.create_connection((host, port), timeout=handshake_timeout)
    except OSError as err:
        raise RPCError(f"tvm.rpc.connect: cannot connect to {where}: {err}") from None
    try:
        if ssl_context is not None:
            try:
                sock = ssl_context.wrap_socket(sock, server_hostname=host)
            except OSError as err:  # ssl.SSLError is one
                raise RPCError(
                    f"tvm.rpc.connect: TLS handshake with {where} failed: {err}"
                ) from None
        return client_session(
            sock,
            where,
            key,
            secret,
            session_timeout,
            list(session_constructor_args or []),
            deadline,
        )
    except BaseException:
        sock.close()
        raise


def check_ssl_context(ssl_context, func):
    if ssl_context is not None:
        import ssl

        if not isinstance(ssl_context, ssl.SSLContext):
            raise TypeError(
                f"{func}: argument 'ssl_context' must be None or an ssl.SSLContext, "
                f"got {type(ssl_context).__name__}"
            )


def client_session(
    sock, where, key, secret=None, session_timeout=0, constructor_args=(), deadline=None
):
    """Run the client side of the socket handshake on ``sock``; returns the ClientSession."""
    endpoint = RPCEndpoint(SocketChannel(sock), "client")
    try:
        client_handshake(
            endpoint,
            where,
            key,
            secret,
            session_timeout,
            constructor_args,
            deadline or deadline_after(HANDSHAKE_TIMEOUT),
        )
    except RPCError:
        raise
    except (ChannelClosed, OSError) as err:
        raise RPCError(
            f"tvm.rpc.connect: the server at {where} closed the connection during "
            f"the handshake ({err}); is it an RPC server?"
        ) from None
    except ProtocolError as err:
        raise RPCError(
            f"tvm.rpc.connect: {where} does not speak the RPC protocol ({err})"
        ) from None
    sock.settimeout(None)
    return ClientSession(endpoint, where)
