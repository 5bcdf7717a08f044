"""Tracker wire format: length-prefixed JSON messages, their bounds and their schema."""

import json
import re
import struct
import time

from tvm.error import RPCError

TRACKER_MAGIC = 0x54565254
MAGIC = struct.Struct("<I")
_LEN = struct.Struct("<I")
# A message to the tracker is a flat object of a few short fields: this is ample.
MAX_MESSAGE = 4096
# A reply from the tracker (a summary of every queue) is bounded by the tracker's limits on
# keys, servers and pending requests (docs/rpc-protocol.md); this is well above that.
MAX_REPLY = 16 << 20
MAX_DEPTH = 4
MAX_KEY = 256  # bytes of UTF-8
MAX_MATCH = MAX_KEY + 65  # "<key>:<random hex>"
MAX_HOST = 255
PRIORITY_RANGE = (-(1 << 31), 1 << 31)
_HOST = re.compile(r"[A-Za-z0-9._:%\[\]-]+")
_HEX = re.compile(r"[0-9a-f]+")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


class MessageError(ValueError):
    """A message that breaks the tracker protocol (its sender is told why and dropped)."""


class ConnectionClosed(RPCError):
    """The peer closed the connection before a whole message came."""


def encode(message):
    data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
    return _LEN.pack(len(data)) + data


def _reject_constant(name):
    raise MessageError(f"{name} is not a number")


def decode(data):
    """A message's JSON, its nesting depth checked before it is parsed."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise MessageError("message is not UTF-8") from None
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_DEPTH:
            raise MessageError(f"message nests deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as err:
        raise MessageError(f"message is not JSON: {err}") from None


def pop_messages(buf, limit=MAX_MESSAGE, max_count=None):
    """Take the complete messages (at most ``max_count``, None: all) off the front of
    ``buf`` (a bytearray) and return them."""
    messages = []
    while len(buf) >= 4 and (max_count is None or len(messages) < max_count):
        (n,) = _LEN.unpack_from(buf)
        if n > limit:
            raise MessageError(f"message of {n} bytes exceeds {limit}")
        if len(buf) < 4 + n:
            break
        messages.append(decode(bytes(buf[4 : 4 + n])))
        del buf[: 4 + n]
    return messages


def _recv_exact(sock, n, deadline=None):
    """``n`` bytes; with a ``deadline`` (time.monotonic()) socket.timeout once it passes,
    however the bytes are spread out in time."""
    data = bytearray()
    while len(data) < n:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("timed out")
            sock.settimeout(remaining)
        chunk = sock.recv(min(n - len(data), 1 << 20))
        if not chunk:
            raise ConnectionClosed("tvm.rpc tracker: connection closed")
        data += chunk
    return bytes(data)


def recv_message(sock, limit=MAX_REPLY, deadline=None):
    """One message, read in all by ``deadline`` (time.monotonic(); None: the socket's own
    timeout per read), else socket.timeout; an ``{"error": ...}`` reply raises it as an
    RPCError."""
    (n,) = _LEN.unpack(_recv_exact(sock, 4, deadline))
    if n > limit:
        raise RPCError(f"tvm.rpc tracker: message of {n} bytes exceeds {limit}")
    try:
        message = decode(_recv_exact(sock, n, deadline))
    except MessageError as err:
        raise RPCError(f"tvm.rpc tracker: bad reply: {err}") from None
    if isinstance(message, dict) and isinstance(message.get("error"), str):
        raise RPCError(message["error"])
    return message


# -- schema --------------------------------------------------------------------------------
def check_key(key, where, limit=MAX_KEY):
    """A key: a non-empty str of printable characters, at most ``limit`` bytes of UTF-8."""
    if not isinstance(key, str):
        raise TypeError(f"{where} must be a str, got {type(key).__name__}")
    if not key or len(key.encode("utf-8", "surrogatepass")) > limit or not key.isprintable():
        raise ValueError(
            f"{where} must be 1 to {limit} bytes of printable characters, got {len(key)} characters"
        )
    return key


def _field(message, name, kind):
    value = message.get(name)
    if kind in ("key", "match"):
        try:
            check_key(value, f"field {name!r}", MAX_KEY if kind == "key" else MAX_MATCH)
        except (TypeError, ValueError) as err:
            raise MessageError(str(err)) from None
    elif kind == "host":
        if not isinstance(value, str) or len(value) > MAX_HOST or not _HOST.fullmatch(value):
            raise MessageError(f"field {name!r} must be a host name or address")
    elif kind == "port":
        if type(value) is not int or not 0 < value < 65536:
            raise MessageError(f"field {name!r} must be an int in 1..65535, got {value!r:.40}")
    elif kind == "priority":
        low, high = PRIORITY_RANGE
        if type(value) is not int or not low <= value < high:
            raise MessageError(
                f"field {name!r} must be an int in [{low}, {high}), got {value!r:.40}"
            )
    elif kind == "hex32":
        if not isinstance(value, str) or len(value) != 64 or not _HEX.fullmatch(value):
            raise MessageError(f"field {name!r} must be 64 lowercase hex digits")


def check_fields(message, fields):
    """MessageError unless ``message`` (a dict) has each of ``fields`` (name -> kind, as in
    SCHEMA) and each is valid."""
    for name, kind in fields.items():
        if name not in message:
            raise MessageError(f"missing field {name!r}")
        _field(message, name, kind)


# op -> (required fields, optional fields with defaults), each field -> its kind
SCHEMA = {
    "put": ({"key": "key", "host": "host", "port": "port", "match": "match"}, {}),
    "request": ({"key": "key"}, {"priority": ("priority", 1)}),
    "summary": ({}, {}),
    "auth": ({"nonce": "hex32"}, {}),
    "proof": ({"proof": "hex32"}, {}),
}


def check_message(message):
    """The message, its defaults filled in, when it fits the schema; else MessageError."""
    if not isinstance(message, dict):
        raise MessageError(f"message must be a JSON object, got {type(message).__name__}")
    op = message.get("op")
    if not isinstance(op, str) or op not in SCHEMA:
        raise MessageError(f"unknown tracker operation {op!r:.40}")
    required, optional = SCHEMA[op]
    unknown = set(message) - {"op"} - set(required) - set(optional)
    if unknown:
        raise MessageError(f"unknown field(s) for {op!r}: {sorted(unknown)!r:.80}")
    checked = dict(message)
    for name, (kind, default) in optional.items():
        checked.setdefault(name, default)
        _field(checked, name, kind)
    for name, kind in required.items():
        if name not in message:
            raise MessageError(f"{op!r} needs field {name!r}")
        _field(checked, name, kind)
    return checked
