"""Helpers for building and running FFI code: FileLock (a cross-process lock on a file),
kwargs_wrapper (keyword arguments for positional-only functions), unpack_dataclass."""

from .lockfile import FileLock


def __getattr__(name):
    # The submodules upstream's tvm_ffi.utils exposes, imported on first use (they pull in
    # inspect and dataclasses, which `import tvm_ffi.utils` for FileLock should not pay for).
    if name in ("kwargs_wrapper", "unpack_dataclass"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FileLock"]
