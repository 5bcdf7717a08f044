"""The "c" code generator's build: lowered module -> C -> shared library -> runtime Module."""

from __future__ import annotations

from tvm.driver import register_codegen
from tvm.target.simd import mattr_compiler_flags

from .compiler import compile_shared_library
from .source import generate_c_source


def build_c(mod, target):
    import tvm.runtime

    source = generate_c_source(mod)
    march = target.attrs.get("mcpu")
    path = compile_shared_library(
        source.text,
        source.uses_openmp,
        march=None if march in (None, "native") else march,
        extra_flags=mattr_compiler_flags(target),
    )
    return tvm.runtime.load_module(path)


register_codegen("c", build_c)
