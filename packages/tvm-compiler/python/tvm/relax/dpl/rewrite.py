"""Pattern-based rewriting (tvm.relax.dpl.rewrite_call): replace each call that a pattern
matches by what a user function builds from the match."""

from __future__ import annotations

from ..expr_functor import ExprMutator
from .matcher import Matcher
from .pattern import DFPattern

# How often one call may be rewritten again after a rewrite still matches (upstream rewrites
# to a fixed point; this bounds a rewriter that keeps producing new matches).
_MAX_ROUNDS = 100


def _check_function(who: str, func):
    from ..expr import Function

    if not isinstance(func, Function):
        raise TypeError(f"{who}: func must be a relax.Function, got {type(func).__name__}")


class _CallRewriter(ExprMutator):
    """Rewrites the calls the pattern matches, after their operands (post-order); bound
    variables are looked through with the bindings rewritten so far."""

    def __init__(self, pattern, rewriter):
        super().__init__()
        self.pattern = pattern
        self.rewriter = rewriter
        self.var2val: dict = {}

    def visit_Call(self, call):  # noqa: N802  (dispatch on the class name)
        new = super().visit_Call(call)
        for _ in range(_MAX_ROUNDS):
            matcher = Matcher(self.var2val)
            if not matcher.visit(self.pattern, new):
                return new
            matches = {p: e for p, e in matcher.memo.values()}
            out = self.rewriter(new, matches)
            if out is None or out is new:
                return new
            from tvm.ir.expr import RelaxExpr

            if not isinstance(out, RelaxExpr):
                raise TypeError(
                    f"rewrite_call: the rewriter must return a relax Expr, got {type(out).__name__}"
                )
            from tvm.ir import structural_equal

            out = self.builder_.normalize(self.rebind(out))
            if structural_equal(out, new):
                return new
            new = out
            from ..expr import Call

            if not isinstance(new, Call):
                return new
        return new

    def rebind(self, expr):
        """expr with each sub-expression that is a bound value (a match handed to the rewriter
        looks through variables) replaced by its variable, so no binding is repeated."""
        from tvm.ir.functor import NodeMutator

        bound = {id(v): k for k, v in self.var2val.items()}
        if not bound:
            return expr

        class _Rebind(NodeMutator):
            namespace = "relax"

            def visit(self, node):
                var = bound.get(id(node))
                return var if var is not None else super().visit(node)

        return _Rebind().visit(expr)

    def visit_VarBinding(self, binding):  # noqa: N802
        super().visit_VarBinding(binding)
        emitted = self.builder_._require_frame("rewrite_call").bindings[-1]
        self.var2val[emitted.var] = emitted.value


def rewrite_call(pattern, rewriter, func):
    """func with every call that pattern matches replaced by rewriter(call, matches), where
    matches maps each sub-pattern to what it matched; a rewriter returning the call itself
    leaves it. Bindings left unused by the rewrite are removed."""
    from ..analysis import remove_all_unused

    if not isinstance(pattern, DFPattern):
        raise TypeError(f"rewrite_call: pattern must be a DFPattern, got {type(pattern).__name__}")
    if not callable(rewriter):
        raise TypeError(
            f"rewrite_call: rewriter must be a callable (expr, matches) -> Expr, got "
            f"{type(rewriter).__name__}"
        )
    _check_function("rewrite_call", func)
    new = _CallRewriter(pattern, rewriter).visit_expr(func)
    if new is func:
        return func
    return remove_all_unused(new)
