"""CUDA device memory through the driver API; runs only where a CUDA driver and GPU exist."""

from __future__ import annotations

import ctypes
import threading

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


def _free_gpu_bytes() -> int:
    runtime.get_device_api(tvm.cuda(0)).sync(tvm.cuda(0))  # makes device 0's context current here
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    assert ctypes.CDLL("libcuda.so.1").cuMemGetInfo_v2(ctypes.byref(free), ctypes.byref(total)) == 0
    return free.value


def test_a_tensor_dropped_on_another_thread_returns_its_memory():
    # The dropping thread never made a CUDA context current: the free must still happen.
    nbytes = 1 << 28
    before = _free_gpu_bytes()
    holder = [runtime.empty((nbytes // 4,), "float32", tvm.cuda(0))]
    during = _free_gpu_bytes()
    assert before - during >= nbytes
    dropper = threading.Thread(target=holder.clear)
    dropper.start()
    dropper.join(timeout=60)
    assert not holder
    assert _free_gpu_bytes() - during >= nbytes


def _torch_with_gpu():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed on this machine")
    if not torch.cuda.is_available():
        pytest.skip("this PyTorch has no CUDA support or sees no GPU")
    return torch


def test_torch_gpu_tensor_copies_into_a_runtime_gpu_tensor():
    torch = _torch_with_gpu()
    src = torch.arange(12, dtype=torch.float32, device="cuda:0").reshape(3, 4)
    gpu = runtime.tensor(src, tvm.cuda(0))
    assert (gpu.device.device_type, gpu.device.device_id) == (2, 0)
    assert runtime.data_pointer(gpu) != src.data_ptr()
    np.testing.assert_array_equal(gpu.numpy(), src.cpu().numpy())


def test_torch_shares_a_runtime_gpu_tensor_in_place():
    torch = _torch_with_gpu()
    gpu = runtime.tensor(np.arange(6, dtype="float32"), tvm.cuda(0))
    view = torch.from_dlpack(gpu)
    assert view.device == torch.device("cuda", 0) and view.data_ptr() == runtime.data_pointer(gpu)
    assert view.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    view.mul_(2)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(gpu.numpy(), np.arange(6, dtype="float32") * 2)


def test_torch_gpu_tensor_crosses_an_ffi_call_without_a_copy():
    import tvm_ffi

    torch = _torch_with_gpu()
    t = torch.zeros(4, device="cuda:0")
    back = tvm_ffi.get_global_func("testing.echo")(t)
    assert isinstance(back, runtime.Tensor) and (
        back.device.device_type,
        back.device.device_id,
    ) == (2, 0)
    assert runtime.data_pointer(back) == t.data_ptr()
