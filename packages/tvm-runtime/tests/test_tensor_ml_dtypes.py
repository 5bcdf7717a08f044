"""tvm.runtime tensors of ml_dtypes element types (bfloat16, float8/4, int4/2): round trips."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import tvm
from tvm import runtime

ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes arrays need the ml_dtypes package")

# (dtype name, DLPack type code, bits): the codes DLPack assigns these formats.
ML_DTYPES = [
    ("bfloat16", 4, 16),
    ("float8_e4m3fn", 10, 8),
    ("float8_e4m3fnuz", 11, 8),
    ("float8_e5m2", 12, 8),
    ("float8_e5m2fnuz", 13, 8),
    ("float8_e8m0fnu", 14, 8),
    ("float4_e2m1fn", 17, 4),
    ("int4", 0, 4),
    ("uint4", 1, 4),
    ("int2", 0, 2),
    ("uint2", 1, 2),
]


def _every_bit_pattern(name, bits):
    """Every value the type can hold (NaNs included) as an ml_dtypes array, one per byte or two."""
    np_dtype = np.dtype(getattr(ml_dtypes, name))
    if name.startswith("int") and bits < 8:  # ml_dtypes keeps signed sub-byte values sign-extended
        raw = np.arange(-(2 ** (bits - 1)), 2 ** (bits - 1), dtype="i1").view("u1")
    else:
        raw = np.arange(2**bits, dtype=f"u{np_dtype.itemsize}")
    return raw.view(np_dtype)


@pytest.mark.parametrize(("name", "code", "bits"), ML_DTYPES)
def test_round_trip_keeps_every_bit_pattern(name, code, bits):
    data = _every_bit_pattern(name, bits)
    t = runtime.tensor(data)
    assert str(t.dtype) == name
    assert (t.dtype.type_code, t.dtype.bits, t.dtype.lanes) == (code, bits, 1)
    back = t.numpy()
    assert back.dtype == data.dtype and back.shape == data.shape
    np.testing.assert_array_equal(
        back.view(f"u{data.dtype.itemsize}"), data.view(f"u{data.dtype.itemsize}")
    )


@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn", "int4"])
def test_strided_and_multi_dimensional_sources(name):
    base = np.arange(24, dtype="float32").reshape(4, 6) % 7
    data = base.astype(getattr(ml_dtypes, name))[:, ::2].T  # neither C- nor F-contiguous
    t = runtime.tensor(data)
    assert t.shape == (3, 4)
    np.testing.assert_array_equal(t.numpy().astype("float32"), base[:, ::2].T)


def test_dtype_argument_reads_lists_as_the_named_type():
    t = runtime.tensor([1.0, 1.00390625, 3.0], dtype="bfloat16")
    assert str(t.dtype) == "bfloat16"
    # 1 + 2**-8 is halfway between two bfloat16 values: it rounds to the even one, 1.0
    np.testing.assert_array_equal(t.numpy().astype("float32"), [1.0, 1.0, 3.0])


def test_copyfrom_copyto_and_empty():
    t = runtime.empty((2, 3), "float8_e5m2")
    data = np.array([[0.5, -2, 57344], [np.inf, -np.inf, 0]], dtype=ml_dtypes.float8_e5m2)
    t.copyfrom(data)
    out = t.copyto(tvm.cpu(0))
    np.testing.assert_array_equal(out.numpy().astype("float32"), data.astype("float32"))
    other = runtime.empty((2, 3), "float8_e5m2")
    t.copyto(other)
    np.testing.assert_array_equal(other.numpy().view("u1"), data.view("u1"))


def test_dtype_mismatch_is_a_value_error():
    t = runtime.empty((2,), "bfloat16")
    with pytest.raises(ValueError, match="dtype mismatch"):
        t.copyfrom(np.zeros(2, dtype=ml_dtypes.float8_e4m3fn))
    with pytest.raises(ValueError, match="dtype mismatch"):
        t.copyfrom(np.zeros(2, dtype="float16"))


def test_object_and_structured_data_is_a_type_error():
    with pytest.raises(TypeError, match="tvm.runtime.tensor"):
        runtime.tensor(np.array(["a", "b"], dtype=object))
    with pytest.raises(TypeError, match="tvm.runtime.tensor"):
        runtime.tensor(np.zeros(2, dtype=[("a", "i4"), ("b", "f4")]))


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_ml_dtypes_is_not_imported_for_ordinary_tensors():
    result = _run(
        "import sys, numpy as np, tvm\n"
        "t = tvm.runtime.tensor(np.arange(4, dtype='float32'))\n"
        "t.numpy(); tvm.runtime.empty((2,), 'bfloat16')\n"
        "assert 'ml_dtypes' not in sys.modules, 'ml_dtypes imported'\n"
    )
    assert result.returncode == 0, result.stderr


def test_without_ml_dtypes_numpy_conversion_says_what_is_missing():
    result = _run(
        "import sys; sys.modules['ml_dtypes'] = None\n"
        "import tvm\n"
        "t = tvm.runtime.empty((2,), 'bfloat16')\n"
        "t.copyto(tvm.runtime.empty((2,), 'bfloat16'))  # copying needs no ml_dtypes\n"
        "try:\n"
        "    t.numpy()\n"
        "except RuntimeError as err:\n"
        "    print(err)\n"
    )
    assert result.returncode == 0, result.stderr
    assert "Tensor.numpy" in result.stdout and "ml_dtypes is not installed" in result.stdout
    assert "bfloat16" in result.stdout


def test_sub_byte_elements_take_a_byte_each_with_their_bits_low():
    # documented in docs/runtime.md: not packed two to a byte (as Apache TVM does); a signed
    # value keeps its two's complement bits in the low bits of its byte
    from tvm.runtime.ml_dtypes_view import bits_view

    t = runtime.tensor(np.array([-8, 7, -1, 0], dtype=ml_dtypes.int4))
    assert (t.dtype.bits, t.dtype.itemsize) == (4, 1)
    np.testing.assert_array_equal(bits_view(t), [0x8, 0x7, 0xF, 0x0])
    t = runtime.tensor(np.array([1.0, -6.0], dtype=ml_dtypes.float4_e2m1fn))
    np.testing.assert_array_equal(bits_view(t), [0x2, 0xF])
