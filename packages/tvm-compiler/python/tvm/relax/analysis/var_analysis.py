"""free_vars / bound_vars / all_vars: the Relax variables an expression uses without binding
them, binds itself (bindings, function parameters), or mentions at all, in order of first
appearance (relax.analysis.free_vars and its siblings)."""

from __future__ import annotations

from tvm.ir.functor import NodeVisitor


class _VarCollector(NodeVisitor):
    namespace = "relax"

    def __init__(self):
        self.bound: dict = {}  # insertion-ordered sets
        self.used: dict = {}

    def _bind(self, var):
        self.bound.setdefault(var, None)

    def visit_Var(self, node):  # noqa: N802  (DataflowVar too)
        self.used.setdefault(node, None)

    def visit_VarBinding(self, node):  # noqa: N802
        self._bind(node.var)
        self.visit(node.value)

    def visit_MatchCast(self, node):  # noqa: N802
        self._bind(node.var)
        self.visit(node.value)

    def visit_Function(self, node):  # noqa: N802
        for param in node.params:
            self._bind(param)
        self.visit(node.body)


def _collect(expr) -> _VarCollector:
    collector = _VarCollector()
    collector.visit(expr)
    return collector


def free_vars(expr) -> list:
    """The variables expr uses but does not bind (a function's captured variables)."""
    c = _collect(expr)
    return [v for v in c.used if v not in c.bound]


def bound_vars(expr) -> list:
    """The variables expr binds: binding variables and function parameters."""
    return list(_collect(expr).bound)


def all_vars(expr) -> list:
    """Every variable expr binds or uses."""
    c = _collect(expr)
    return list({**c.bound, **c.used})
