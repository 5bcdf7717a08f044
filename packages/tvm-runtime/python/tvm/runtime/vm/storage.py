"""Storage: one device allocation that tensors are carved out of (vm.builtin.alloc_storage)."""

from __future__ import annotations

import math

import tvm_ffi

from ..dlpack_pointer import data_pointer, tensor_from_pointer
from ..tensor import empty


def dtype_bytes(dtype) -> int:
    dt = tvm_ffi.dtype(str(dtype))
    return (dt.bits * dt.lanes + 7) // 8


def checked_view(offset: int, shape, dtype, nbytes: int) -> tuple:
    """The dims of a `dtype` tensor of `shape` at byte `offset` of `nbytes` bytes of storage;
    ValueError naming vm.builtin.alloc_tensor when a dim is negative or it does not fit."""
    dims = tuple(int(d) for d in shape)
    if any(d < 0 for d in dims):
        raise ValueError(
            f"vm.builtin.alloc_tensor: argument 'shape' must hold sizes >= 0, got {dims}"
        )
    need = math.prod(dims) * dtype_bytes(dtype)
    if offset < 0 or offset + need > nbytes:
        raise ValueError(
            f"vm.builtin.alloc_tensor: a {dtype} tensor of shape {dims} at offset {offset} "
            f"needs {offset + need} bytes, the storage has {nbytes}"
        )
    return dims


class Storage:
    """`nbytes` bytes on `device`; alloc_tensor makes tensors that view a part of it."""

    __slots__ = ("buffer", "nbytes", "device", "_base")

    def __init__(self, nbytes: int, device):
        self.nbytes = nbytes
        self.device = device
        self.buffer = empty((max(nbytes, 1),), "uint8", device)
        self._base = data_pointer(self.buffer)

    def alloc_tensor(self, offset, shape, dtype):
        """A tensor of `shape` and `dtype` at byte `offset` of this storage."""
        dims = checked_view(offset, shape, dtype, self.nbytes)
        return tensor_from_pointer(
            self._base + int(offset), dims, str(dtype), self.device, keepalive=self
        )

    def __repr__(self) -> str:
        return f"Storage(nbytes={self.nbytes}, device={self.device})"
