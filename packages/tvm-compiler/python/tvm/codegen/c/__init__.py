"""The C backend: generate C from lowered TIR, compile it with the system compiler, load it."""

from .body import CodegenError
from .compiler import CompilerError, cache_dir, compile_shared_library, find_compiler
from .source import CSource, generate_c_source

__all__ = [
    "CSource",
    "CodegenError",
    "CompilerError",
    "cache_dir",
    "compile_shared_library",
    "find_compiler",
    "generate_c_source",
]
