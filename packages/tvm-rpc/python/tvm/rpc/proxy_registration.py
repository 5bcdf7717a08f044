"""How a server registers at a proxy: its key, then, with a secret, a mutual HMAC proof."""

import struct
import time

from tvm.error import RPCError

from . import auth
from .tracker_wire import MAX_KEY, check_key

PROXY_MAGIC = 0x54565258
_U32 = struct.Struct("<I")
# Purpose labels of the two proofs (auth.proof): the proxy's and the registering server's.
PROXY_PROOF = "proxy->server"
SERVER_PROOF = "server->proxy"

# The proxy's answers (a u32 each).
OK = 0  # registered: the relayed session's bytes follow once a client is paired
CHALLENGE = 1  # followed by the proxy's nonce and proof; the server answers with its proof
DUPLICATE = 2
AUTH_REQUIRED = 3
AUTH_FAILED = 4
NO_SECRET = 5
BAD_KEY = 6
FULL = 7
REASONS = {
    DUPLICATE: "a server with this key is already registered",
    AUTH_REQUIRED: "the proxy has a secret: pass secret=... or set $TVM_RPC_SECRET",
    AUTH_FAILED: "authentication failed: wrong secret",
    NO_SECRET: "the proxy has no secret, so it cannot prove itself (register without one)",
    BAD_KEY: f"the key must be 1 to {MAX_KEY} bytes of printable characters",
    FULL: "the proxy holds as many servers as it can",
}


class Refused(Exception):
    """The proxy refuses a registration: ``status`` says why (sent to the server)."""

    def __init__(self, status):
        super().__init__(REASONS[status])
        self.status = status


# Seconds a registration may take in all (a peer dripping bytes cannot hold it longer).
REGISTRATION_TIMEOUT = 10.0


def recv_exact(sock, n, deadline, what="the proxy registration"):
    """Exactly ``n`` bytes, read as they come until ``deadline`` (time.monotonic());
    TimeoutError after it, ConnectionError if the peer closes first."""
    data = bytearray()
    while len(data) < n:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"{what} not done in time")
        sock.settimeout(remaining)
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError(f"connection closed during {what}")
        data += chunk
    return bytes(data)


_recv_exact = recv_exact


# -- the server's side ---------------------------------------------------------------------
def register(sock, key, secret):
    """Register ``key`` (checked: tracker_wire.check_key) at the proxy; RPCError if refused."""
    deadline = time.monotonic() + REGISTRATION_TIMEOUT
    key_bytes = key.encode()
    ours = b"" if secret is None else auth.new_nonce()
    sock.sendall(
        _U32.pack(PROXY_MAGIC) + _U32.pack(len(key_bytes)) + key_bytes + _U32.pack(len(ours)) + ours
    )
    (status,) = _U32.unpack(_recv_exact(sock, 4, deadline))
    if status == CHALLENGE and secret is not None:
        theirs = _recv_exact(sock, auth.NONCE_SIZE, deadline)
        claimed = _recv_exact(sock, auth.PROOF_SIZE, deadline)
        if not auth.check(secret, PROXY_PROOF, claimed, ours, theirs):
            raise RPCError("tvm.rpc: the proxy failed to prove it knows the secret")
        sock.sendall(auth.proof(secret, SERVER_PROOF, ours, theirs))
        (status,) = _U32.unpack(_recv_exact(sock, 4, deadline))
    elif status == OK and secret is not None:
        raise RPCError(
            "tvm.rpc: the proxy accepted the registration without proving it knows the secret"
        )
    if status != OK:
        raise RPCError(
            f"tvm.rpc: the proxy refused the registration: "
            f"{REASONS.get(status, f'status {status}')}"
        )


# -- the proxy's side ----------------------------------------------------------------------
def accept(sock, secret):
    """Read a registration (past its magic); returns the key, once the server has proved
    it knows ``secret`` (when there is one). Raises Refused (answer it) or OSError."""
    deadline = time.monotonic() + REGISTRATION_TIMEOUT
    (n,) = _U32.unpack(_recv_exact(sock, 4, deadline))
    if n > MAX_KEY:
        raise Refused(BAD_KEY)
    try:
        key = check_key(_recv_exact(sock, n, deadline).decode("utf-8"), "key")
    except (UnicodeDecodeError, ValueError):
        raise Refused(BAD_KEY) from None
    (n,) = _U32.unpack(_recv_exact(sock, 4, deadline))
    if n not in (0, auth.NONCE_SIZE):
        raise Refused(AUTH_FAILED)
    theirs = _recv_exact(sock, n, deadline)
    if secret is None:
        if theirs:
            raise Refused(NO_SECRET)
        return key
    if not theirs:
        raise Refused(AUTH_REQUIRED)
    ours = auth.new_nonce()
    sock.sendall(_U32.pack(CHALLENGE) + ours + auth.proof(secret, PROXY_PROOF, theirs, ours))
    claimed = _recv_exact(sock, auth.PROOF_SIZE, deadline)
    if not auth.check(secret, SERVER_PROOF, claimed, theirs, ours):
        raise Refused(AUTH_FAILED)
    return key


def answer(sock, status):
    sock.sendall(_U32.pack(status))
