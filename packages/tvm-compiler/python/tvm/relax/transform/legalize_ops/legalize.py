"""LegalizeOps: replace each Relax op call by a call_tir of the PrimFunc its legalisation
builds (through te/topi); ops without one, or with arguments of unknown shape, stay."""

from __future__ import annotations

import warnings

from tvm.ir.module import IRModule
from tvm.ir.op import Op
from tvm.transform import PassInfo

from ...expr import Call, Function
from ...expr_functor import ExprMutator
from ...op._utils import dims_of
from ...struct_info import TensorStructInfo, TupleStructInfo
from .common import register_legalize  # noqa: F401  (the registry lives beside the families)


def _shapes_known(sinfo) -> bool:
    if isinstance(sinfo, TensorStructInfo):
        return dims_of(sinfo) is not None
    if isinstance(sinfo, TupleStructInfo):
        return all(_shapes_known(f) for f in sinfo.fields)
    return True


class _Legalizer(ExprMutator):
    def __init__(self, mod, custom, enable_warning):
        super().__init__(mod)
        self.custom = dict(custom or {})
        self.enable_warning = enable_warning

    def visit_Call(self, call):
        call = super().visit_Call(call)
        op = call.op
        if not isinstance(op, Op):
            return call
        legalize = self.custom.get(op.name) or op.get_attr("FLegalize")
        if legalize is None:
            if self.enable_warning and op.name not in _STRUCTURAL:
                warnings.warn(
                    f"LegalizeOps: no legalisation registered for {op.name}", stacklevel=2
                )
            return call
        call = self.builder_.normalize(call)
        # an op whose result's shape depends on its data (upstream's RequiresArgumentShapes =
        # False) computes that shape itself: only its arguments' shapes must be known
        data_dependent = op.get_attr("RequiresArgumentShapes") is False
        if not all(_shapes_known(a.struct_info) for a in call.args) or not (
            data_dependent or _shapes_known(call.struct_info)
        ):
            return call  # shapes known only at run time without even their rank: leave it
        out = legalize(self.builder_, call)
        if not isinstance(out, Call) and not hasattr(out, "_type_key"):
            raise TypeError(f"LegalizeOps: the legalisation of {op.name} returned {out!r}")
        return out


# Ops the lowering passes handle themselves (never legalised to TIR).
_STRUCTURAL = {
    "relax.call_tir",
    "relax.call_tir_inplace",
    "relax.call_dps_packed",
    "relax.call_pure_packed",
    "relax.shape_of",
    "relax.null_value",
    "relax.print",
    "relax.assert_op",
}


class _LegalizeOpsPass:
    def __init__(self, customize_legalize_map=None, enable_warning: bool = False):
        self.custom = customize_legalize_map
        self.enable_warning = enable_warning

    def __call__(self, mod: IRModule, ctx=None) -> IRModule:
        legalizer = _Legalizer(mod, self.custom, self.enable_warning)
        changed = False
        for gv, func in list(mod.functions.items()):
            if not isinstance(func, Function):
                continue
            new = legalizer.visit_expr(func)
            if new is not func:
                legalizer.builder_.update_func(gv, new)
                changed = True
        return legalizer.builder_.get() if changed else mod


def LegalizeOps(customize_legalize_map=None, enable_warning: bool = False):  # noqa: N802
    """The pass: customize_legalize_map ({op name: (bb, call) -> Expr}) overrides the
    registered legalisations; enable_warning warns about ops left as they are."""
    from tvm.transform import ModulePass

    return ModulePass(
        _LegalizeOpsPass(customize_legalize_map, enable_warning), PassInfo(0, "LegalizeOps")
    )
