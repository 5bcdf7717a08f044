"""Shared-secret authentication for RPC peers: HMAC-SHA256 challenge-response, mutual.

Every party that authenticates another (server <- client, tracker <- server/client,
proxy <- server/client) uses these few functions, so there is one scheme to audit.
The secret never crosses the wire: each side sends a fresh random nonce and proves it
knows the secret by the HMAC of both nonces under a purpose label. The purpose label
binds a proof to one direction and one use, so a proof cannot be replayed or reflected
(a client's proof is never a valid server proof, a tracker proof never a server proof).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets

# Bumped whenever the proof's construction changes; part of every proof.
AUTH_SCHEME = b"tvm.rpc.auth.v1"
NONCE_SIZE = 32
PROOF_SIZE = hashlib.sha256().digest_size
# Where `secret=None` looks for the shared secret, so that code written without the
# argument (upstream's signatures) can still authenticate when the operator sets it.
SECRET_ENV_VAR = "TVM_RPC_SECRET"


def resolve_secret(secret, where: str) -> bytes | None:
    """The secret as bytes: `secret` itself, else $TVM_RPC_SECRET; None when neither is set.

    where: the function and argument for error messages ("tvm.rpc.connect: argument 'secret'").
    """
    if secret is None:
        secret = os.environ.get(SECRET_ENV_VAR) or None
        if secret is None:
            return None
    if isinstance(secret, str):
        secret = secret.encode("utf-8")
    if not isinstance(secret, (bytes, bytearray)):
        raise TypeError(f"{where} must be a str or bytes, got {type(secret).__name__}")
    if not secret:
        raise ValueError(f"{where} must not be empty (pass None for no authentication)")
    return bytes(secret)


def new_nonce() -> bytes:
    """A fresh random challenge."""
    return secrets.token_bytes(NONCE_SIZE)


def proof(secret: bytes, purpose: str, *nonces: bytes) -> bytes:
    """HMAC-SHA256 over the scheme, the purpose label and the nonces (length-prefixed)."""
    mac = hmac.new(secret, AUTH_SCHEME, hashlib.sha256)
    for part in (purpose.encode("utf-8"), *nonces):
        mac.update(len(part).to_bytes(4, "little"))
        mac.update(part)
    return mac.digest()


def check(secret: bytes, purpose: str, claimed, *nonces: bytes) -> bool:
    """True when `claimed` is the proof for these nonces; constant time."""
    if not isinstance(claimed, (bytes, bytearray)) or len(claimed) != PROOF_SIZE:
        return False
    return hmac.compare_digest(proof(secret, purpose, *nonces), bytes(claimed))
