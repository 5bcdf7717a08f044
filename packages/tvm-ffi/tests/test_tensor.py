"""Tensors and DLPack: zero copy with NumPy both ways, metadata, dtype parsing, lazy imports."""

import subprocess
import sys

import numpy as np
import pytest
import tvm_ffi
from tvm_ffi import testing


def test_from_numpy_metadata():
    x = np.zeros((2, 3, 4), dtype="float32")
    t = tvm_ffi.from_dlpack(x)
    assert isinstance(t, tvm_ffi.Tensor)
    assert t.shape == (2, 3, 4)
    assert t.ndim == 3
    assert t.strides == (12, 4, 1)
    assert t.dtype == "float32"
    assert isinstance(t.dtype, tvm_ffi.dtype)
    assert t.device == tvm_ffi.device("cpu", 0)
    assert t.__dlpack_device__() == (1, 0)
    assert t.data_ptr == x.ctypes.data


def test_zero_copy_both_ways():
    x = np.arange(6, dtype="int64").reshape(2, 3)
    t = tvm_ffi.from_dlpack(x)
    y = np.from_dlpack(t)
    assert y.ctypes.data == x.ctypes.data
    y[0, 1] = 100  # write through the consumer, read on the producer
    assert x[0, 1] == 100
    x[1, 2] = -7  # and the other way round
    assert y[1, 2] == -7
    np.testing.assert_array_equal(y, x)


def test_transposed_strides_preserved():
    x = np.arange(12, dtype="float64").reshape(3, 4)
    t = tvm_ffi.from_dlpack(x.T)
    assert t.shape == (4, 3)
    assert t.strides == (1, 4)
    back = np.from_dlpack(t)
    np.testing.assert_array_equal(back, x.T)
    assert back.strides == x.T.strides


def test_sliced_view_keeps_offset_and_strides():
    x = np.arange(20, dtype="int32").reshape(4, 5)
    view = x[1:, ::2]
    back = np.from_dlpack(tvm_ffi.from_dlpack(view))
    np.testing.assert_array_equal(back, view)


def test_numpy_array_passed_to_function_becomes_tensor():
    x = np.ones((5,), dtype="uint8")
    t = testing.echo(x)
    assert isinstance(t, tvm_ffi.Tensor)
    assert t.shape == (5,)
    assert t.dtype == "uint8"
    np.from_dlpack(t)[2] = 9
    assert x[2] == 9


def test_tensor_outlives_the_numpy_array():
    x = np.arange(4, dtype="float32")
    t = tvm_ffi.from_dlpack(x)
    del x
    np.testing.assert_array_equal(np.from_dlpack(t), [0, 1, 2, 3])


def test_tensor_from_tensor_is_zero_copy():
    x = np.arange(3, dtype="float32")
    t1 = tvm_ffi.from_dlpack(x)
    t2 = tvm_ffi.from_dlpack(t1)
    assert t2.data_ptr == t1.data_ptr
    assert t2.shape == (3,)


def test_read_only_tensor_refuses_a_legacy_export():
    # A legacy capsule cannot carry the read-only flag, so a consumer could write through it.
    x = np.zeros(3)
    x.flags.writeable = False
    t = tvm_ffi.from_dlpack(x)
    with pytest.raises(BufferError, match="read-only.*legacy"):
        t.__dlpack__()
    with pytest.raises(BufferError, match="read-only.*legacy"):
        t.__dlpack__(max_version=(0, 8))
    assert not np.from_dlpack(t).flags.writeable  # the versioned export still works


def test_dlpack_export_refuses_another_device():
    t = tvm_ffi.from_dlpack(np.zeros(3))
    with pytest.raises(BufferError, match=r"dl_device.*\(2, 0\).*\(1, 0\)"):
        t.__dlpack__(dl_device=(2, 0))
    with pytest.raises(TypeError, match="dl_device"):
        t.__dlpack__(dl_device="cpu")
    assert "dltensor_versioned" in repr(t.__dlpack__(dl_device=(1, 0), max_version=(1, 0)))


def test_read_only_flag_respected():
    x = np.arange(3, dtype="float32")
    x.flags.writeable = False
    back = np.from_dlpack(tvm_ffi.from_dlpack(x))
    assert not back.flags.writeable


def test_tensor_empty():
    empty = tvm_ffi.get_global_func("ffi.TensorEmpty")
    t = empty((4, 8), "float32", tvm_ffi.device("cpu"))
    assert t.shape == (4, 8)
    assert t.dtype == "float32"
    assert t.data_ptr % 64 == 0
    arr = np.from_dlpack(t)
    arr[:] = 3.0
    assert float(np.from_dlpack(t).sum()) == 96.0


@pytest.mark.parametrize("value", [3, "not a tensor", [1, 2], object()], ids=repr)
def test_from_dlpack_of_non_dlpack_object(value):
    with pytest.raises(TypeError, match="from_dlpack"):
        tvm_ffi.from_dlpack(value)


@pytest.mark.parametrize(
    "name, code, bits, lanes",
    [
        # The common names (matched whole, before the prefix scan) and their neighbours.
        ("bool", 6, 8, 1),
        ("int8", 0, 8, 1),
        ("int32", 0, 32, 1),
        ("int64", 0, 64, 1),
        ("uint8", 1, 8, 1),
        ("uint16", 1, 16, 1),
        ("float16", 2, 16, 1),
        ("float32", 2, 32, 1),
        ("float64", 2, 64, 1),
        ("float32x4", 2, 32, 4),
        ("bfloat16", 4, 16, 1),
        ("float8_e4m3fn", 10, 8, 1),
        ("float8_e5m2", 12, 8, 1),
        ("float8_e4m3fnuz", 11, 8, 1),
        ("float8_e5m2fnuz", 13, 8, 1),
        ("int8x4", 0, 8, 4),
        ("float16x2", 2, 16, 2),
    ],
)
def test_dtype_parse(name, code, bits, lanes):
    dt = tvm_ffi.dtype(name)
    assert isinstance(dt, str)
    assert str(dt) == name
    assert (dt.type_code, dt.bits, dt.lanes) == (code, bits, lanes)
    assert testing.echo(dt) == name


# "int" and "intx4" are int32 and int32x4, as upstream (tests/test_dtype_api.py).
@pytest.mark.parametrize("bad", ["floaty", "voidx2", "float32x", "int8x0", "intxx4"])
def test_bad_dtype_string(bad):
    with pytest.raises(ValueError):
        tvm_ffi.dtype(bad)


def test_dtype_to_numpy():
    assert tvm_ffi.dtype("float32").to_numpy() == np.float32
    assert tvm_ffi.dtype("bool").to_numpy() == np.bool_
    try:
        import ml_dtypes
    except ImportError:  # NumPy alone has no float8: the error names the dtype
        with pytest.raises(TypeError, match="float8_e5m2"):
            tvm_ffi.dtype("float8_e5m2").to_numpy()
    else:  # ml_dtypes supplies it
        assert tvm_ffi.dtype("float8_e5m2").to_numpy() == ml_dtypes.float8_e5m2


@pytest.mark.parametrize("np_dtype", ["bool", "int8", "int32", "uint64", "float16", "float64"])
def test_tensor_dtype_matches_numpy(np_dtype):
    t = tvm_ffi.from_dlpack(np.zeros(2, dtype=np_dtype))
    assert t.dtype == np_dtype


def test_device_constructors():
    d = tvm_ffi.device("cuda:1")
    assert (d.device_type, d.device_id) == (2, 1)
    assert tvm_ffi.device("cuda", 1) == d
    assert tvm_ffi.device("cpu").device_id == 0
    with pytest.raises(ValueError, match="unknown device type"):
        tvm_ffi.device("toaster")
    with pytest.raises(TypeError):
        tvm_ffi.device(1.5)


def test_import_does_not_import_numpy_or_torch():
    code = (
        "import sys, tvm_ffi\n"
        "from tvm_ffi import testing\n"
        "testing.echo([1, {'a': 2}])\n"
        "bad = [m for m in ('numpy', 'torch') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
