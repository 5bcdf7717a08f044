"""Tensors: zero-copy exchange with NumPy, PyTorch and any DLPack producer."""

from . import _core
from ._core import Tensor


def from_dlpack(tensor):
    """A Tensor sharing memory with any object that has ``__dlpack__`` (zero copy).

    Raises TypeError for objects that are not DLPack producers.
    """
    return _core.from_dlpack(tensor)


__all__ = ["Tensor", "from_dlpack"]
