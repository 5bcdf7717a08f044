"""tvm.script.ir_builder.relax: the R.* builder functions of TVMScript's Relax dialect."""

from . import ir

__all__ = ["ir"]
