"""AnnotateTIROpPattern: give each PrimFunc an "op_pattern" attribute (its OpPatternKind as an
int), which FuseOps reads to decide what fuses with what."""

from __future__ import annotations

from tvm.transform import FunctionPass, PassInfo

from ..analysis.tir_op_pattern import analyze_op_pattern


def _annotate(func, mod, ctx):
    if "op_pattern" in func.attrs:
        return func  # set by hand or by an earlier run: kept
    return func.with_attr("op_pattern", int(analyze_op_pattern(func)))


def AnnotateTIROpPattern():  # noqa: N802  (pass constructors are capitalised)
    """Annotate the op pattern kind of every PrimFunc that has none (relax.transform
    .AnnotateTIROpPattern); a module whose PrimFuncs all have one comes back as itself."""
    from tvm.tir.function import PrimFunc

    return FunctionPass(_annotate, PassInfo(0, "AnnotateTIROpPattern"), PrimFunc)
