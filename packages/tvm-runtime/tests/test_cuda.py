"""CUDA device memory through the driver API; runs only where a CUDA driver and GPU exist."""
from __future__ import annotations

import numpy as np
import pytest

import tvm
from tvm import runtime

pytestmark = pytest.mark.skipif(
    not runtime.device_exists(tvm.cuda(0)),
    reason="no CUDA driver (libcuda.so.1) or no CUDA GPU on this machine",
)


def test_round_trip_through_gpu():
    data = np.arange(24, dtype="float32").reshape(4, 6)
    gpu = runtime.tensor(data, tvm.cuda(0))
    assert (gpu.device.device_type, gpu.device.device_id) == (2, 0)
    assert gpu.shape == (4, 6) and str(gpu.dtype) == "float32"
    np.testing.assert_array_equal(gpu.numpy(), data)


def test_device_to_device_and_copyfrom():
    first = runtime.empty((1000,), "int32", tvm.cuda(0))
    first.copyfrom(np.arange(1000, dtype="int32"))
    second = first.copyto(tvm.cuda(0))
    assert not second.same_as(first)
    np.testing.assert_array_equal(second.numpy(), np.arange(1000, dtype="int32"))
    host = runtime.empty((1000,), "int32")
    second.copyto(host)
    np.testing.assert_array_equal(host.numpy(), np.arange(1000, dtype="int32"))


def test_many_allocations_are_freed():
    for _ in range(200):
        runtime.empty((1 << 20,), "float32", tvm.cuda(0))  # 4 MiB each, freed as they go
    runtime.get_device_api(tvm.cuda(0)).sync(tvm.cuda(0))


def test_gpu_tensor_passes_through_ffi_as_runtime_tensor():
    import tvm_ffi

    gpu = runtime.empty((3,), "float32", tvm.cuda(0))
    echoed = tvm_ffi.get_global_func("testing.echo")(gpu)
    assert isinstance(echoed, runtime.Tensor) and echoed.device.device_type == 2


def test_missing_gpu_index_is_a_clear_error():
    with pytest.raises(ValueError, match="no CUDA device 4096"):
        runtime.empty((2,), "float32", tvm.cuda(4096))
