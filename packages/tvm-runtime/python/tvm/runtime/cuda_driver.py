"""CUDA device memory through the driver library (libcuda by ctypes), registered where present."""

from __future__ import annotations

import ctypes
import math

import tvm_ffi

from .device_api import CPU, CUDA, DeviceAPI, register_device_api
from .dlpack_pointer import data_pointer, tensor_from_pointer

_DRIVER_NAMES = ("libcuda.so.1", "libcuda.so")


class CUDADriverError(RuntimeError):
    """A CUDA driver call returned an error code."""


class CUDADriverAPI(DeviceAPI):
    """Allocations with cuMemAlloc in each device's primary context; synchronous copies."""

    def __init__(self, lib: ctypes.CDLL):
        self._lib = lib
        self._contexts: dict[int, ctypes.c_void_p] = {}
        self._check(lib.cuInit(0), "cuInit")

    def _check(self, code: int, what: str) -> None:
        if code != 0:
            name = ctypes.c_char_p()
            self._lib.cuGetErrorName(code, ctypes.byref(name))
            raise CUDADriverError(
                f"CUDA driver: {what} failed with {(name.value or b'?').decode()} ({code})"
            )

    def exists(self, device_id: int) -> bool:
        count = ctypes.c_int()
        if self._lib.cuDeviceGetCount(ctypes.byref(count)) != 0:
            return False
        return 0 <= device_id < count.value

    def _activate(self, device_id: int) -> None:
        if not self.exists(device_id):
            raise ValueError(f"CUDA driver: no CUDA device {device_id} on this machine")
        ctx = self._contexts.get(device_id)
        if ctx is None:
            dev = ctypes.c_int()
            self._check(self._lib.cuDeviceGet(ctypes.byref(dev), device_id), "cuDeviceGet")
            ctx = ctypes.c_void_p()
            self._check(
                self._lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev),
                "cuDevicePrimaryCtxRetain",
            )
            self._contexts[device_id] = ctx
        self._check(self._lib.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")

    def empty(self, shape, dtype, device):
        self._activate(int(device.device_id))
        dt = tvm_ffi.dtype(dtype)
        nbytes = math.prod(shape) * ((dt.bits * dt.lanes + 7) // 8)
        ptr = ctypes.c_uint64()
        self._check(
            self._lib.cuMemAlloc_v2(ctypes.byref(ptr), ctypes.c_size_t(max(nbytes, 1))),
            "cuMemAlloc",
        )
        address = ptr.value
        return tensor_from_pointer(
            address,
            shape,
            dtype,
            device,
            on_free=lambda: self._lib.cuMemFree_v2(ctypes.c_uint64(address)),
        )

    def copy(self, dst, src) -> None:
        for arg, t in (("dst", dst), ("src", src)):
            if t.strides is not None and tuple(t.strides) != _compact_strides(tuple(t.shape)):
                raise ValueError(f"CUDA copy: argument {arg!r} must be C-contiguous")
        dt = tvm_ffi.dtype(str(dst.dtype))
        nbytes = math.prod(tuple(dst.shape)) * ((dt.bits * dt.lanes + 7) // 8)
        if nbytes == 0:
            return
        gpu = dst if int(dst.device.device_type) == CUDA else src
        self._activate(int(gpu.device.device_id))
        if int(src.device.device_type) == CPU:
            code = self._lib.cuMemcpyHtoD_v2(
                ctypes.c_uint64(data_pointer(dst)),
                ctypes.c_void_p(data_pointer(src)),
                ctypes.c_size_t(nbytes),
            )
        elif int(dst.device.device_type) == CPU:
            code = self._lib.cuMemcpyDtoH_v2(
                ctypes.c_void_p(data_pointer(dst)),
                ctypes.c_uint64(data_pointer(src)),
                ctypes.c_size_t(nbytes),
            )
        else:
            code = self._lib.cuMemcpyDtoD_v2(
                ctypes.c_uint64(data_pointer(dst)),
                ctypes.c_uint64(data_pointer(src)),
                ctypes.c_size_t(nbytes),
            )
        self._check(code, "cuMemcpy")

    def sync(self, device) -> None:
        self._activate(int(device.device_id))
        self._check(self._lib.cuCtxSynchronize(), "cuCtxSynchronize")


def _compact_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for dim in reversed(shape):
        strides.append(step)
        step *= dim
    return tuple(reversed(strides))


def register() -> bool:
    """Register the CUDA API when a driver library loads and initialises; never raises."""
    for name in _DRIVER_NAMES:
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        try:
            register_device_api(CUDA, CUDADriverAPI(lib), override=True)
        except (CUDADriverError, AttributeError):
            return False
        return True
    return False
