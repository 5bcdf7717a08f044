"""C source of a lowered IRModule: the prelude, extern declarations and one entry per PrimFunc."""

from __future__ import annotations

import re

from tvm.ir.module import IRModule
from tvm.tir.function import PrimFunc

from .body import CodegenError
from .cpu_spare import CPU_SPARE_HELPER
from .entry import PRELUDE, generate_function
from .int_division import DIVISION_HELPERS
from .streaming import STREAM_HELPERS
from .vector_math import VECTOR_MATH_HELPERS

_SYMBOL = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class CSource:
    """Generated C text plus what compiling it needs."""

    def __init__(self, text: str, uses_openmp: bool, function_names: list[str]):
        self.text = text
        self.uses_openmp = uses_openmp
        self.function_names = function_names


def generate_c_source(mod: IRModule) -> CSource:
    """C for every PrimFunc in mod, each exported under its global_symbol (or its name)."""
    entries, externs, typedefs, names = [], {}, {}, []
    uses_openmp = uses_stream = uses_vector_math = uses_cpu_spare = False
    for gv, func in mod.functions.items():
        if not isinstance(func, PrimFunc):
            raise CodegenError(
                f"codegen c: function {gv.name_hint!r} is a {type(func).__name__}, not a PrimFunc"
            )
        symbol = func.attrs.get("global_symbol", gv.name_hint)
        if not _SYMBOL.match(symbol):
            raise CodegenError(f"codegen c: {symbol!r} is not a valid C function name")
        text, body = generate_function(func, symbol)
        entries.append(text)
        externs.update(body.externs)
        typedefs.update(body.vector_typedefs)
        names.append(symbol)
        uses_openmp = uses_openmp or body.uses_openmp
        uses_stream = uses_stream or body.uses_stream
        uses_cpu_spare = uses_cpu_spare or body.uses_cpu_spare
        uses_vector_math = uses_vector_math or body.uses_vector_math
    declarations = [
        f"extern {ret} {name}({', '.join(params) or 'void'});"
        for name, (ret, params) in sorted(externs.items())
        if name not in _LIBC_DECLARED
    ]
    text = "\n".join(
        [
            PRELUDE.strip(),
            DIVISION_HELPERS.strip(),
            *([STREAM_HELPERS.strip()] if uses_stream else []),
            *([CPU_SPARE_HELPER.strip()] if uses_cpu_spare else []),
            *([VECTOR_MATH_HELPERS.strip()] if uses_vector_math else []),
            "",
            *sorted(typedefs.values()),
            *declarations,
            "",
            *entries,
            "",
        ]
    )
    return CSource(text, uses_openmp, names)


# Functions the prelude's headers already declare (declaring them again would conflict).
_LIBC_DECLARED = {
    "printf",
    "puts",
    "abort",
    "malloc",
    "free",
    "memset",
    "memcpy",
    "memmove",
    "strlen",
    "exp",
    "expf",
    "sqrt",
    "sqrtf",
    "fabs",
    "fabsf",
    "log",
    "logf",
    "sin",
    "sinf",
    "cos",
    "cosf",
    "tanh",
    "tanhf",
    "pow",
    "powf",
    "floor",
    "floorf",
    "ceil",
    "ceilf",
    "fmaxf",
    "fminf",
}
