"""Tensors: zero-copy exchange with NumPy, PyTorch and any DLPack producer."""

from typing import Any

from ._core import Tensor as Tensor

def from_dlpack(tensor: Any) -> Tensor: ...

__all__ = ["Tensor", "from_dlpack"]
