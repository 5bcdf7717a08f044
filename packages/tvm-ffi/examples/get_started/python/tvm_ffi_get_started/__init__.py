"""tvm_ffi_get_started: loads the plugin library and exposes its functions with Python types."""

from __future__ import annotations

import os

import tvm_ffi

LIBRARY_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "lib", "libtvm_ffi_get_started.so"
)

# Loaded once at import; a library built against another tvm-ffi ABI major is refused here.
_LIB: tvm_ffi.Module = tvm_ffi.load_module(LIBRARY_PATH)


def add_one(x: object, y: object) -> None:
    """Writes x + 1 into y: float32 1-D CPU tensors of one length (NumPy, PyTorch, any DLPack)."""
    _LIB["add_one"](x, y)


def fibonacci(n: int) -> int:
    """The n-th Fibonacci number, computed in C++ (0 <= n <= 92)."""
    result: int = _LIB["fibonacci"](n)
    return result


__all__ = ["LIBRARY_PATH", "add_one", "fibonacci"]
