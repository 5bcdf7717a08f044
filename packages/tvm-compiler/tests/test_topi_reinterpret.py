# tvm.tir.reinterpret / tvm.topi.reinterpret (a bit cast) compiled by the C backend: bit for
# bit against NumPy's view, for IEEE, bfloat16, float8 and sub-byte types, and its errors.
import numpy as np
import pytest
import tvm
from tvm import te, tir, topi

ml_dtypes = pytest.importorskip("ml_dtypes", reason="bfloat16/float8/int4 data needs ml_dtypes")


def _reinterpret(x, dst):
    a = te.placeholder(x.shape, str(tvm.runtime.tensor(x).dtype), name="A")
    f = tvm.compile(te.create_prim_func([a, topi.reinterpret(a, dst)]))
    out = tvm.runtime.empty(x.shape, dst)
    f(tvm.runtime.tensor(x), out)
    return out.numpy()


SPECIALS = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan, 1e-40]


@pytest.mark.parametrize(
    "src, dst",
    [
        ("float32", "int32"),
        ("float32", "uint32"),
        ("float64", "int64"),
        ("float16", "int16"),
        ("bfloat16", "uint16"),
        ("float8_e4m3fn", "uint8"),
        ("float8_e5m2", "int8"),
    ],
)
def test_float_bits_round_trip_as_numpy_views(src, dst):
    np_src = np.dtype(getattr(ml_dtypes, src, None) or src)
    with np.errstate(over="ignore", under="ignore"):
        x = np.array(SPECIALS, "float32").astype(np_src)
    bits = _reinterpret(x, dst)
    np.testing.assert_array_equal(bits, x.view(dst))
    back = _reinterpret(bits, src)
    np.testing.assert_array_equal(back.view(dst), x.view(dst))  # NaN payloads and -0 kept


def test_integer_and_sub_byte_reinterpretations():
    x = np.array([-128, -1, 0, 1, 127], "int8")
    np.testing.assert_array_equal(_reinterpret(x, "uint8"), x.view("uint8"))
    nibbles = np.arange(-8, 8, dtype="int8").astype(ml_dtypes.int4)
    got = _reinterpret(nibbles, "uint4")  # the same 4 bits: -1 is 15
    np.testing.assert_array_equal(got.astype("int64"), np.arange(-8, 8) & 15)
    got = _reinterpret(np.arange(16, dtype="uint8").astype(ml_dtypes.uint4), "float4_e2m1fn")
    expected = np.arange(16, dtype="uint8").view(ml_dtypes.float4_e2m1fn)
    np.testing.assert_array_equal(got.astype("float32"), expected.astype("float32"))


def test_reinterpret_of_the_same_dtype_is_the_value():
    v = tir.Var("v", "float32")
    assert tir.reinterpret("float32", v).same_as(v)
    assert str(tir.reinterpret("int32", v).dtype) == "int32"


def test_a_width_mismatch_or_a_non_tensor_is_a_clear_error():
    with pytest.raises(ValueError, match=r"reinterpret: argument 'dtype' must have the 32 bits"):
        tir.reinterpret("int64", tir.Var("v", "float32"))
    with pytest.raises(TypeError, match="topi.reinterpret: argument 'x' must be a te.Tensor"):
        topi.reinterpret(np.zeros(2, "float32"), "int32")
