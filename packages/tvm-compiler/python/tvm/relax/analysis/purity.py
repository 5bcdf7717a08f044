"""contains_impure_call: whether evaluating an expression (a function's body) may call
something with visible side effects."""

from __future__ import annotations

from tvm.ir.module import GlobalVar
from tvm.ir.op import Op

from ._checks import expect


def _callee_is_pure(op) -> bool:
    from ..expr import _sinfo_of
    from ..struct_info import FuncStructInfo

    if isinstance(op, Op):
        return bool(op.get_attr("FPurity", True))
    sinfo = _sinfo_of(op)
    if not isinstance(sinfo, FuncStructInfo):
        return False  # nothing says it is pure
    return bool(sinfo.purity)


def contains_impure_call(expr, own_name=None) -> bool:
    """Whether expr (for a Function: its body) calls an impure op or function. Calls to
    own_name (a recursive function's own Var or GlobalVar) are not counted, nor impure calls
    inside nested functions that expr only defines."""
    from ..expr import Expr, Function, Var
    from ..expr_functor import ExprVisitor

    expect("contains_impure_call", "expr", expr, Expr, "a relax Expr")
    if own_name is not None:
        expect("contains_impure_call", "own_name", own_name, (Var, GlobalVar), "a Var or GlobalVar")
    if isinstance(expr, Function):
        expr = expr.body
    found = []

    class _Find(ExprVisitor):
        def visit_Function(self, node):  # noqa: N802  (defining a function calls nothing)
            return None

        def visit_Call(self, node):  # noqa: N802
            if node.op is not own_name and not _callee_is_pure(node.op):
                found.append(node)
            self.generic_visit(node)

    _Find().visit_expr(expr)
    return bool(found)
