"""Normalize: bring every Relax function to normal form (struct info on every expression,
nested calls bound to variables, branches and bodies as SeqExprs)."""

from __future__ import annotations

from tvm.ir.module import IRModule
from tvm.transform import ModulePass, PassInfo

from ..block_builder import BlockBuilder
from ..expr import Function


def _normalize(mod: IRModule, ctx=None) -> IRModule:
    bb = BlockBuilder(mod)
    changed = False
    for gv, func in list(mod.functions.items()):
        if isinstance(func, Function):
            new = bb.normalize(func)
            if new is not func:
                bb.update_func(gv, new)
                changed = True
    return bb.get() if changed else mod


def Normalize():  # noqa: N802  (pass constructors are capitalised)
    """The pass; a module already in normal form comes back as itself."""
    return ModulePass(_normalize, PassInfo(0, "Normalize"))
