"""tvm.runtime tensors: creation, NumPy round trips, copies and bad input."""

from __future__ import annotations

import numpy as np
import pytest
import tvm
import tvm_ffi
from tvm import runtime


def test_tensor_from_numpy_copies():
    data = np.arange(12, dtype="float32").reshape(3, 4)
    t = runtime.tensor(data, tvm.cpu(0))
    assert isinstance(t, runtime.Tensor)
    assert t.shape == (3, 4) and str(t.dtype) == "float32" and t.device.device_type == 1
    data[0, 0] = 100
    np.testing.assert_array_equal(t.numpy(), np.arange(12, dtype="float32").reshape(3, 4))


def test_numpy_result_is_a_copy():
    t = runtime.tensor(np.ones(4, dtype="int32"))
    view = t.numpy()
    view[:] = 5
    np.testing.assert_array_equal(t.numpy(), np.ones(4, dtype="int32"))


def test_tensor_from_lists_and_dtype():
    t = runtime.tensor([[1, 2], [3, 4]], dtype="int64")
    assert str(t.dtype) == "int64"
    np.testing.assert_array_equal(t.numpy(), [[1, 2], [3, 4]])


def test_tensor_from_dlpack_producer_and_tensor():
    source = tvm_ffi.from_dlpack(np.linspace(0, 1, 5, dtype="float64"))
    t = runtime.tensor(source)
    np.testing.assert_allclose(t.numpy(), np.linspace(0, 1, 5))
    again = runtime.tensor(t)
    assert not again.same_as(t)
    np.testing.assert_allclose(again.numpy(), t.numpy())


def test_ffi_results_come_back_as_runtime_tensor():
    t = tvm_ffi.get_global_func("ffi.TensorEmpty")(
        tvm_ffi.Shape((2,)), tvm_ffi.dtype("float32"), tvm.cpu(0)
    )
    assert isinstance(t, runtime.Tensor)
    echoed = tvm_ffi.get_global_func("testing.echo")(runtime.empty((3,), "int8"))
    assert isinstance(echoed, runtime.Tensor)


def test_empty_and_copyfrom_copyto():
    t = runtime.empty((2, 3), "float32", tvm.cpu(0))
    assert t.shape == (2, 3) and str(t.dtype) == "float32"
    data = np.random.default_rng(0).standard_normal((2, 3)).astype("float32")
    assert t.copyfrom(data) is t
    np.testing.assert_array_equal(t.numpy(), data)
    other = t.copyto(tvm.cpu(0))
    assert isinstance(other, runtime.Tensor) and not other.same_as(t)
    np.testing.assert_array_equal(other.numpy(), data)
    target = runtime.empty((2, 3), "float32")
    assert t.copyto(target) is target
    np.testing.assert_array_equal(target.numpy(), data)
    t.copyfrom([[0, 1, 2], [3, 4, 5]])
    np.testing.assert_array_equal(t.numpy(), np.arange(6, dtype="float32").reshape(2, 3))


def test_copyfrom_strided_source():
    t = runtime.empty((3,), "float64")
    t.copyfrom(np.arange(6, dtype="float64")[::2])
    np.testing.assert_array_equal(t.numpy(), [0, 2, 4])


def test_zero_sized_tensor():
    t = runtime.tensor(np.zeros((0, 4), dtype="float32"))
    assert t.shape == (0, 4) and t.numpy().shape == (0, 4)


@pytest.mark.parametrize(
    "source, text",
    [
        (
            np.zeros((3, 2), dtype="float32"),
            r"copyfrom: shape mismatch, destination \(2, 3\) vs source \(3, 2\)",
        ),
        (
            np.zeros((2, 3), dtype="float64"),
            "copyfrom: dtype mismatch, destination float32 vs source float64",
        ),
    ],
)
def test_copyfrom_mismatch(source, text):
    t = runtime.empty((2, 3), "float32")
    with pytest.raises(ValueError, match=text):
        t.copyfrom(source)


def test_bad_arguments():
    with pytest.raises(TypeError, match="copyto: argument 'target' must be a Device or Tensor"):
        runtime.empty((1,)).copyto("cpu")
    with pytest.raises(TypeError, match="empty: argument 'shape' must be a sequence of ints"):
        runtime.empty(3)
    with pytest.raises(ValueError, match="empty: argument 'shape' must hold sizes >= 0"):
        runtime.empty((2, -1))
    with pytest.raises(TypeError, match="cannot read an array of dtype float32"):
        runtime.empty((1,)).copyfrom(object())
    with pytest.raises(ValueError, match="argument 'dtype' int32 differs from the data's float32"):
        runtime.tensor(runtime.empty((1,)), dtype="int32")


def test_zero_dimensional_data_stays_zero_dimensional():
    t = runtime.tensor(3.5)
    assert t.shape == () and t.numpy().shape == () and float(t.numpy()) == 3.5
    target = runtime.empty((), "float32")
    target.copyfrom(np.array(2.0, dtype="float32"))
    assert target.numpy().shape == () and float(target.numpy()) == 2.0


def test_data_without_a_tensor_dtype_is_a_type_error():
    for data in ("abc", None, np.array(["a"], dtype=object)):
        with pytest.raises(TypeError, match="tvm.runtime.tensor: .* has no tensor dtype"):
            runtime.tensor(data)


def test_empty_refuses_non_integer_and_overflowing_shapes():
    with pytest.raises(TypeError, match="empty: argument 'shape' must be a sequence of ints"):
        runtime.empty((2.5,))
    # 2**62 float32 elements need 2**64 bytes: wrapped to 0, the allocation would be tiny.
    with pytest.raises(ValueError, match="empty: shape .* needs 18446744073709551616 bytes"):
        runtime.empty((2**62,), "float32")
    with pytest.raises(ValueError, match="needs"):
        runtime.empty((2**31, 2**31), "float32")
    assert runtime.empty((np.int64(2), 3)).shape == (2, 3)


def test_device_without_api_is_a_clear_error():
    with pytest.raises(RuntimeError, match="no device API registered"):
        runtime.empty((2,), "float32", tvm.device(14, 0))


def test_tensor_of_a_read_only_numpy_array_copies_it():
    # The copy once asked for a writable view of its source too and refused read-only arrays.
    source = np.arange(6, dtype="float32").reshape(2, 3)
    source.flags.writeable = False
    t = tvm.runtime.tensor(source)
    np.testing.assert_array_equal(t.numpy(), source)
    t.numpy()[0, 0] = 7.0  # a copy: the read-only source is left alone
    assert source[0, 0] == 0.0
    dst = tvm.runtime.empty((2, 3), "float32")
    dst.copyfrom(source)
    np.testing.assert_array_equal(dst.numpy(), source)
