"""Helpers for building and running FFI code."""

from . import kwargs_wrapper as kwargs_wrapper
from . import unpack_dataclass as unpack_dataclass
from .lockfile import FileLock as FileLock

__all__ = ["FileLock"]
