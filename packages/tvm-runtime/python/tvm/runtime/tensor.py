"""tvm.runtime.Tensor: the FFI tensor with NumPy conversion and copies between devices."""

from __future__ import annotations

import math
import operator
import sys

import tvm_ffi

from .device import Device, cpu
from .device import device as make_device
from .device_api import CPU, get_device_api, host_view
from .ml_dtypes_view import bits_view, foreign_dtype_name, ml_dtype_of, needs_ml_dtypes


@tvm_ffi.register_object("ffi.Tensor")
class Tensor(tvm_ffi.Tensor):
    """An n-dimensional array on a device; FFI results holding tensors come back as this class."""

    def numpy(self):
        """A NumPy copy of the contents (copied through the host for device tensors)."""
        import numpy as np

        host = self if int(self.device.device_type) == CPU else self.copyto(cpu(0))
        return np.array(host_view(host, writable=False), copy=True)

    def copyfrom(self, source) -> Tensor:
        """Copy `source` (Tensor, DLPack producer, NumPy array or nested lists) into self."""
        if not isinstance(source, tvm_ffi.Tensor):
            if hasattr(source, "__dlpack__") and not _is_numpy(source):
                source = tvm_ffi.from_dlpack(source)
            else:
                # Arrays keep their dtype (a mismatch is an error, never a silent cast);
                # lists and scalars are read as this tensor's dtype.
                keep = _is_numpy(source) and hasattr(source, "dtype")
                source = _from_array_like(
                    source, None if keep else str(self.dtype), "Tensor.copyfrom"
                )
        copy_tensor(self, source, "Tensor.copyfrom")
        return self

    def copyto(self, target):
        """Copy into `target`: a Device (returns a new tensor there) or a Tensor (returns it)."""
        if isinstance(target, Device):
            out = empty(tuple(self.shape), str(self.dtype), target)
            copy_tensor(out, self, "Tensor.copyto")
            return out
        if isinstance(target, tvm_ffi.Tensor):
            copy_tensor(target, self, "Tensor.copyto")
            return target
        raise TypeError(
            "Tensor.copyto: argument 'target' must be a Device or Tensor, got "
            f"{type(target).__name__}"
        )

    def __repr__(self) -> str:
        return (
            f"tvm.runtime.Tensor(shape={tuple(self.shape)}, dtype={str(self.dtype)}, "
            f"device={self.device})"
        )


def _is_numpy(value) -> bool:
    # Never imports NumPy: when it is not loaded, nothing can be one of its arrays or scalars.
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, (np.ndarray, np.generic))


def _from_array_like(value, dtype: str | None, func: str):
    import numpy as np

    if dtype is not None and needs_ml_dtypes(dtype):
        dtype = ml_dtype_of(dtype, func)  # NumPy reads "bfloat16" only once ml_dtypes is loaded
    try:
        # asarray keeps 0-d data 0-d (ascontiguousarray would make it shape (1,)).
        array = np.asarray(value, dtype=dtype, order="C")
    except (TypeError, ValueError) as err:
        raise TypeError(
            f"{func}: cannot read an array of dtype {dtype} from {type(value).__name__}: {err}"
        ) from None
    name = foreign_dtype_name(array)
    if name is not None:  # NumPy exports no DLPack for ml_dtypes arrays: copy the bits over
        out = empty(array.shape, name)
        bits_view(out)[...] = array.view(f"u{array.dtype.itemsize}")
        return out
    try:
        return tvm_ffi.from_dlpack(array)
    except BufferError:
        raise TypeError(
            f"{func}: {type(value).__name__} data reads as NumPy dtype {array.dtype}, "
            "which has no tensor dtype (expected numbers or bools)"
        ) from None


def copy_tensor(dst, src, func: str = "copy_tensor") -> None:
    """Copy src into dst (same shape and dtype), routing through the host between device types."""
    if tuple(dst.shape) != tuple(src.shape):
        raise ValueError(
            f"{func}: shape mismatch, destination {tuple(dst.shape)} vs source {tuple(src.shape)}"
        )
    if str(dst.dtype) != str(src.dtype):
        raise ValueError(f"{func}: dtype mismatch, destination {dst.dtype} vs source {src.dtype}")
    dst_type, src_type = int(dst.device.device_type), int(src.device.device_type)
    if dst_type == src_type or CPU in (dst_type, src_type):
        owner = dst.device if dst_type != CPU else src.device
        get_device_api(owner).copy(dst, src)
        return
    host = empty(tuple(src.shape), str(src.dtype), cpu(0))
    get_device_api(src.device).copy(host, src)
    get_device_api(dst.device).copy(dst, host)


def empty(shape, dtype="float32", device=None) -> Tensor:
    """An uninitialised tensor of `shape` and `dtype` on `device` (default CPU)."""
    dev = cpu(0) if device is None else make_device(device)
    try:
        dims = tuple(operator.index(d) for d in shape)  # index(): 2.5 is refused, not truncated
    except TypeError:
        raise TypeError(
            f"tvm.runtime.empty: argument 'shape' must be a sequence of ints, got {shape!r}"
        ) from None
    if any(d < 0 for d in dims):
        raise ValueError(f"tvm.runtime.empty: argument 'shape' must hold sizes >= 0, got {dims}")
    ffi_dtype = tvm_ffi.dtype(str(dtype))
    nbytes = math.prod(dims) * ((ffi_dtype.bits * ffi_dtype.lanes + 7) // 8)
    if nbytes > _MAX_BYTES:  # a byte count that overflows 64 bits would allocate a tiny buffer
        raise ValueError(
            f"tvm.runtime.empty: shape {dims} of {ffi_dtype} needs {nbytes} bytes, "
            f"more than the {_MAX_BYTES} one tensor can address"
        )
    return get_device_api(dev).empty(dims, str(ffi_dtype), dev)


_MAX_BYTES = 2**63 - 1


def tensor(data, device=None, dtype=None) -> Tensor:
    """A new tensor on `device` (default CPU) holding a copy of `data`.

    data: a NumPy array, any DLPack producer, a Tensor, or nested lists / scalars.
    """
    if isinstance(data, tvm_ffi.Tensor) or (hasattr(data, "__dlpack__") and not _is_numpy(data)):
        source = data if isinstance(data, tvm_ffi.Tensor) else tvm_ffi.from_dlpack(data)
        if dtype is not None and str(tvm_ffi.dtype(str(dtype))) != str(source.dtype):
            raise ValueError(
                f"tvm.runtime.tensor: argument 'dtype' {dtype} differs from the data's "
                f"{source.dtype}"
            )
    else:
        source = _from_array_like(data, dtype, "tvm.runtime.tensor")
    out = empty(tuple(source.shape), str(source.dtype), device)
    copy_tensor(out, source, "tvm.runtime.tensor")
    return out
