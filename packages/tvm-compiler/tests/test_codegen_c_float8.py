# float8_e4m3fn and float8_e5m2 in the C backend: buffers of their bits, casts to and from
# float32 against hand-checked tables (no ml_dtypes needed; the comparisons with ml_dtypes, for
# every minifloat format, are in test_codegen_c_minifloat.py).
import ctypes

import numpy as np
import pytest
import tvm
from tvm import te
from tvm.ir.dtype import DataType

FORMATS = ("float8_e4m3fn", "float8_e5m2")


def _tensor_of_bits(bits, dtype):
    t = tvm.runtime.empty(bits.shape, dtype)
    ctypes.memmove(t.data_ptr, np.ascontiguousarray(bits).ctypes.data, bits.nbytes)
    return t


def _bits(t):
    out = np.zeros(tuple(t.shape), "uint8")
    ctypes.memmove(out.ctypes.data, t.data_ptr, out.nbytes)
    return out


def _cast(src_dtype, dst_dtype, n):
    a = te.placeholder((n,), src_dtype, name="A")
    b = te.compute((n,), lambda i: a[i].astype(dst_dtype), name="B")
    return tvm.compile(te.create_prim_func([a, b]))


def _encode(dtype, values):
    values = np.asarray(values, "float32")
    out = tvm.runtime.empty(values.shape, dtype)
    _cast("float32", dtype, len(values))(values, out)
    return _bits(out)


def _decode(dtype, bits):
    bits = np.asarray(bits, "uint8")
    out = np.zeros(bits.shape, "float32")
    _cast(dtype, "float32", len(bits))(_tensor_of_bits(bits, dtype), out)
    return out


# float32 value -> float8 bits, checked by hand against each format's definition (and
# ml_dtypes 0.7): ties go to the even mantissa, e4m3fn has no inf (past 464 is NaN, 0x7f),
# e5m2 rounds past 61440 to inf (0x7c) and spells NaN 0x7e.
ENCODE_TABLE = {
    "float8_e4m3fn": [
        (0.0, 0x00),
        (-0.0, 0x80),
        (1.0, 0x38),
        (1.0625, 0x38),  # halfway between 1 and 1.125: to even (1)
        (1.1875, 0x3A),  # halfway between 1.125 and 1.25: to even (1.25)
        (-2.5, 0xC2),
        (448.0, 0x7E),  # the largest finite value
        (464.0, 0x7E),  # halfway to 480 (which would be the NaN pattern): to even
        (465.0, 0x7F),
        (1e30, 0x7F),
        (float("inf"), 0x7F),
        (float("-inf"), 0xFF),
        (float("nan"), 0x7F),
        (2.0**-9, 0x01),  # the smallest subnormal
        (2.0**-10, 0x00),  # half of it: to even (zero)
        (1.5 * 2.0**-9, 0x02),  # halfway between 1 and 2 steps: to even (2)
        (2.0**-6, 0x08),  # the smallest normal
    ],
    "float8_e5m2": [
        (0.0, 0x00),
        (-0.0, 0x80),
        (1.0, 0x3C),
        (1.125, 0x3C),  # halfway between 1 and 1.25: to even (1)
        (1.375, 0x3E),  # halfway between 1.25 and 1.5: to even (1.5)
        (448.0, 0x5F),
        (480.0, 0x60),  # halfway between 448 and 512: to even (512)
        (57344.0, 0x7B),  # the largest finite value
        (61439.0, 0x7B),
        (61440.0, 0x7C),  # halfway to 65536: to even, which is inf
        (float("inf"), 0x7C),
        (float("-inf"), 0xFC),
        (float("nan"), 0x7E),
        (2.0**-16, 0x01),  # the smallest subnormal
        (2.0**-17, 0x00),
        (1.5 * 2.0**-16, 0x02),
        (2.0**-14, 0x04),  # the smallest normal
    ],
}


@pytest.mark.parametrize("dtype", FORMATS)
def test_float32_to_float8_follows_the_table(dtype):
    values, expected = zip(*ENCODE_TABLE[dtype])
    assert [hex(b) for b in _encode(dtype, values)] == [hex(b) for b in expected]


@pytest.mark.parametrize("dtype", FORMATS)
def test_float8_to_float32_inverts_the_table(dtype):
    values, bits = zip(*ENCODE_TABLE[dtype])
    decoded = _decode(dtype, bits)
    for value, code, got in zip(values, bits, decoded):
        if np.isnan(np.float32(value)) or (dtype == "float8_e4m3fn" and code & 0x7F == 0x7F):
            assert np.isnan(got), (hex(code), got)
        else:
            # The table's inputs that are not representable decode to the value they round to.
            assert got == _decode(dtype, [code])[0]
            assert _encode(dtype, [got])[0] == code
    assert _decode(dtype, [0x38 if dtype == "float8_e4m3fn" else 0x3C])[0] == 1.0


def test_float8_dtype_names_and_bad_widths():
    for name in FORMATS:
        d = DataType(name)
        assert (str(d), d.bits, d.lanes, d.is_float, d.is_float8) == (name, 8, 1, True, True)
        assert DataType(name + "x4").with_lanes(1) == name
    with pytest.raises(ValueError, match="DataType: float8_e4m3fn has 8 bits"):
        DataType("float8_e4m3fn16")


def test_float8_buffer_rejects_an_array_of_another_dtype():
    f = _cast("float8_e5m2", "float32", 4)
    with pytest.raises(ValueError, match=r"main: argument 0 \(A\) must have dtype float8_e5m2"):
        f(np.zeros(4, "uint8"), np.zeros(4, "float32"))
