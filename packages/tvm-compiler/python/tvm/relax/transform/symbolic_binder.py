"""SymbolicBinder: a Relax mutator that replaces variables by expressions and symbolic (TIR)
variables by PrimExprs everywhere (struct info, shapes, prim values, call sinfo_args), giving
every rebound variable a fresh copy; what BindSymbolicVars and the inliner build on."""

from __future__ import annotations

from tvm.tir.functor import substitute

from ..analysis.struct_info_analysis import map_struct_info_dims
from ..expr import (
    Call,
    DataflowVar,
    Function,
    MatchCast,
    PrimValue,
    ShapeExpr,
    Var,
    _sinfo_of,
)
from ..expr_functor import ExprMutator


class SymbolicBinder(ExprMutator):
    """var_map: relax Var -> Expr; tir_map: tir Var -> PrimExpr. With fresh=True every variable
    the visited code binds is copied (so the result can be inlined next to the original);
    plain_vars=True turns DataflowVars into Vars (code leaving a dataflow block);
    simplify=False substitutes without folding (a renaming keeps each expression's form)."""

    def __init__(
        self, var_map=None, tir_map=None, fresh=False, plain_vars=False, mod=None, simplify=True
    ):
        super().__init__(mod)
        self.var_map = dict(var_map or {})
        self.tir_map = dict(tir_map or {})
        self.fresh = fresh
        self.plain_vars = plain_vars
        self.simplify = simplify

    # -- substitution helpers ---------------------------------------------------------------
    def prim(self, value):
        if not self.tir_map:
            return value
        new = substitute(value, self.tir_map)
        if new is value or not self.simplify:
            return new
        from tvm.arith import Analyzer

        return Analyzer().simplify(new)  # bound values fold (4 * 8 is 32)

    def sinfo(self, sinfo):
        if sinfo is None or not self.tir_map:
            return sinfo
        out = map_struct_info_dims(sinfo, self.prim)
        return sinfo if out is None else out

    # -- variables ----------------------------------------------------------------------------
    def visit_var_def(self, var):
        if var in self.var_remap_:
            return self.var_remap_[var]
        old = _sinfo_of(var)
        new = self.sinfo(old)
        cls = Var if self.plain_vars or not isinstance(var, DataflowVar) else DataflowVar
        if new is old and not self.fresh and cls is type(var):
            return var
        copy = cls(var.name_hint, new, var.span)
        self.var_remap_[var] = copy
        return copy

    def visit_Var(self, var):  # noqa: N802  (dispatch names follow the node class)
        if var in self.var_map:
            return self.var_map[var]
        return self.var_remap_.get(var, var)

    # -- nodes carrying symbolic values -------------------------------------------------------
    def visit_ShapeExpr(self, node):  # noqa: N802
        values = [self.prim(v) for v in node.values]
        if all(a is b for a, b in zip(values, node.values)):
            return node
        return ShapeExpr(values, node.span)

    def visit_PrimValue(self, node):  # noqa: N802
        value = self.prim(node.value)
        return node if value is node.value else PrimValue(value, node.span)

    def visit_Call(self, call):  # noqa: N802
        new = super().visit_Call(call)
        sinfo_args = [self.sinfo(s) for s in call.sinfo_args]
        if all(a is b for a, b in zip(sinfo_args, call.sinfo_args)):
            return new
        return Call(new.op, new.args, new.attrs, sinfo_args, new.span)

    def visit_MatchCast(self, binding):  # noqa: N802
        value = self.visit_expr(binding.value)
        sinfo = self.sinfo(binding.struct_info)
        var = self.visit_var_def(binding.var)
        if value is binding.value and sinfo is binding.struct_info and var is binding.var:
            self.builder_.emit_normalized(binding)
            return
        if _sinfo_of(var) is not sinfo:
            cls = type(var)
            var = cls(var.name_hint, sinfo, var.span)
            self.var_remap_[binding.var] = var
        self.builder_.emit_normalized(MatchCast(var, value, sinfo, binding.span))

    def visit_Function(self, func):  # noqa: N802
        params = [self.visit_var_def(p) for p in func.params]
        body = self.visit_with_new_scope(func.body)
        ret = self.sinfo(func.ret_struct_info)
        if (
            body is func.body
            and ret is func.ret_struct_info
            and all(a is b for a, b in zip(params, func.params))
        ):
            return func
        return Function(params, body, ret, func.is_pure, func.attrs, func.span)
