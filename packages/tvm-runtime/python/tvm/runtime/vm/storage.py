"""Storage: one device allocation that tensors are carved out of (vm.builtin.alloc_storage)."""

from __future__ import annotations

import math

import tvm_ffi

from ..dlpack_pointer import data_pointer, tensor_from_pointer
from ..tensor import empty


def dtype_bytes(dtype) -> int:
    dt = tvm_ffi.dtype(str(dtype))
    return (dt.bits * dt.lanes + 7) // 8


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
        dims = tuple(int(d) for d in shape)
        need = math.prod(dims) * dtype_bytes(dtype)
        if offset < 0 or offset + need > self.nbytes:
            raise ValueError(
                f"vm.builtin.alloc_tensor: a {dtype} tensor of shape {dims} at offset {offset} "
                f"needs {offset + need} bytes, the storage has {self.nbytes}"
            )
        return tensor_from_pointer(
            self._base + int(offset), dims, str(dtype), self.device, keepalive=self
        )

    def __repr__(self) -> str:
        return f"Storage(nbytes={self.nbytes}, device={self.device})"
