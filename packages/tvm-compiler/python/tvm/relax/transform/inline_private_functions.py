"""InlinePrivateFunctions: each call of a private, non-recursive Relax function is replaced by
a copy of that function's body (parameters bound to the arguments, symbolic dims to the
arguments' dims); private functions nothing refers to any more are dropped."""

from __future__ import annotations

from tvm.ir.module import GlobalVar
from tvm.transform import module_pass

from ..analysis.recursion import detect_recursion
from ..analysis.struct_info_analysis import _bind_params
from ..expr import Call, If, SeqExpr, VarBinding, _sinfo_of
from ..expr_functor import ExprMutator
from .private_functions import is_private, reference_counts, relax_functions
from .symbolic_binder import SymbolicBinder

# Inlining repeats until no call is left to inline; private functions calling each other nest
# at most this deep before the pass gives up on the rest.
_MAX_ROUNDS = 64


def _dataflow_safe(func) -> bool:
    """Whether func's body may land inside a dataflow block (no branches, no impure calls)."""
    from ..analysis.purity import contains_impure_call

    body = func.body
    if not isinstance(body, SeqExpr) or contains_impure_call(func):
        return False
    return not any(isinstance(b.value, (If, SeqExpr)) for blk in body.blocks for b in blk.bindings)


class _Inliner(ExprMutator):
    def __init__(self, mod, inlinable):
        super().__init__(mod)
        self.mod = mod
        self.inlinable = inlinable  # name -> Function
        self.changed = False

    def visit_VarBinding(self, binding):  # noqa: N802  (dispatch names follow the node class)
        value = binding.value
        if not (
            isinstance(value, Call)
            and isinstance(value.op, GlobalVar)
            and value.op.name_hint in self.inlinable
        ):
            return super().visit_VarBinding(binding)
        callee = self.inlinable[value.op.name_hint]
        in_dataflow = self.builder_.current_block_is_dataflow()
        if in_dataflow and not _dataflow_safe(callee):
            return super().visit_VarBinding(binding)
        args = [self.visit_expr(a) for a in value.args]
        tir_map: dict = {}
        for param, arg in zip(callee.params, args):
            _bind_params(_sinfo_of(param), arg.struct_info, tir_map)
        binder = SymbolicBinder(
            var_map=dict(zip(callee.params, args)),
            tir_map=tir_map,
            fresh=True,
            plain_vars=not in_dataflow,
            mod=self.mod,
        )
        inlined = binder.visit_expr(callee.body)
        if isinstance(inlined, SeqExpr):
            for block in inlined.blocks:
                for b in block.bindings:
                    self.builder_.emit_normalized(b)
            result = inlined.body
        else:
            result = inlined
        self.changed = True
        self._reemit(VarBinding(binding.var, value, binding.span), result)
        return None


def InlinePrivateFunctions():  # noqa: N802  (pass constructors are capitalised)
    """The pass (relax.transform.InlinePrivateFunctions)."""

    @module_pass(opt_level=0, name="InlinePrivateFunctions")
    def inline_private_functions(mod, ctx):
        recursive = {gv.name_hint for group in detect_recursion(mod) for gv in group}
        inlinable = {
            gv.name_hint: f
            for gv, f in relax_functions(mod).items()
            if is_private(f) and gv.name_hint not in recursive
        }
        if not inlinable:
            return mod
        current = mod
        for _ in range(_MAX_ROUNDS):
            replaced = {}
            for gv, func in relax_functions(current).items():
                inliner = _Inliner(current, inlinable)
                new = inliner.visit_expr(func)
                if inliner.changed and new is not func:
                    replaced[gv] = new
            if not replaced:
                break
            current = current._with_replaced_functions(replaced)
            inlinable = {
                name: current[name] for name in inlinable if name in current
            }  # callees may themselves have had calls inlined
        refs, _ = reference_counts(current)
        kept = {
            gv: f
            for gv, f in current.functions.items()
            if gv.name_hint not in inlinable or refs.get(gv.name_hint, 0) > 0
        }
        if len(kept) != len(current.functions):
            current = current._with_functions(kept)
        return current

    return inline_private_functions
