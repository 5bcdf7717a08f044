"""The tracker's peers: a server's link to it and a client's TrackerSession."""

import logging
import socket
import time

from tvm.error import RPCError

from . import auth
from .tracker_wire import (
    MAGIC,
    MAX_MESSAGE,
    TRACKER_MAGIC,
    MessageError,
    check_fields,
    check_key,
    encode,
    pop_messages,
    recv_message,
)
from .tracker_wire import ConnectionClosed as _Closed

# Seconds a summary (or the connection and handshake it opens) may take in all.
SUMMARY_TIMEOUT = 10.0
# What a request's reply must hold (tracker_wire.SCHEMA kinds).
_SERVER_FIELDS = {"host": "host", "port": "port", "match": "match"}

logger = logging.getLogger("tvm.rpc")

# Purpose labels of the two proofs (auth.proof): the tracker's and its peer's.
TRACKER_PROOF = "tracker->peer"
PEER_PROOF = "peer->tracker"


def _authenticate(sock, secret, deadline):
    """Prove to the tracker that we know ``secret``, after it has proved it to us (its
    challenge read in all by ``deadline``, time.monotonic())."""
    ours = auth.new_nonce()
    sock.sendall(encode({"op": "auth", "nonce": ours.hex()}))
    reply = recv_message(sock, MAX_MESSAGE, deadline)
    try:
        theirs = bytes.fromhex(reply["nonce"])
        claimed = bytes.fromhex(reply["proof"])
    except (TypeError, KeyError, ValueError):
        raise RPCError(f"tvm.rpc tracker: bad reply to authentication: {reply!r:.80}") from None
    if reply.get("op") != "challenge" or not auth.check(
        secret, TRACKER_PROOF, claimed, ours, theirs
    ):
        raise RPCError("tvm.rpc tracker: the tracker failed to prove it knows the secret")
    sock.sendall(
        encode({"op": "proof", "proof": auth.proof(secret, PEER_PROOF, ours, theirs).hex()})
    )


def _connect(addr, secret=None, timeout=10.0):
    """A connection to the tracker, authenticated when there is a secret."""
    host, port = addr
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as err:
        raise RPCError(f"tvm.rpc: cannot connect to the tracker at {host}:{port}: {err}") from None
    try:
        sock.sendall(MAGIC.pack(TRACKER_MAGIC))
        if secret is not None:
            _authenticate(sock, secret, deadline)
        sock.settimeout(timeout)
    except (OSError, RPCError) as err:
        sock.close()
        raise RPCError(f"tvm.rpc: tracker at {host}:{port}: {err}") from None
    return sock


def _check_addr(addr, where):
    if (
        not isinstance(addr, (tuple, list))
        or len(addr) != 2
        or not isinstance(addr[0], str)
        or type(addr[1]) is not int
    ):
        raise TypeError(f"{where} must be a (host: str, port: int) pair, got {addr!r}")
    return tuple(addr)


class TrackerServerLink:
    """A server's connection to its tracker: announces it is free with a new match key and
    hears when the tracker hands that key to a client. secret: None reads $TVM_RPC_SECRET."""

    def __init__(self, addr, key, host, port, *, secret=None):
        self.addr = tuple(addr)
        self.key = check_key(key, "tvm.rpc.Server: argument 'key' (with a tracker)")
        self.host = host
        self.port = port
        secret = auth.resolve_secret(secret, "tvm.rpc.Server: argument 'secret'")
        self.sock = _connect(self.addr, secret)
        self.sock.settimeout(10.0)
        self._inbuf = bytearray()

    def receive(self):
        """The messages the tracker sent (call when the socket is readable, so this does not
        block); None once the tracker has closed the connection."""
        try:
            data = self.sock.recv(65536)
            if data:
                self._inbuf += data
                messages = pop_messages(self._inbuf)
                for message in messages:
                    if isinstance(message, dict) and "error" in message:
                        logger.warning(
                            "tvm.rpc: the tracker at %s:%s refused us: %.200s",
                            *self.addr,
                            message["error"],
                        )
                return messages
            reason = "connection closed"
        except (OSError, MessageError) as err:
            reason = err
        logger.warning("tvm.rpc: lost the tracker at %s:%s: %s", *self.addr, reason)
        return None

    def put(self, match):
        try:
            self.sock.sendall(
                encode(
                    {
                        "op": "put",
                        "key": self.key,
                        "host": self.host,
                        "port": self.port,
                        "match": match,
                    }
                )
            )
        except OSError as err:
            logger.warning("tvm.rpc: lost the tracker at %s:%s: %s", *self.addr, err)

    def close_in_child(self):
        self.sock.detach()  # a worker must not shut down the server's tracker connection


class TrackerSession:
    """A client's connection to a tracker (see connect_tracker). After any error on the
    connection (an oversized or malformed reply, a timeout) it is closed, and the next
    call opens a new one."""

    def __init__(self, addr, *, secret=None):
        self.addr = _check_addr(addr, "TrackerSession: argument 'addr'")
        self._secret = auth.resolve_secret(secret, "tvm.rpc.connect_tracker: argument 'secret'")
        self._sock = _connect(self.addr, self._secret)

    def close(self):
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def summary(self):
        """{"queue_info": {key: {"free": n, "pending": m}}, "server_info": [...]}; the
        tracker lists server addresses only to authenticated peers."""
        deadline = time.monotonic() + SUMMARY_TIMEOUT
        fresh = self._sock is None
        if fresh:
            self._sock = _connect(self.addr, self._secret, SUMMARY_TIMEOUT)
        try:
            try:
                reply = self._ask_summary(deadline)
            except (ConnectionError, _Closed):
                if fresh:
                    raise
                # The tracker closes a connection idle since its magic: reconnect once (a
                # summary is safe to ask again).
                self.close()
                self._sock = _connect(
                    self.addr, self._secret, max(0.001, deadline - time.monotonic())
                )
                reply = self._ask_summary(deadline)
        except (OSError, RPCError) as err:
            self.close()  # the stream may be mid-message: never read from it again
            raise RPCError(
                f"TrackerSession.summary: {err} (the connection is closed; the next "
                "call opens a new one)"
            ) from None
        if not isinstance(reply, dict) or not isinstance(reply.get("queue_info"), dict):
            self.close()
            raise RPCError(f"TrackerSession.summary: bad reply from the tracker: {reply!r:.80}")
        return reply

    def _ask_summary(self, deadline):
        self._sock.settimeout(max(0.001, deadline - time.monotonic()))
        self._sock.sendall(encode({"op": "summary"}))
        return recv_message(self._sock, deadline=deadline)

    def request(
        self,
        key,
        priority=1,
        session_timeout=0,
        max_retry=5,
        timeout=None,
        session_constructor_args=None,
    ):
        """Wait (up to ``timeout`` seconds, None: no limit) for a free server of ``key`` and
        open a session on it. Returns the ClientSession."""
        from .client import connect

        if not isinstance(key, str) or not key:
            raise TypeError(
                f"TrackerSession.request: argument 'key' must be a non-empty str, got {key!r}"
            )
        check_key(key, "TrackerSession.request: argument 'key'")
        if type(priority) is not int:
            raise TypeError(
                "TrackerSession.request: argument 'priority' must be an int, got "
                f"{type(priority).__name__}"
            )
        last_error = None
        end = None if timeout is None else time.monotonic() + timeout
        for _ in range(max(1, max_retry)):
            reply = self._wait_for_server(key, priority, end, timeout)
            try:
                # The server proves the same shared secret the tracker did (a cluster has one).
                return connect(
                    reply["host"],
                    reply["port"],
                    reply["match"],
                    session_timeout,
                    session_constructor_args,
                    secret=self._secret,
                )
            except RPCError as err:
                if getattr(err, "remote_kind", "RPCError") != "RPCError":
                    raise  # the session itself failed (bad constructor, say): retrying won't help
                last_error = err
        raise RPCError(
            f"TrackerSession.request: could not open a session for key {key!r} "
            f"after {max_retry} tries: {last_error}"
        )

    def _wait_for_server(self, key, priority, end, timeout):
        # A fresh connection per request: an abandoned wait must not leave a stale reply.
        wait = 10.0 if end is None else min(10.0, max(0.001, end - time.monotonic()))
        sock = _connect(self.addr, self._secret, wait)
        try:
            sock.settimeout(None if end is None else max(0.001, end - time.monotonic()))
            sock.sendall(encode({"op": "request", "key": key, "priority": priority}))
            reply = recv_message(sock, deadline=end)
        except TimeoutError:
            raise RPCError(
                f"TrackerSession.request: no free server for key {key!r} within {timeout:g} s"
            ) from None
        except (OSError, RPCError) as err:
            raise RPCError(f"TrackerSession.request: {err}") from None
        finally:
            sock.close()
        try:
            if not isinstance(reply, dict):
                raise MessageError(f"not a JSON object but {type(reply).__name__}")
            check_fields(reply, _SERVER_FIELDS)
        except MessageError as err:
            raise RPCError(
                f"TrackerSession.request: bad reply from the tracker ({err}): {reply!r:.80}"
            ) from None
        return reply


def connect_tracker(url, port, *, secret=None):
    """Connect to the tracker at url:port. secret: the tracker's shared secret (None reads
    $TVM_RPC_SECRET; unset: connect without authenticating)."""
    return TrackerSession((url, port), secret=secret)
