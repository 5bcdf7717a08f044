"""ComputePrimValue: a symbolic expression used as a value (an If condition, an assert's
condition, an R.prim_value argument) is computed by a private host PrimFunc called from
Relax, because the VM itself only loads and stores symbolic variables."""

from __future__ import annotations

from tvm.transform import module_pass

from .lowering_utils import BindingRewriter, new_var, prim, with_sinfo


def _is_trivial(expr) -> bool:
    from tvm.tir.expr import FloatImm, IntImm, Var

    return isinstance(expr, (IntImm, FloatImm, Var))


class _ComputePrimValue(BindingRewriter):
    def __init__(self, mod, new_funcs):
        super().__init__()
        self.mod = mod
        self.new_funcs = new_funcs
        self.pending: list = []

    def _fresh_name(self) -> str:
        taken = {gv.name_hint for gv in self.mod.get_global_vars()} | {
            gv.name_hint for gv in self.new_funcs
        }
        base = "compute_symbolic_expr"
        name, i = base, 0
        while name in taken:
            i += 1
            name = f"{base}{i}"
        return name

    def _lift(self, pv):
        """A var bound (in the pending bindings) to the host function's result for pv."""
        from tvm.ir.module import GlobalVar
        from tvm.relax.expr import Call, VarBinding
        from tvm.relax.struct_info import PrimStructInfo
        from tvm.tir.analysis.well_formed import undefined_vars
        from tvm.tir.function import PrimFunc
        from tvm.tir.op import ret
        from tvm.tir.stmt import Evaluate

        expr = pv.value
        params = list(undefined_vars(expr))
        func = PrimFunc(
            params, Evaluate(ret(expr)), ret_type=expr.dtype, attrs={"tir.is_host_func": True}
        )
        gv = GlobalVar(self._fresh_name())
        self.new_funcs[gv] = func
        sinfo = PrimStructInfo(dtype=expr.dtype)
        var = new_var("gv", sinfo)
        value = with_sinfo(Call(gv, [prim(p) for p in params]), sinfo)
        self.pending.append(VarBinding(var, value))
        return var

    def rewrite_expr(self, expr):
        from tvm.relax.expr import Function, If, PrimValue, SeqExpr

        if isinstance(expr, PrimValue) and not _is_trivial(expr.value):
            return self._lift(expr)
        if isinstance(expr, If):
            return self.rewrite_if(expr, self.rewrite_expr(expr.cond))
        if isinstance(expr, (SeqExpr, Function)):
            return super().rewrite_expr(expr)
        return self._lift_args(expr)

    def _lift_args(self, expr):
        from tvm.relax.expr import Call, Tuple

        if isinstance(expr, Call):
            args = [self.rewrite_expr(a) for a in expr.args]
            if all(a is b for a, b in zip(args, expr.args)):
                return expr
            return expr.with_fields(args=args)
        if isinstance(expr, Tuple):
            fields = [self.rewrite_expr(a) for a in expr.fields]
            if all(a is b for a, b in zip(fields, expr.fields)):
                return expr
            return expr.with_fields(fields=fields)
        return expr

    def rewrite_block(self, block):
        outer_pending = self.pending  # an If's branches are blocks inside the outer binding
        out: list = []
        changed = False
        for binding in block.bindings:
            self.pending = []
            new = self.visit_binding_value(binding)
            out.extend(self.pending)
            out.append(new)
            changed = changed or new is not binding or bool(self.pending)
        self.pending = outer_pending
        return type(block)(out) if changed else block


def ComputePrimValue():  # noqa: N802
    """Lift non-trivial PrimValue expressions into private host PrimFuncs."""

    @module_pass(opt_level=0, name="ComputePrimValue")
    def compute_prim_value(mod, ctx):
        from tvm.relax.expr import Function

        new_funcs: dict = {}
        changed = {}
        for gv, func in mod.functions.items():
            if isinstance(func, Function):
                new = _ComputePrimValue(mod, new_funcs).rewrite_function(func)
                if new is not func:
                    changed[gv] = new
        if not changed:
            return mod

        funcs = {**dict(new_funcs), **{gv: changed.get(gv, f) for gv, f in mod.functions.items()}}
        return mod._with_functions(funcs)

    return compute_prim_value
