"""The `example` device's memory API for tvm.runtime, backed by the library's globals."""

from __future__ import annotations

import tvm_ffi
from tvm import runtime


class ExampleDeviceAPI(runtime.DeviceAPI):
    """One device (id 0) whose memory is host memory; kernels run synchronously."""

    def exists(self, device_id: int) -> bool:
        return device_id == 0

    def empty(self, shape, dtype, device):
        empty = tvm_ffi.get_global_func("example.empty")
        return empty(tvm_ffi.Shape(shape), tvm_ffi.dtype(dtype), int(device.device_id))

    def copy(self, dst, src) -> None:
        tvm_ffi.get_global_func("example.copy")(dst, src)

    def sync(self, device) -> None:
        return None
