"""The example kernels against NumPy, on CPU and example-device tensors, and their bad arguments."""

from __future__ import annotations

import numpy as np
import pytest
import tvm
import tvm_ffi
from tvm import runtime

RNG = np.random.default_rng(1)


def rand(*shape):
    return RNG.standard_normal(shape).astype("float32")


@pytest.fixture(scope="module")
def kernels():
    return {name: tvm_ffi.get_global_func(f"example.{name}") for name in ("gemm", "add", "relu")}


@pytest.mark.parametrize(
    "m, k, n", [(1, 1, 1), (3, 5, 7), (64, 128, 256), (70, 131, 300), (0, 4, 3), (4, 0, 3)]
)
def test_gemm_matches_numpy(kernels, m, k, n):
    a, b = rand(m, k), rand(k, n)
    c = np.full((m, n), np.nan, dtype="float32")
    kernels["gemm"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


def test_add_and_relu_match_numpy(kernels):
    a, b = rand(4, 5, 6), rand(4, 5, 6)
    c = np.empty_like(a)
    kernels["add"](a, b, c)
    np.testing.assert_array_equal(c, a + b)
    y = np.empty_like(a)
    kernels["relu"](a, y)
    np.testing.assert_array_equal(y, np.maximum(a, 0))
    assert (y == 0).any() and (y > 0).any()


def test_kernels_on_example_device_tensors(kernels):
    dev = tvm.device("example")
    a_np, b_np = rand(33, 17), rand(17, 9)
    a, b = runtime.tensor(a_np, dev), runtime.tensor(b_np, dev)
    c = runtime.empty((33, 9), "float32", dev)
    assert (a.device.device_type, c.device.device_type) == (12, 12)
    kernels["gemm"](a, b, c)
    np.testing.assert_allclose(c.numpy(), a_np @ b_np, rtol=1e-4, atol=1e-4)
    host = c.copyto(tvm.cpu(0))
    assert host.device.device_type == 1
    np.testing.assert_array_equal(host.numpy(), c.numpy())


@pytest.mark.parametrize(
    "args, text",
    [
        (
            (rand(2, 3).astype("float64"), rand(3, 4), np.empty((2, 4), "float32")),
            "example.gemm: argument 'a' must have dtype float32, got float64",
        ),
        (
            (rand(2, 3), rand(4, 4), np.empty((2, 4), "float32")),
            r"example.gemm: argument 'b' must have 3 rows to match 'a' \(2, 3\), got shape "
            r"\(4, 4\)",
        ),
        (
            (rand(2, 3), rand(3, 4), np.empty((4, 2), "float32")),
            r"example.gemm: argument 'c' must have shape \(2, 4\), got \(4, 2\)",
        ),
        (
            (rand(6), rand(3, 4), np.empty((2, 4), "float32")),
            r"example.gemm: argument 'a' must be 2-dimensional, got shape \(6,\)",
        ),
        (
            (rand(2, 6)[:, ::2], rand(3, 4), np.empty((2, 4), "float32")),
            "example.gemm: argument 'a' must be C-contiguous",
        ),
    ],
)
def test_gemm_bad_arguments(kernels, args, text):
    with pytest.raises(ValueError, match=text):
        kernels["gemm"](*args)


def test_output_may_not_alias_input(kernels):
    a = rand(3, 3)
    with pytest.raises(
        ValueError, match="example.gemm: argument 'c' must not share memory with 'a'"
    ):
        kernels["gemm"](a, rand(3, 3), a)


def test_add_bad_arguments(kernels):
    with pytest.raises(
        ValueError,
        match=r"example.add: argument 'b' must have the shape of 'a' \(2, 3\), got \(3, 2\)",
    ):
        kernels["add"](rand(2, 3), rand(3, 2), np.empty((2, 3), "float32"))
    with pytest.raises(
        ValueError, match="example.relu: argument 'y' must have dtype float32, got int32"
    ):
        kernels["relu"](rand(2), np.empty(2, "int32"))


def test_wrong_device_is_rejected(kernels):
    host = rand(2, 2)
    # A tensor claiming to live on a CUDA GPU; the kernel must refuse it before touching memory.
    fake = runtime.tensor_from_pointer(
        host.ctypes.data, (2, 2), "float32", tvm.cuda(0), keepalive=host
    )
    with pytest.raises(
        ValueError, match="example.gemm: argument 'b' must live on the cpu or example device"
    ):
        kernels["gemm"](rand(2, 2), fake, np.empty((2, 2), "float32"))
