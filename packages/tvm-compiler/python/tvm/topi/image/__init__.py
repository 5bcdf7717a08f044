"""tvm.topi.image: image operators over te tensors (resize2d)."""

from .resize import resize2d

__all__ = ["resize2d"]
