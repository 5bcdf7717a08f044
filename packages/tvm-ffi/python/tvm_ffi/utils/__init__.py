"""Helpers for building and running FFI code: FileLock (a cross-process lock on a file)."""

from .lockfile import FileLock

__all__ = ["FileLock"]
