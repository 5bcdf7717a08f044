"""Device-API registry: how each device type allocates, copies and synchronises tensor memory."""

from __future__ import annotations

import tvm_ffi

from .device import Device, register_device_name
from .ml_dtypes_view import bits_view, needs_ml_dtypes, typed_view

CPU = 1
CUDA = 2


class DeviceAPI:
    """Memory of one device type. Subclasses implement every method.

    copy(dst, src) is called on the API of the non-CPU side (or CPU's when both are host):
    it copies between this device and the host, or within this device.
    """

    def exists(self, device_id: int) -> bool:
        raise NotImplementedError(f"{type(self).__name__}.exists")

    def empty(self, shape: tuple[int, ...], dtype: str, device: Device):
        raise NotImplementedError(f"{type(self).__name__}.empty")

    def copy(self, dst, src) -> None:
        raise NotImplementedError(f"{type(self).__name__}.copy")

    def sync(self, device: Device) -> None:
        raise NotImplementedError(f"{type(self).__name__}.sync")


class CPUDeviceAPI(DeviceAPI):
    """Host memory: 64-byte aligned tensors from the FFI, copies through NumPy."""

    def exists(self, device_id: int) -> bool:
        return device_id == 0

    def empty(self, shape, dtype, device):
        return tvm_ffi.get_global_func("ffi.TensorEmpty")(
            tvm_ffi.Shape(shape), tvm_ffi.dtype(dtype), device
        )

    def copy(self, dst, src) -> None:
        import numpy as np

        # The source is only read: a read-only export (a NumPy array with writeable=False
        # passed to tvm.runtime.tensor, say) is a valid source.
        if needs_ml_dtypes(dst.dtype):  # the bits are copied: no ml_dtypes needed
            np.copyto(bits_view(dst), bits_view(src, writable=False), casting="no")
            return
        np.copyto(host_view(dst), host_view(src, writable=False), casting="no")

    def sync(self, device) -> None:
        return None


def host_view(tensor, writable: bool = True):
    """A NumPy view of a host-addressable tensor (no copy); writable unless told otherwise."""
    import numpy as np

    if needs_ml_dtypes(tensor.dtype):
        view = typed_view(tensor, writable)
    else:
        view = np.from_dlpack(tensor)
    if writable and not view.flags.writeable:
        raise ValueError(f"host_view: {tensor!r} was exported read-only and cannot be written")
    return view


_APIS: dict[int, DeviceAPI] = {CPU: CPUDeviceAPI()}
# Device types whose API registers itself on first use, when its driver is present.
_LAZY = {CUDA: "tvm.runtime.cuda_driver"}
_LAZY_MISSING = {CUDA: "no CUDA driver library (libcuda.so.1) could be loaded and initialised"}


def register_device_api(
    device_type: int, api: DeviceAPI, *, name: str | None = None, override: bool = False
) -> None:
    """Register the memory API of `device_type`; `name` also makes tvm.device(name) work."""
    if not isinstance(device_type, int) or isinstance(device_type, bool) or device_type < 0:
        raise ValueError(
            f"register_device_api: argument 'device_type' must be an int >= 0, got {device_type!r}"
        )
    if not isinstance(api, DeviceAPI):
        raise TypeError(
            f"register_device_api: argument 'api' must be a DeviceAPI, got {type(api).__name__}"
        )
    if device_type in _APIS and not override:
        raise ValueError(
            f"register_device_api: device type {device_type} already has "
            f"{type(_APIS[device_type]).__name__}; "
            "pass override=True to replace it"
        )
    if name is not None:
        register_device_name(name, device_type, override=override)
    _APIS[device_type] = api


def get_device_api(dev: Device) -> DeviceAPI:
    """The API for `dev`'s type; raises RuntimeError when none is registered or available."""
    code = int(dev.device_type)
    api = _APIS.get(code)
    if api is None and code in _LAZY:
        import importlib

        importlib.import_module(_LAZY.pop(code)).register()
        api = _APIS.get(code)
    if api is None:
        why = _LAZY_MISSING.get(code, "no backend registered one")
        raise RuntimeError(
            f"get_device_api: no device API registered for {dev} (device type {code}): {why}"
        )
    return api


def device_exists(dev: Device) -> bool:
    """True when `dev` has an API here and the hardware is present."""
    try:
        return bool(get_device_api(dev).exists(int(dev.device_id)))
    except RuntimeError:
        return False
