"""Analyzer: the arithmetic facade binding variable ranges for simplification and proofs."""

from __future__ import annotations

from contextlib import contextmanager

from tvm.tir import expr as E

from .bound import BoundAnalyzer, ConstIntBound
from .simplify import StmtSimplifier


class Analyzer:
    """Simplify expressions and prove facts, given ranges of variables bound with bind()."""

    def __init__(self):
        self._bounds = BoundAnalyzer({})
        self._simplifier = StmtSimplifier(self._bounds)

    def bind(self, var, value) -> None:
        """Bind var to a Range (its values) or to an expression (its bound)."""
        if not isinstance(var, E.Var):
            raise TypeError(f"Analyzer.bind: var must be a Var, got {type(var).__name__}")
        self._bounds.var_bounds[var] = self._bound_of(value)

    def _bound_of(self, value) -> ConstIntBound:
        if isinstance(value, E.Range):
            lo = self._bounds.bound(self.simplify(value.min))
            ext = self._bounds.bound(self.simplify(value.extent))
            return ConstIntBound(lo.min_value, lo.max_value + ext.max_value - 1)
        if isinstance(value, ConstIntBound):
            return value
        return self._bounds.bound(self.simplify(E.convert(value)))

    @contextmanager
    def constraint_scope(self, var, value):
        """Bind var for the duration of a with-block."""
        saved = self._bounds.var_bounds.get(var)
        self.bind(var, value)
        try:
            yield
        finally:
            if saved is None:
                self._bounds.var_bounds.pop(var, None)
            else:
                self._bounds.var_bounds[var] = saved

    def unbind(self, var) -> None:
        self._bounds.var_bounds.pop(var, None)

    def simplify(self, expr):
        return self._simplifier.visit(E.convert(expr))

    def rewrite(self, node):
        """Simplify every expression inside a statement or expression."""
        return self._simplifier.visit(node)

    def const_int_bound(self, expr) -> ConstIntBound:
        return self._bounds.bound(self.simplify(expr))

    def can_prove(self, cond) -> bool:
        result = self.simplify(cond)
        return isinstance(result, E.IntImm) and bool(result.value)

    def can_prove_equal(self, a, b) -> bool:
        return self.can_prove(E.convert(a) == E.convert(b))
