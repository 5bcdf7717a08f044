"""The meta encoding: every value kind round-trips; malformed input is a ProtocolError."""

import struct

import numpy as np
import pytest
import tvm_ffi
from tvm.rpc.codec import MAX_NESTING, Handle, ProtocolError, decode_all, encode_all
from tvm.rpc.protocol import HandleKind, Tag


def roundtrip(*values):
    return decode_all(bytes(encode_all(values)))


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        False,
        0,
        -1,
        2**63 - 1,
        -(2**63),
        1.5,
        float("inf"),
        "",
        "héllo ✓",
        b"",
        b"\x00\xff",
        [],
        [1, "a", None, [2.5, [b"x"]]],
        {},
        {"a": 1, 2: [3], None: {"b": False}},
    ],
)
def test_plain_values_roundtrip(value):
    assert roundtrip(value) == [value]


def test_tuple_arrives_as_list():
    assert roundtrip((1, (2, 3))) == [[1, [2, 3]]]


def test_ffi_values_roundtrip():
    (dtype,) = roundtrip(tvm_ffi.dtype("float32"))
    assert isinstance(dtype, tvm_ffi.dtype) and str(dtype) == "float32"
    (dev,) = roundtrip(tvm_ffi.device("cpu", 3))
    assert (int(dev.device_type), int(dev.device_id)) == (1, 3)
    (shape,) = roundtrip(tvm_ffi.Shape((2, 3, 0)))
    assert tuple(shape) == (2, 3, 0)


def test_handles_roundtrip_with_tensor_description():
    func, tensor = roundtrip(
        Handle(HandleKind.FUNCTION, 7), Handle(HandleKind.TENSOR, 9, (2, 3), "int8", (1, 0))
    )
    assert (func.kind, func.id) == (HandleKind.FUNCTION, 7)
    assert (tensor.kind, tensor.id, tensor.shape, tensor.dtype, tensor.device) == (
        HandleKind.TENSOR,
        9,
        (2, 3),
        "int8",
        (1, 0),
    )


@pytest.mark.parametrize(
    "array",
    [
        np.arange(12, dtype="float32").reshape(3, 4),
        np.array(True),
        np.zeros((0, 5), "int16"),
        np.arange(10, dtype="uint8")[::2],
        np.array([1 + 2j], "complex64"),
    ],
)
def test_numpy_arrays_travel_inline(array):
    (got,) = roundtrip(array)
    assert got.dtype == array.dtype and got.shape == array.shape
    np.testing.assert_array_equal(got, array)


def test_numpy_scalars_travel_as_python_scalars():
    assert roundtrip(np.int32(5), np.float64(0.5), np.bool_(True)) == [5, 0.5, True]


def test_int_out_of_range_is_overflow_error():
    with pytest.raises(OverflowError, match="int64"):
        encode_all([2**63])


def test_unsupported_value_is_type_error_naming_the_type():
    with pytest.raises(TypeError, match="object"):
        encode_all([object()])


def test_too_deep_value_is_refused():
    value = []
    for _ in range(MAX_NESTING + 1):
        value = [value]
    with pytest.raises(ValueError, match="nested deeper"):
        encode_all([value])


def _inline_array(dtype: str, shape, nbytes: int) -> bytes:
    """An inline NDARRAY value as the wire spells it, with zero bytes of data."""
    name = dtype.encode()
    return b"".join(
        [bytes([Tag.NDARRAY, Tag.STR]), struct.pack("<I", len(name)), name, bytes([Tag.SHAPE])]
        + [struct.pack("<I", len(shape))]
        + [struct.pack("<q", d) for d in shape]
        + [struct.pack("<Q", nbytes), bytes(nbytes)]
    )


@pytest.mark.parametrize(
    "meta, reason",
    [
        (bytes([250]), "unknown value tag"),
        (bytes([Tag.INT, 1, 2]), "truncated"),
        (bytes([Tag.STR]) + struct.pack("<I", 100) + b"abc", "truncated"),
        (bytes([Tag.STR]) + struct.pack("<I", 2) + b"\xff\xfe", "utf-8"),
        (bytes([Tag.ARRAY]) + struct.pack("<I", 1_000_000), "truncated"),
        (bytes([Tag.ARRAY, 1, 0, 0, 0]) * (MAX_NESTING + 2), "nested deeper"),
        (bytes([Tag.HANDLE, 9]) + struct.pack("<Q", 1), "handle kind"),
        (
            bytes([Tag.MAP])
            + struct.pack("<I", 1)
            + bytes([Tag.ARRAY])
            + struct.pack("<I", 0)
            + bytes([Tag.NONE]),
            "unhashable",
        ),
        # Values a hostile peer can spell that the dtype, Device and numpy builders refuse.
        (bytes([Tag.DTYPE]) + struct.pack("<I", 3) + b"zzz", "malformed dtype 'zzz'"),
        (bytes([Tag.DEVICE]) + struct.pack("<ii", -5, 0), r"malformed device \(-5, 0\)"),
        (bytes([Tag.DEVICE]) + struct.pack("<ii", 1, -1), "malformed device"),
        (_inline_array("O", [1], 8), "cannot travel as bytes"),
        (_inline_array("i4,O", [1], 12), "cannot travel as bytes"),
        (_inline_array("U0", [1 << 40], 0), "cannot travel as bytes"),
        (_inline_array("M8[zz]", [1], 8), "unknown array dtype"),
    ],
)
def test_malformed_meta_is_protocol_error(meta, reason):
    with pytest.raises(ProtocolError, match=reason):
        decode_all(meta)


def test_inline_array_with_inconsistent_size_is_protocol_error():
    meta = bytearray(encode_all([np.arange(4, dtype="int32")]))
    meta[-16 - 8 : -16] = struct.pack("<Q", 12)  # claim 12 bytes for 4 int32 values
    with pytest.raises(ProtocolError, match="does not hold 12 bytes"):
        decode_all(bytes(meta[:-4]))


def test_decoded_values_are_bounded_by_the_wire_size():
    # 4 MiB of NONE tags would be 4 Mi list slots (32 MiB) and more once a call copies them.
    meta = bytes([Tag.ARRAY]) + (4 << 20).to_bytes(4, "little") + bytes([Tag.NONE]) * (4 << 20)
    with pytest.raises(ProtocolError, match="decodes into more than"):
        decode_all(meta)
    small = [None] * 60000 + [True] * 5000  # under the fixed allowance: fine
    assert decode_all(encode_all([small])) == [small]
    ints = list(range(300000))  # 9 wire bytes each: within one value per 8 bytes
    assert decode_all(encode_all([ints])) == [ints]


def test_a_large_announced_frame_costs_memory_only_as_it_arrives():
    import socket
    import tracemalloc

    from tvm.rpc.channel import ChannelClosed, SocketChannel
    from tvm.rpc.protocol import FRAME_HEADER, Code

    a, b = socket.socketpair()
    with a, b:
        a.sendall(FRAME_HEADER.pack(200 << 20, Code.CALL, (200 << 20) - 8) + b"x" * 100000)
        a.shutdown(socket.SHUT_WR)
        channel = SocketChannel(b)
        tracemalloc.start()
        try:
            with pytest.raises(ChannelClosed, match="connection closed inside a frame"):
                channel.recv_frame()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < 8 << 20, f"{peak} bytes allocated for 100 KB received"
