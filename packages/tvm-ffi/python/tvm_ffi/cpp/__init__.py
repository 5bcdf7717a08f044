"""tvm_ffi.cpp: build C++ (and CUDA) sources against the installed tvm-ffi, load them as Modules."""

from .dtype import to_cpp_dtype
from .extension import build, build_inline, load, load_inline

__all__ = ["build", "build_inline", "load", "load_inline", "to_cpp_dtype"]
