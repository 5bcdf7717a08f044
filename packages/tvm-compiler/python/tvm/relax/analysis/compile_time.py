"""computable_at_compile_time: the variables of a function whose values depend only on the
parameters known at compile time (those after the first "num_input")."""

from __future__ import annotations

from ._checks import expect_function
from .struct_info_analysis import tir_vars_in


def computable_at_compile_time(func) -> list:
    """The compile-time parameters, then each variable bound (in order) to a value that reads
    only compile-time variables and symbolic dims (purity is not considered, as upstream).
    Without a "num_input" attribute every parameter is a run-time input."""
    from ..expr import MatchCast, _sinfo_of
    from ..expr_functor import ExprVisitor
    from ..transform.lowering_utils import free_relax_uses

    expect_function("computable_at_compile_time", func)
    num_input = (func.attrs or {}).get("num_input")
    known: list = list(func.params[int(num_input) :]) if num_input is not None else []
    known_ids = {id(v) for v in known}
    known_dims = {id(v) for p in known for v in tir_vars_in(_sinfo_of(p))}

    def dims_known(value) -> bool:
        return all(id(v) in known_dims for v in tir_vars_in(value))

    class _Collect(ExprVisitor):
        def visit_ShapeExpr(self, node):  # noqa: N802
            self.dims.append(node.values)

        def visit_PrimValue(self, node):  # noqa: N802
            self.dims.append(node.value)

    for binding in _top_level_bindings(func):
        value = binding.value
        collector = _Collect()
        collector.dims = []
        collector.visit_expr(value)
        ok = all(id(v) in known_ids for v in free_relax_uses(value)) and all(
            dims_known(d) for d in collector.dims
        )
        if isinstance(binding, MatchCast):
            if ok:
                known_dims.update(id(v) for v in tir_vars_in(binding.struct_info))
        elif ok and not dims_known(_sinfo_of(binding.var)):
            ok = False
        if ok:
            known.append(binding.var)
            known_ids.add(id(binding.var))
    return known


def _top_level_bindings(func) -> list:
    from ..expr import SeqExpr

    body = func.body
    if not isinstance(body, SeqExpr):
        return []
    return [b for block in body.blocks for b in block.bindings]
