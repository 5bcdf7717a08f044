"""dtype: upstream's predicates, properties, short names and NumPy/PyTorch/ml_dtypes conversion."""

import pickle

import pytest
import tvm_ffi
from tvm_ffi import dtype


@pytest.mark.parametrize(
    "text, fields",
    [
        ("i8", (0, 8, 1)),
        ("i32", (0, 32, 1)),
        ("i64", (0, 64, 1)),
        ("u1", (1, 1, 1)),
        ("u8", (1, 8, 1)),
        ("f16", (2, 16, 1)),
        ("f32", (2, 32, 1)),
        ("bf16", (4, 16, 1)),
        ("int", (0, 32, 1)),
        ("uint", (1, 32, 1)),
        ("float", (2, 32, 1)),
        ("bfloat", (4, 16, 1)),
        ("fp8_e4m3fn", (10, 8, 1)),
        ("fp8_e5m2", (12, 8, 1)),
        ("fp8_e8m0fnu", (14, 8, 1)),
        ("fp6_e2m3fn", (15, 6, 1)),
        ("fp4_e2m1fnx2", (17, 4, 2)),
        ("i32x4", (0, 32, 4)),
        ("float32x1", (2, 32, 1)),
        ("bool", (6, 8, 1)),
        ("handle", (3, 64, 1)),
    ],
)
def test_short_names_parse_and_keep_their_text(text, fields):
    d = dtype(text)
    assert d == text  # upstream keeps the text it was given
    assert (d.type_code, d.bits, d.lanes) == fields
    canonical = dtype.from_dlpack_data_type(fields)
    assert (canonical.type_code, canonical.bits, canonical.lanes) == fields


@pytest.mark.parametrize(
    "text, is_bool, is_integer, is_float, is_handle",
    [
        ("bool", True, False, False, False),
        ("int8", False, True, False, False),
        ("uint16", False, True, False, False),
        ("float32", False, False, True, False),
        ("bfloat16", False, False, True, False),
        ("float8_e4m3fn", False, False, True, False),
        ("float4_e2m1fn", False, False, True, False),
        ("handle", False, False, False, True),
    ],
)
def test_predicates(text, is_bool, is_integer, is_float, is_handle):
    d = dtype(text)
    assert (d.is_bool, d.is_integer, d.is_float, d.is_handle) == (
        is_bool,
        is_integer,
        is_float,
        is_handle,
    )


def test_properties_and_lanes():
    f32 = dtype("float32")
    assert f32.bits == 32 and f32.lanes == 1 and f32.itemsize == 4
    v4 = f32.with_lanes(4)
    assert v4 == "float32x4" and v4.bits == 32 and v4.lanes == 4 and v4.itemsize == 16
    assert dtype("float4_e2m1fnx2").itemsize == 1 and dtype("int1").itemsize == 1
    assert dtype.from_dlpack_data_type((2, 16, 1)) == "float16"
    assert dtype.from_dlpack_data_type((0, 8, 4)) == "int8x4"
    assert dtype.is_dtype("float32") and dtype.is_dtype(dtype("int8"))
    assert not dtype.is_dtype("not_a_dtype") and not dtype.is_dtype(1)
    assert repr(pickle.loads(pickle.dumps(dtype("i32")))) == "dtype('i32')"


def test_module_constants():
    assert tvm_ffi.int32 == "int32" and isinstance(tvm_ffi.int32, dtype)
    assert tvm_ffi.float8_e4m3fn.type_code == 10 and tvm_ffi.bfloat16.bits == 16
    assert tvm_ffi.float4_e2m1fnx2.lanes == 2 and tvm_ffi.bool.is_bool


def test_short_name_passes_through_the_ffi():
    assert tvm_ffi.testing.echo(dtype("f16")) == "float16"


@pytest.mark.parametrize(
    "bad", ["e4m3", "int8x4x2", "float32x-1", "int64x0", "Int32", "fp16", "voids"]
)
def test_bad_names_are_value_errors(bad):
    with pytest.raises(ValueError):
        dtype(bad)


@pytest.mark.parametrize("bad", [None, 1, 1.5, b"float32", object()])
def test_non_str_values_are_value_errors_naming_the_value(bad):
    with pytest.raises(ValueError, match="dtype: unknown dtype"):
        dtype(bad)


@pytest.mark.parametrize(
    "arg, exc",
    [
        ((2, 16), TypeError),
        ("x", TypeError),
        ((2.0, 16, 1), TypeError),
        ((99999, 8, 1), ValueError),
        ((2, 16, 0), ValueError),
        ((0, -8, 1), ValueError),
    ],
)
def test_from_dlpack_data_type_bad_input(arg, exc):
    with pytest.raises(exc, match="dtype"):
        dtype.from_dlpack_data_type(arg)


@pytest.mark.parametrize(
    "lanes, exc",
    [(0, ValueError), (-1, ValueError), ("x", TypeError), (1.0, TypeError), (2**40, ValueError)],
)
def test_with_lanes_bad_input(lanes, exc):
    with pytest.raises(exc):
        dtype("float32").with_lanes(lanes)


def test_numpy_conversion():
    np = pytest.importorskip("numpy", reason="NumPy conversion needs numpy")
    assert dtype(np.float32) == "float32" and dtype(np.dtype("int8")) == "int8"
    assert dtype(np.bool_) == "bool" and dtype(np.dtype("complex64")) == "complex64"
    assert dtype("f32").to_numpy() == np.dtype("float32")
    assert dtype("u8").to_numpy() == np.dtype("uint8")


def test_ml_dtypes_conversion():
    np = pytest.importorskip("numpy", reason="ml_dtypes conversion needs numpy")
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="needs ml_dtypes")
    assert dtype(np.dtype(ml_dtypes.bfloat16)) == "bfloat16"
    assert dtype(ml_dtypes.float8_e4m3fn) == "float8_e4m3fn"
    assert dtype("fp8_e4m3fn").to_numpy() == np.dtype(ml_dtypes.float8_e4m3fn)


def test_torch_conversion():
    torch = pytest.importorskip("torch", reason="PyTorch conversion needs torch")
    assert dtype(torch.float32) == "float32" and dtype(torch.bfloat16) == "bfloat16"
    assert dtype(torch.bool).is_bool
    assert dtype("bf16").to_torch() is torch.bfloat16
    assert dtype("f16x4").with_lanes(1).to_torch() is torch.float16
    with pytest.raises(TypeError, match="to_torch"):
        dtype("int8x4").to_torch()


@pytest.mark.parametrize("text", ["void", ""])
def test_void_parses_to_no_bits_and_no_lanes_and_prints_empty(text):
    # Relax's unknown element type (R.Tensor(ndim=1)) reaches the VM as "void"
    d = dtype(text)
    assert d == text and (d.type_code, d.bits, d.lanes) == (3, 0, 0)
    back = tvm_ffi.get_global_func("testing.echo")(d)  # through C++ and back
    assert back == "" and (back.type_code, back.bits, back.lanes) == (3, 0, 0)
    assert dtype.from_dlpack_data_type((3, 0, 0)) == ""
