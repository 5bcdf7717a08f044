"""Encode and decode values of the RPC meta section (see protocol.Tag)."""

import struct
import sys

from .protocol import HandleKind, Tag

_U8 = struct.Struct("<B")
_U32 = struct.Struct("<I")
_I64 = struct.Struct("<q")
_U64 = struct.Struct("<Q")
_F64 = struct.Struct("<d")
_DEVICE = struct.Struct("<ii")
_HANDLE = struct.Struct("<BQ")
_TAGGED_I64 = struct.Struct("<Bq")
_TAGGED_F64 = struct.Struct("<Bd")

# Deeper nesting than this in a received frame is treated as malformed, not recursed into.
MAX_NESTING = 64
# A frame decodes into at most this many values plus one per DECODE_BYTES_PER_VALUE bytes
# of its meta: a NONE is one byte on the wire but a pointer (8 bytes) or more in memory, so
# without the bound a frame of NONEs would cost dozens of times its size once decoded.
DECODE_BASE_VALUES = 1 << 16
DECODE_BYTES_PER_VALUE = 8


class ProtocolError(Exception):
    """A frame that does not follow the protocol; the connection carrying it is closed."""


class Handle:
    """A reference to an object living on the serving side of a session.

    Tensor handles also carry the tensor's shape, dtype and device so the client can
    describe the tensor without a round trip.
    """

    __slots__ = ("kind", "id", "shape", "dtype", "device")

    def __init__(self, kind, id, shape=None, dtype=None, device=None):
        self.kind = kind
        self.id = id
        self.shape = shape
        self.dtype = dtype
        self.device = device

    def __repr__(self):
        return f"Handle(kind={self.kind}, id={self.id})"


def ffi_module():
    """tvm_ffi if it has been imported by anyone, else None (never imports it here)."""
    return sys.modules.get("tvm_ffi")


def _no_export(value):
    raise TypeError(
        f"tvm.rpc: cannot send a value of type {type(value).__name__} to the remote side; "
        "expected None, bool, int, float, str, bytes, dtype, Device, Shape, list, tuple, "
        "dict, a NumPy array or a remote object of the same session"
    )


def encode(value, out, export=_no_export, depth=0):
    """Append the encoding of ``value`` to bytearray ``out``.

    ``export`` turns a value the codec does not know (a function, module, tensor or object
    of the serving side, or a remote proxy on the client side) into a Handle.
    """
    t = type(value)
    if value is None:
        out.append(Tag.NONE)
    elif t is bool:
        out.append(Tag.TRUE if value else Tag.FALSE)
    elif t is int:
        _encode_int(value, out)
    elif t is float:
        out += _TAGGED_F64.pack(Tag.FLOAT, value)
    elif t is str:
        _encode_str(Tag.STR, value, out)
    elif t is Handle:
        _encode_handle(value, out)
    elif t is list or t is tuple:
        _encode_array(value, out, export, depth)
    elif t is dict:
        _encode_map(value.items(), len(value), out, export, depth)
    elif t is bytes or t is bytearray:
        out.append(Tag.BYTES)
        out += _U32.pack(len(value))
        out += value
    else:
        _encode_other(value, out, export, depth)


def _encode_int(value, out):
    try:
        out += _TAGGED_I64.pack(Tag.INT, value)
    except struct.error:
        raise OverflowError(f"tvm.rpc: int {value} does not fit in int64") from None


def _encode_str(tag, value, out):
    data = value.encode("utf-8")
    out.append(tag)
    out += _U32.pack(len(data))
    out += data


def _encode_handle(handle, out):
    out.append(Tag.HANDLE)
    out += _HANDLE.pack(handle.kind, handle.id)
    if handle.kind == HandleKind.TENSOR:
        _encode_str(Tag.STR, str(handle.dtype), out)
        _encode_shape(handle.shape, out)
        out += _DEVICE.pack(*handle.device)


def _encode_shape(shape, out):
    out.append(Tag.SHAPE)
    out += _U32.pack(len(shape))
    out += struct.pack(f"<{len(shape)}q", *shape)


def _encode_array(items, out, export, depth):
    if depth >= MAX_NESTING:
        raise ValueError(f"tvm.rpc: value nested deeper than {MAX_NESTING} levels")
    out.append(Tag.ARRAY)
    out += _U32.pack(len(items))
    for item in items:
        encode(item, out, export, depth + 1)


def _encode_map(items, count, out, export, depth):
    if depth >= MAX_NESTING:
        raise ValueError(f"tvm.rpc: value nested deeper than {MAX_NESTING} levels")
    out.append(Tag.MAP)
    out += _U32.pack(count)
    for key, item in items:
        encode(key, out, export, depth + 1)
        encode(item, out, export, depth + 1)


def _encode_other(value, out, export, depth):
    ffi = ffi_module()
    if ffi is not None:
        if isinstance(value, ffi.dtype):
            _encode_str(Tag.DTYPE, str(value), out)
            return
        if isinstance(value, ffi.Device):
            out.append(Tag.DEVICE)
            out += _DEVICE.pack(int(value.device_type), int(value.device_id))
            return
        if isinstance(value, ffi.Shape):
            _encode_shape(tuple(value), out)
            return
        if isinstance(value, ffi.Array):
            _encode_array(list(value), out, export, depth)
            return
        if isinstance(value, ffi.Map):
            _encode_map(list(value.items()), len(value), out, export, depth)
            return
    if isinstance(value, bool):
        out.append(Tag.TRUE if value else Tag.FALSE)
    elif isinstance(value, int):
        _encode_int(int(value), out)
    elif isinstance(value, float):
        out += _TAGGED_F64.pack(Tag.FLOAT, float(value))
    elif isinstance(value, str):
        _encode_str(Tag.STR, str(value), out)
    elif isinstance(value, (list, tuple)):
        _encode_array(value, out, export, depth)
    elif isinstance(value, dict):
        _encode_map(value.items(), len(value), out, export, depth)
    elif _is_numpy(value):
        _encode_numpy(value, out)
    else:
        encode(export(value), out, export, depth)


def _is_numpy(value):
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, (np.ndarray, np.generic))


def _encode_numpy(value, out):
    import numpy as np

    if isinstance(value, np.generic):  # a NumPy scalar travels as the Python scalar
        encode(value.item(), out)
        return
    array = value if value.flags.c_contiguous else np.ascontiguousarray(value)
    out.append(Tag.NDARRAY)
    _encode_str(Tag.STR, array.dtype.name, out)
    _encode_shape(array.shape, out)
    out += _U64.pack(array.nbytes)
    out += memoryview(array).cast("B") if array.nbytes else b""


class Decoder:
    """Reads values from one meta section; ``resolve`` turns a Handle into a local value."""

    __slots__ = ("buf", "pos", "resolve", "budget")

    def __init__(self, buf, resolve=None):
        self.buf = buf
        self.pos = 0
        self.resolve = resolve
        self.budget = DECODE_BASE_VALUES + len(buf) // DECODE_BYTES_PER_VALUE

    def _over_budget(self):
        limit = DECODE_BASE_VALUES + len(self.buf) // DECODE_BYTES_PER_VALUE
        raise ProtocolError(
            f"a {len(self.buf)}-byte meta section decodes into more than "
            f"{limit} values ({DECODE_BASE_VALUES} plus one per "
            f"{DECODE_BYTES_PER_VALUE} bytes); send large collections of "
            "small values as a NumPy array"
        )

    def _take(self, n):
        start = self.pos
        end = start + n
        if end > len(self.buf):
            raise ProtocolError(
                f"value truncated: needs {n} bytes at offset {start}, meta has {len(self.buf)}"
            )
        self.pos = end
        return start

    def _unpack(self, st):
        return st.unpack_from(self.buf, self._take(st.size))

    def value(self, depth=0):
        self.budget -= 1
        if self.budget < 0:
            self._over_budget()
        tag = self.buf[self._take(1)]
        if tag == Tag.NONE:
            return None
        if tag == Tag.INT:
            return self._unpack(_I64)[0]
        if tag == Tag.FLOAT:
            return self._unpack(_F64)[0]
        if tag == Tag.STR:
            return self._str()
        if tag == Tag.FALSE or tag == Tag.TRUE:
            return tag == Tag.TRUE
        if tag == Tag.HANDLE:
            handle = self._handle()
            return self.resolve(handle) if self.resolve else handle
        if tag == Tag.ARRAY or tag == Tag.MAP:
            if depth >= MAX_NESTING:
                raise ProtocolError(f"values nested deeper than {MAX_NESTING} levels")
            (count,) = self._unpack(_U32)
            if tag == Tag.ARRAY:
                return [self.value(depth + 1) for _ in range(count)]
            result = {}
            for _ in range(count):
                key = self.value(depth + 1)
                try:
                    result[key] = self.value(depth + 1)
                except TypeError:
                    raise ProtocolError(
                        f"unhashable map key of type {type(key).__name__}"
                    ) from None
            return result
        if tag == Tag.BYTES:
            (n,) = self._unpack(_U32)
            start = self._take(n)
            return bytes(self.buf[start : start + n])
        if tag == Tag.DTYPE:
            name = self._str()
            try:
                return make_dtype(name)
            except (TypeError, ValueError) as err:
                raise ProtocolError(f"malformed dtype {name!r}: {err}") from None
        if tag == Tag.DEVICE:
            device = self._unpack(_DEVICE)
            try:
                return make_device(*device)
            except (TypeError, ValueError) as err:
                raise ProtocolError(f"malformed device {device}: {err}") from None
        if tag == Tag.SHAPE:
            return make_shape(self._shape())
        if tag == Tag.NDARRAY:
            return self._ndarray()
        if tag == Tag.OPAQUE_PTR:
            return self._unpack(_U64)[0]
        raise ProtocolError(f"unknown value tag {tag} at offset {self.pos - 1}")

    def _str(self):
        (n,) = self._unpack(_U32)
        start = self._take(n)
        try:
            return str(self.buf[start : start + n], "utf-8")
        except UnicodeDecodeError as err:
            raise ProtocolError(f"string is not valid utf-8: {err}") from None

    def _expect(self, tag, what):
        got = self.buf[self._take(1)]
        if got != tag:
            raise ProtocolError(f"expected {what} (tag {tag}), got tag {got}")

    def _shape(self):
        (n,) = self._unpack(_U32)
        start = self._take(8 * n)
        return struct.unpack_from(f"<{n}q", self.buf, start)

    def _handle(self):
        kind, hid = self._unpack(_HANDLE)
        if kind > HandleKind.OBJECT:
            raise ProtocolError(f"unknown handle kind {kind}")
        if kind != HandleKind.TENSOR:
            return Handle(kind, hid)
        self._expect(Tag.STR, "tensor dtype")
        dtype = self._str()
        self._expect(Tag.SHAPE, "tensor shape")
        shape = self._shape()
        device = self._unpack(_DEVICE)
        return Handle(kind, hid, shape, dtype, device)

    def _ndarray(self):
        import numpy as np

        self._expect(Tag.STR, "array dtype")
        dtype = self._str()
        self._expect(Tag.SHAPE, "array shape")
        shape = self._shape()
        (nbytes,) = self._unpack(_U64)
        start = self._take(nbytes)
        try:
            np_dtype = np.dtype(dtype)
        except (TypeError, ValueError):
            raise ProtocolError(f"unknown array dtype {dtype!r}") from None
        if np_dtype.hasobject or not np_dtype.itemsize:
            # numpy cannot view raw bytes as these (objects are pointers, not data)
            raise ProtocolError(f"array dtype {dtype!r} cannot travel as bytes")
        count = 1
        for dim in shape:
            count *= dim
        if count * np_dtype.itemsize != nbytes or min(shape, default=0) < 0:
            raise ProtocolError(
                f"array of shape {shape} and dtype {dtype} does not hold {nbytes} bytes"
            )
        data = bytearray(self.buf[start : start + nbytes])
        return np.frombuffer(data, dtype=np_dtype).reshape(shape)


def decode_all(buf, resolve=None):
    """Decode every value of a meta section into a list."""
    if len(buf) == _TAGGED_I64.size and buf[0] == Tag.INT:
        return [_I64.unpack_from(buf, 1)[0]]  # a lone int: a call without arguments
    decoder = Decoder(buf, resolve)
    values = []
    while decoder.pos < len(buf):
        values.append(decoder.value())
    return values


_NONE_META = bytes([Tag.NONE])


def decode_one(buf, resolve=None):
    """Decode a meta section holding exactly one value (a reply's)."""
    if buf == _NONE_META:
        return None
    values = decode_all(buf, resolve)
    if len(values) != 1:
        raise ProtocolError(f"expected one value, got {len(values)}")
    return values[0]


def encode_all(values, export=_no_export):
    out = bytearray()
    for value in values:
        encode(value, out, export)
    return out


def make_dtype(name):
    ffi = ffi_module()
    return ffi.dtype(name) if ffi is not None else name


def make_device(device_type, device_id):
    ffi = ffi_module()
    if ffi is not None:
        return ffi.Device(device_type, device_id)
    return (device_type, device_id)


def make_shape(dims):
    ffi = ffi_module()
    return ffi.Shape(dims) if ffi is not None else tuple(dims)
