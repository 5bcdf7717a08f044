"""What a function's bindings say: var -> value, name -> bindings, who uses whom in a dataflow
block, the variables and GlobalVars an expression uses, and a post-order walk
(relax.analysis.get_var2val, name_to_binding, udchain, used_vars, all_global_vars,
post_order_visit)."""

from __future__ import annotations

from tvm.ir.module import GlobalVar

from ._checks import expect, expect_function


def _bindings(func) -> list:
    """Every binding in func (nested SeqExprs and inner functions too), in order."""
    from ..expr_functor import ExprVisitor

    found: list = []

    class _Collect(ExprVisitor):
        def visit_binding(self, binding):
            found.append(binding)
            super().visit_binding(binding)

    _Collect().visit(func)
    return found


def get_var2val(func) -> dict:
    """Each variable bound by a VarBinding in func, mapped to its value."""
    from ..expr import VarBinding

    expect_function("get_var2val", func)
    return {b.var: b.value for b in _bindings(func) if isinstance(b, VarBinding)}


def name_to_binding(func) -> dict:
    """Each bound variable name in func, mapped to the bindings of that name, in order."""
    expect_function("name_to_binding", func)
    out: dict = {}
    for b in _bindings(func):
        out.setdefault(b.var.name_hint, []).append(b)
    return out


def _uses(expr) -> list:
    """The relax variables expr uses, each once, in order of first use."""
    from ..transform.lowering_utils import free_relax_uses

    return list(dict.fromkeys(free_relax_uses(expr)))


def used_vars(expr) -> list:
    """Every relax variable expr uses (reads), each once."""
    from ..expr import Expr

    expect("used_vars", "expr", expr, Expr, "a relax Expr")
    return _uses(expr)


def udchain(dfb) -> dict:
    """Use-def chains of a dataflow block: each variable it binds or reads, mapped to the
    variables of the bindings that read it (each once, in binding order)."""
    from ..expr import BindingBlock

    expect("udchain", "dfb", dfb, BindingBlock, "a relax DataflowBlock")
    chain: dict = {}
    for b in dfb.bindings:
        for used in _uses(b.value):
            users = chain.setdefault(used, [])
            if all(u is not b.var for u in users):
                users.append(b.var)
        chain.setdefault(b.var, [])
    return chain


def all_global_vars(expr) -> list:
    """The GlobalVars expr refers to, each once, in order of occurrence."""
    from ..expr import Expr

    expect("all_global_vars", "expr", expr, (Expr, GlobalVar), "a relax Expr")
    found: list = []
    post_order_visit(expr, lambda e: found.append(e) if isinstance(e, GlobalVar) else None)
    return list(dict.fromkeys(found))


def post_order_visit(expr, fvisit) -> None:
    """Call fvisit on every expression inside expr (operators and GlobalVars included), each
    after its children; variables are reported where they are read, not where bound."""
    from ..expr import Expr
    from ..expr_functor import ExprVisitor

    expect("post_order_visit", "expr", expr, (Expr, GlobalVar), "a relax Expr")
    if not callable(fvisit):
        raise TypeError(f"post_order_visit: fvisit must be callable, got {type(fvisit).__name__}")

    class _Apply(ExprVisitor):
        def visit_expr(self, e):
            super().visit_expr(e)
            fvisit(e)

        def generic_visit(self, node):
            if isinstance(node, GlobalVar):
                return None
            return super().generic_visit(node)

    _Apply().visit_expr(expr)
