"""AdjustMatmulOrder: x @ (A @ B) and (x @ A) @ B are the same product; rewrite one into the
other when the other provably costs fewer multiply-adds (symbolic dims taken as >= 0), as a
LoRA update x @ (A @ B) is cheaper as (x @ A) @ B (relax.transform.AdjustMatmulOrder)."""

from __future__ import annotations

from tvm.tir import expr as E

from .dead_code_elimination import remove_unused_bindings
from .lowering_utils import ValueTrackingRewriter, relax_function_pass


def _dims(expr):
    sinfo = expr.__dict__.get("struct_info_")
    shape = getattr(sinfo, "shape", None)
    values = getattr(shape, "values", None)
    return list(values) if values is not None else None


def _matmul_cost(a_dims, b_dims):
    """(multiply-adds, output dims) of a @ b for operands of rank >= 2, else None."""
    if a_dims is None or b_dims is None or len(a_dims) < 2 or len(b_dims) < 2:
        return None
    m, k = a_dims[-2], a_dims[-1]
    n = b_dims[-1]
    batch_a, batch_b = a_dims[:-2], b_dims[:-2]
    rank = max(len(batch_a), len(batch_b))
    batch_a = [E.const(1, "int64")] * (rank - len(batch_a)) + batch_a
    batch_b = [E.const(1, "int64")] * (rank - len(batch_b)) + batch_b
    batch = []
    for p, q in zip(batch_a, batch_b):
        if isinstance(p, E.IntImm) and p.value == 1:
            batch.append(q)
        elif isinstance(q, E.IntImm) and q.value == 1:
            batch.append(p)
        else:
            batch.append(p)
    cost = m * k * n
    for d in batch:
        cost = cost * d
    return cost, [*batch, m, n]


def _cheaper(new_cost, old_cost) -> bool:
    from tvm.arith import Analyzer
    from tvm.arith.bound import ConstIntBound

    from ..analysis.struct_info_analysis import tir_vars_in

    analyzer = Analyzer()
    for var in tir_vars_in([new_cost, old_cost]):
        analyzer.bind(var, ConstIntBound(0, float("inf")))
    return analyzer.can_prove(new_cost < old_cost)


class _Rewriter(ValueTrackingRewriter):
    def rewrite_binding(self, binding, emit):
        from ..block_builder import BlockBuilder
        from ..expr import DataflowVar, Var, VarBinding
        from ..op import matmul

        value = self.tracked_call(binding, "relax.matmul")
        if value is None:
            emit(binding)
            return
        out_dtype = value.attrs.out_dtype
        out_dtype = None if str(out_dtype) in ("", "void") else out_dtype
        lhs, rhs = value.args
        inner_r, inner_l = (
            self.bound_call(rhs, "relax.matmul"),
            self.bound_call(lhs, "relax.matmul"),
        )
        candidate = None
        if inner_r is not None:  # lhs @ (a @ b)  ->  (lhs @ a) @ b
            a, b = inner_r.args
            old = _costs([(a, b), (lhs, rhs)])
            new_inner = (lhs, a)
            new_outer_rhs = b
            candidate = ("left", old, new_inner, new_outer_rhs)
        elif inner_l is not None:  # (x @ a) @ rhs  ->  x @ (a @ rhs)
            x, a = inner_l.args
            old = _costs([(x, a), (lhs, rhs)])
            candidate = ("right", old, (a, rhs), x)
        if candidate is None or candidate[1] is None:
            emit(binding)
            return
        kind, old_cost, (p, q), other = candidate
        bb = BlockBuilder()
        inner = bb.normalize(matmul(p, q, out_dtype))
        new_cost = _costs([(p, q), (other, inner) if kind == "right" else (inner, other)])
        if new_cost is None or not _cheaper(new_cost, old_cost):
            emit(binding)
            return
        cls = DataflowVar if self.in_dataflow else Var
        inner_var = cls("lv", inner.struct_info)
        emit(VarBinding(inner_var, inner))
        outer = (
            matmul(other, inner_var, out_dtype)
            if kind == "right"
            else matmul(inner_var, other, out_dtype)
        )
        emit(binding.with_fields(value=bb.normalize(outer)))


def _costs(pairs):
    total = None
    for a, b in pairs:
        found = _matmul_cost(_dims(a), _dims(b))
        if found is None:
            return None
        total = found[0] if total is None else total + found[0]
    return total


def AdjustMatmulOrder():  # noqa: N802  (pass constructors are capitalised)
    """The pass; a product is reordered only when the new order is provably cheaper."""

    @relax_function_pass("AdjustMatmulOrder")
    def adjust_matmul_order(func, mod, ctx):
        new = _Rewriter().rewrite_function(func)
        return func if new is func else remove_unused_bindings(new, mod)

    return adjust_matmul_order
