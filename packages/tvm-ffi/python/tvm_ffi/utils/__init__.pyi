"""Helpers for building and running FFI code."""

from .lockfile import FileLock as FileLock

__all__ = ["FileLock"]
