"""EliminateCommonSubexpr: a binding whose value repeats an earlier one in scope becomes a
binding of the earlier variable (y = x, left for CanonicalizeBindings / DeadCodeElimination),
and later uses read the earlier variable; impure calls are never merged."""

from __future__ import annotations

from tvm.ir.module import GlobalVar
from tvm.ir.op import Op
from tvm.ir.structural import structural_equal, structural_hash

from .lowering_utils import relax_function_pass, substitute_vars, with_sinfo

# Calls never merged even when registered pure: allocations (two are two buffers) and what
# the lowering passes emit; plus the effect ops DeadCodeElimination keeps.
_LOWERING_PREFIXES = ("relax.builtin.", "relax.memory.", "relax.vm.")


def _is_pure_call(call, mod) -> bool:
    from tvm.relax.expr import ExternFunc, Function
    from tvm.relax.struct_info import FuncStructInfo

    from .dead_code_elimination import _EFFECT_OPS

    op = call.op
    if isinstance(op, Op):
        if op.name in _EFFECT_OPS or op.name.startswith(_LOWERING_PREFIXES):
            return False
        return bool(op.get_attr("FPurity", True))
    if isinstance(op, GlobalVar):
        callee = mod[op] if op in mod else None
        if not isinstance(callee, Function):
            return False  # a PrimFunc called directly writes into its output arguments
        return callee.is_pure
    if isinstance(op, ExternFunc):
        return False
    sinfo = op.__dict__.get("struct_info_")
    return isinstance(sinfo, FuncStructInfo) and sinfo.purity


def _eligible(value, call_only: bool, mod) -> bool:
    """Calls that are pure, and (unless call_only) tuples and tuple items: leaves are no
    computation, and functions and branches are scopes of their own."""
    from tvm.relax.expr import Call, Tuple, TupleGetItem

    if isinstance(value, Call):
        return _is_pure_call(value, mod)
    return not call_only and isinstance(value, (Tuple, TupleGetItem))


class _Table:
    """Values seen in scope -> the variable that holds each (structural hash buckets)."""

    def __init__(self, parent=None):
        self.buckets: dict = (
            {} if parent is None else {k: list(v) for k, v in parent.buckets.items()}
        )

    def find(self, value):
        for seen, var in self.buckets.get(structural_hash(value), ()):
            if structural_equal(seen, value, map_free_vars=False):
                return var
        return None

    def add(self, value, var) -> None:
        self.buckets.setdefault(structural_hash(value), []).append((value, var))

    def leave_dataflow(self, outputs: dict) -> None:
        """DataflowVars die with their block: an entry keeps the block output equal to it."""
        from tvm.relax.expr import DataflowVar

        for key, entries in self.buckets.items():
            kept = []
            for value, var in entries:
                if isinstance(var, DataflowVar):
                    var = outputs.get(var)
                if var is not None:
                    kept.append((value, var))
            self.buckets[key] = kept


class _CSE:
    def __init__(self, mod, call_only):
        self.mod = mod
        self.call_only = call_only
        self.remap: dict = {}

    def function(self, func):
        body = self.expr(func.body, _Table())
        return func if body is func.body else func.with_fields(body=body)

    def expr(self, expr, table):
        from tvm.relax.expr import Function, If, SeqExpr

        if isinstance(expr, SeqExpr):
            return self.seq(expr, _Table(table))
        if isinstance(expr, If):
            cond = self.subst(expr.cond)
            then = self.expr(expr.true_branch, _Table(table))
            other = self.expr(expr.false_branch, _Table(table))
            if cond is expr.cond and then is expr.true_branch and other is expr.false_branch:
                return expr
            return with_sinfo(If(cond, then, other, expr.span), expr.__dict__.get("struct_info_"))
        if isinstance(expr, Function):
            return _CSE(self.mod, self.call_only).function(expr)
        return self.subst(expr)

    def subst(self, expr):
        return substitute_vars(expr, self.remap) if self.remap else expr

    def seq(self, seq, table):
        from tvm.relax.expr import DataflowBlock, DataflowVar, SeqExpr

        blocks = []
        for block in seq.blocks:
            new = self.block(block, table)
            blocks.append(new)
            if isinstance(block, DataflowBlock):
                outputs = {}  # a DataflowVar -> the block output bound to it (gv = lv)
                for b in new.bindings:
                    if not isinstance(b.var, DataflowVar) and isinstance(b.value, DataflowVar):
                        outputs.setdefault(b.value, b.var)
                table.leave_dataflow(outputs)
        body = self.expr(seq.body, table)
        if body is seq.body and all(a is b for a, b in zip(blocks, seq.blocks)):
            return seq
        return with_sinfo(SeqExpr(blocks, body, seq.span), seq.__dict__.get("struct_info_"))

    def block(self, block, table):
        from tvm.relax.expr import DataflowVar, VarBinding

        out = []
        changed = False
        for binding in block.bindings:
            value = self.expr(binding.value, table)
            var = binding.var
            new = binding if value is binding.value else binding.with_fields(value=value)
            if isinstance(binding, VarBinding) and _eligible(value, self.call_only, self.mod):
                prev = table.find(value)
                if prev is not None:
                    new = VarBinding(var, prev, binding.span)
                    if isinstance(var, DataflowVar) or not isinstance(prev, DataflowVar):
                        self.remap[var] = prev
                else:
                    table.add(value, var)
            changed = changed or new is not binding
            out.append(new)
        if not changed:
            return block
        return type(block)(out, block.span)


def EliminateCommonSubexpr(call_only: bool = False):  # noqa: N802
    """Merge repeated computations within each function (relax.transform
    .EliminateCommonSubexpr); call_only limits it to calls. A function without repeats comes
    back as itself."""
    if not isinstance(call_only, bool):
        raise TypeError(
            f"relax.transform.EliminateCommonSubexpr: call_only must be a bool, "
            f"got {type(call_only).__name__}"
        )

    @relax_function_pass("EliminateCommonSubexpr")
    def eliminate(func, mod, ctx):
        return _CSE(mod, call_only).function(func)

    return eliminate
