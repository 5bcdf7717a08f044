"""Wire constants of the RPC protocol: magic, version, frame layout, message codes, value tags.

docs/rpc-protocol.md is the prose version of this file; change both together.
"""

import struct

# First four bytes a socket client sends; anything else is not an RPC peer.
MAGIC = 0x54565250  # b"PRVT" little-endian
MAGIC_STRUCT = struct.Struct("<I")

# Bumped on any incompatible change of framing, codes or tags.
PROTOCOL_VERSION = 2

# Frame: u64 length of everything after it, u32 code, u32 meta length, meta, bulk.
FRAME_HEADER = struct.Struct("<QII")
FRAME_FIXED = FRAME_HEADER.size - 8  # code + meta length, counted in the frame length

# Refuse frames bigger than this so a bogus length cannot make a peer allocate gigabytes.
DEFAULT_MAX_FRAME_SIZE = 256 << 20
# Before a peer is authenticated, no frame may be larger than this: the handshake frames
# are small, and an unauthenticated peer must not make a server allocate more.
PREAUTH_MAX_FRAME_SIZE = 4096
# Tensor copies and file transfers larger than this are split into several frames.
BULK_CHUNK_SIZE = 64 << 20


class Code:
    """Message codes (u32)."""

    INIT = 1  # both sides, first frame: protocol version
    HELLO = 2  # socket client -> server: key and session options
    READY = 3  # server -> client: the session is up
    # requests (client -> server)
    GET_FUNCTION = 10
    CALL = 11
    FREE = 12
    TENSOR_EMPTY = 13
    COPY_TO_REMOTE = 14
    COPY_FROM_REMOTE = 15
    DEVICE_API = 16
    UPLOAD = 17
    DOWNLOAD = 18
    REMOVE = 19
    LOAD_MODULE = 20
    MODULE_GET_FUNCTION = 21
    SHUTDOWN = 22
    # replies (server -> client)
    RETURN = 40
    EXCEPTION = 41


CODE_NAMES = {value: name for name, value in vars(Code).items() if isinstance(value, int)}
REQUEST_NAMES = {
    value: name.lower()
    for name, value in vars(Code).items()
    if isinstance(value, int) and 10 <= value < 40
}


def frame_name(code):
    """'code 2 (HELLO)' for error messages."""
    name = CODE_NAMES.get(code)
    return f"code {code} ({name})" if name else f"code {code} (unknown)"


class Tag:
    """Value tags (u8) of the meta encoding."""

    NONE = 0
    FALSE = 1
    TRUE = 2
    INT = 3  # i64
    FLOAT = 4  # f64
    STR = 5  # u32 length + utf-8
    BYTES = 6  # u32 length + bytes
    DTYPE = 7  # as STR
    DEVICE = 8  # i32 device_type, i32 device_id
    SHAPE = 9  # u32 n + n * i64
    ARRAY = 10  # u32 n + n values
    MAP = 11  # u32 n + n (key, value) pairs
    HANDLE = 12  # u8 kind + u64 id (+ tensor description for TENSOR handles)
    NDARRAY = 13  # inline tensor: dtype STR, SHAPE, u64 nbytes, raw bytes (CPU, C order)
    OPAQUE_PTR = 14  # u64 address, meaningful only on the side that sent it


class HandleKind:
    """What a handle names on the serving side."""

    FUNCTION = 0
    MODULE = 1
    TENSOR = 2
    OBJECT = 3


HANDLE_KIND_NAMES = {0: "function", 1: "module", 2: "tensor", 3: "object"}

# DEVICE_API operations (first value of the request).
DEVICE_EXISTS = "exist"
DEVICE_SYNC = "sync"
