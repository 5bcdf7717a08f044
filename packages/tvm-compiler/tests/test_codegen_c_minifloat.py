# Every float8 format (float8_e8m0fnu included), float4_e2m1fn and int4/uint4/int2/uint2 in
# the C backend: compiled casts on tensors made from ml_dtypes arrays, bit for bit against them.
import numpy as np
import pytest
import tvm
from tvm import te
from tvm.ir.dtype import DataType

ml_dtypes = pytest.importorskip("ml_dtypes", reason="the reference values come from ml_dtypes")

MINIFLOATS = (
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "float4_e2m1fn",
)
SUB_BYTE_INTS = ("int4", "uint4", "int2", "uint2")


def _cast(src_dtype, dst_dtype, n):
    a = te.placeholder((n,), src_dtype, name="A")
    b = te.compute((n,), lambda i: a[i].astype(dst_dtype), name="B")
    return tvm.compile(te.create_prim_func([a, b]))


def _run_cast(values, dst_dtype):
    f = _cast(str(tvm.runtime.tensor(values).dtype), dst_dtype, len(values))
    out = tvm.runtime.empty((len(values),), dst_dtype)
    f(tvm.runtime.tensor(values), out)
    return out.numpy()


def _all_values(dtype):
    t = np.dtype(getattr(ml_dtypes, dtype))
    count = 16 if dtype.startswith("float4") else 256
    return np.arange(count, dtype="uint8").view(t)


def _same_bits(got, expected):
    np.testing.assert_array_equal(got.view("uint8"), expected.view("uint8"))


@pytest.mark.parametrize("dtype", MINIFLOATS)
def test_every_value_decodes_as_ml_dtypes(dtype):
    values = _all_values(dtype)
    np.testing.assert_array_equal(_run_cast(values, "float32"), values.astype("float32"))


@pytest.mark.parametrize("dtype", MINIFLOATS)
def test_encoding_matches_ml_dtypes(dtype):
    t = getattr(ml_dtypes, dtype)
    exact = _all_values(dtype).astype("float32")
    finite = np.unique(exact[np.isfinite(exact)])
    rng = np.random.default_rng(0)
    values = np.concatenate(
        [
            finite,
            (finite[:-1] + finite[1:]) / 2,  # every tie: to the even code
            rng.standard_normal(2000) * 10 ** rng.uniform(-8, 5.5, 2000),
            [np.inf, -np.inf, 1e30, -1e30, np.nan, -0.0],
        ]
    ).astype("float32")
    _same_bits(_run_cast(values, dtype), values.astype(t))


@pytest.mark.parametrize("dtype", MINIFLOATS)
def test_arithmetic_rounds_after_each_operation(dtype):
    t = getattr(ml_dtypes, dtype)
    n = 200
    a = te.placeholder((n,), dtype, name="A")
    b = te.placeholder((n,), dtype, name="B")
    c = te.compute((n,), lambda i: a[i] * b[i] + a[i], name="C")
    f = tvm.compile(te.create_prim_func([a, b, c]))
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(n) * 3).astype(t)
    y = (rng.standard_normal(n) * 3).astype(t)
    out = tvm.runtime.empty((n,), dtype)
    f(tvm.runtime.tensor(x), tvm.runtime.tensor(y), out)
    _same_bits(out.numpy(), (x * y + x).astype(t))


@pytest.mark.parametrize("dtype", SUB_BYTE_INTS)
def test_sub_byte_integers_convert_as_ml_dtypes(dtype):
    t = getattr(ml_dtypes, dtype)
    info = ml_dtypes.iinfo(t)
    every = np.arange(info.min, info.max + 1).astype(t)
    np.testing.assert_array_equal(_run_cast(every, "float32"), every.astype("float32"))
    wide = "int8" if dtype.startswith("int") else "uint8"
    np.testing.assert_array_equal(_run_cast(every, wide), every.astype(wide))
    in_range = np.array([info.min, -0.75, 0.0, 0.5, 1.9, info.max], dtype="float32")
    in_range = in_range[(in_range >= info.min)]
    _same_bits(_run_cast(in_range, dtype), in_range.astype(t))


@pytest.mark.parametrize(
    ("dtype", "wide"), [("int4", "int8"), ("uint4", "uint8"), ("int2", "int8")]
)
def test_sub_byte_integer_casts_wrap_to_the_width(dtype, wide):
    t = getattr(ml_dtypes, dtype)
    bits = DataType(dtype).bits
    values = np.arange(-40 if wide == "int8" else 0, 40).astype(wide)
    got = _run_cast(values, dtype)
    wrapped = values.astype("int64") & ((1 << bits) - 1)
    if dtype.startswith("int"):
        wrapped = np.where(wrapped >= 1 << (bits - 1), wrapped - (1 << bits), wrapped)
    np.testing.assert_array_equal(got.astype("int64"), wrapped)
    assert got.dtype == np.dtype(t)


def test_dtype_names_and_widths():
    for name, bits in [
        ("float8_e4m3fnuz", 8),
        ("float8_e5m2fnuz", 8),
        ("float8_e8m0fnu", 8),
        ("float4_e2m1fn", 4),
    ]:
        d = DataType(name)
        assert (str(d), d.bits, d.is_float, d.is_minifloat, d.bytes) == (name, bits, True, True, 1)
    for name, bits in [("int4", 4), ("uint4", 4), ("int2", 2), ("uint2", 2)]:
        d = DataType(name)
        assert (d.bits, d.is_integer, d.bytes) == (bits, True, 1)
    for bad in ("int3", "float4", "bfloat8", "float4_e2m1fn8"):
        with pytest.raises(ValueError, match="DataType"):
            DataType(bad)


def test_buffer_rejects_an_array_of_another_narrow_dtype():
    f = _cast("int4", "float32", 4)
    out = tvm.runtime.empty((4,), "float32")
    with pytest.raises(ValueError, match=r"argument 0 \(A\) must have dtype int4"):
        f(tvm.runtime.tensor(np.zeros(4, dtype=ml_dtypes.uint4)), out)
    with pytest.raises(ValueError, match=r"argument 0 \(A\) must have dtype int4"):
        f(tvm.runtime.tensor(np.zeros(4, dtype="int8")), out)
