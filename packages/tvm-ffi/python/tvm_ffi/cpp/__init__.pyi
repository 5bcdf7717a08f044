"""tvm_ffi.cpp: build C++ (and CUDA) sources against the installed tvm-ffi, load them as Modules."""

from collections.abc import Mapping, Sequence

from ..module import Module

_Sources = str | Sequence[str] | None
_Flags = Sequence[str] | None

def to_cpp_dtype(dtype_str: str) -> str: ...
def build_inline(
    name: str,
    *,
    cpp_sources: _Sources = None,
    cuda_sources: _Sources = None,
    functions: str | Sequence[str] | Mapping[str, str] | None = None,
    extra_cflags: _Flags = None,
    extra_cuda_cflags: _Flags = None,
    extra_ldflags: _Flags = None,
    extra_include_paths: _Flags = None,
    build_directory: str | None = None,
    embed_cubin: Mapping[str, bytes] | None = None,
    backend: str | None = None,
    output: str | None = None,
) -> str: ...
def load_inline(
    name: str,
    *,
    cpp_sources: _Sources = None,
    cuda_sources: _Sources = None,
    functions: str | Sequence[str] | Mapping[str, str] | None = None,
    extra_cflags: _Flags = None,
    extra_cuda_cflags: _Flags = None,
    extra_ldflags: _Flags = None,
    extra_include_paths: _Flags = None,
    build_directory: str | None = None,
    embed_cubin: Mapping[str, bytes] | None = None,
    keep_module_alive: bool = True,
    backend: str | None = None,
) -> Module: ...
def build(
    name: str,
    *,
    sources: _Sources = None,
    cpp_files: _Sources = None,
    cuda_files: _Sources = None,
    extra_cflags: _Flags = None,
    extra_cuda_cflags: _Flags = None,
    extra_ldflags: _Flags = None,
    extra_include_paths: _Flags = None,
    build_directory: str | None = None,
    backend: str | None = None,
    output: str | None = None,
) -> str: ...
def load(
    name: str,
    *,
    sources: _Sources = None,
    cpp_files: _Sources = None,
    cuda_files: _Sources = None,
    extra_cflags: _Flags = None,
    extra_cuda_cflags: _Flags = None,
    extra_ldflags: _Flags = None,
    extra_include_paths: _Flags = None,
    build_directory: str | None = None,
    keep_module_alive: bool = True,
    backend: str | None = None,
) -> Module: ...

__all__ = ["build", "build_inline", "load", "load_inline", "to_cpp_dtype"]
