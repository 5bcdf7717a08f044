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


def _check_no_new_free_vars(who: str, func, new) -> None:
    """A rewriter result that names a variable the function never defines (a fresh Var) made
    an ill-formed function that failed only in a later pass."""
    from ..analysis import free_vars

    before = {id(v) for v in free_vars(func)}
    stray = [v.name_hint for v in free_vars(new) if id(v) not in before]
    if stray:
        raise ValueError(
            f"{who}: the rewriter's result uses variable(s) {stray} that the function does not "
            "define; build the replacement from the matched expressions or the function's own "
            "variables"
        )


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
    _check_no_new_free_vars("rewrite_call", func, new)
    return remove_all_unused(new)


def rewrite_bindings(ctx, rewriter, func):
    """func with each dataflow block rewritten where ctx's graph of patterns matches:
    rewriter(matchings, bindings) gets {pattern: Var} and the block's {Var: value} and returns
    {bound Var: new value}; matching repeats on what is left until nothing more matches."""
    from ..analysis import remove_all_unused
    from .context import PatternContext

    if not isinstance(ctx, PatternContext):
        raise TypeError(f"rewrite_bindings: ctx must be a PatternContext, got {type(ctx).__name__}")
    if not callable(rewriter):
        raise TypeError(
            f"rewrite_bindings: rewriter must be a callable (matchings, bindings) -> "
            f"dict of Var to Expr, got {type(rewriter).__name__}"
        )
    _check_function("rewrite_bindings", func)
    new = _BindingsRewriter(ctx, rewriter).visit_expr(func)
    if new is func:
        return func
    _check_no_new_free_vars("rewrite_bindings", func, new)
    return remove_all_unused(new)


class _BindingsRewriter(ExprMutator):
    def __init__(self, ctx, rewriter):
        super().__init__()
        self.ctx = ctx
        self.rewriter = rewriter

    def visit_BindingBlock(self, block):  # noqa: N802  (dispatch on the class name)
        from ..expr import DataflowBlock

        if not isinstance(block, DataflowBlock):
            return super().visit_BindingBlock(block)
        replacements = self.collect(block)
        if not replacements:
            return super().visit_BindingBlock(block)
        bb = self.builder_
        bb._begin_frame(True)
        self._nested = {}  # per block: ids of the replacements' objects, alive while it runs
        for binding in _ordered(block.bindings, replacements):
            if binding.var in replacements:
                from ..expr import VarBinding

                value = self.emit_nested(replacements[binding.var])
                self._reemit(VarBinding(binding.var, value), value)
            else:
                self.visit_binding(binding)
        return bb.end_block()

    def collect(self, block) -> dict:
        from tvm.ir.expr import RelaxExpr

        from ..expr import Var, VarBinding
        from .graph_matcher import match_graph

        replacements: dict = {}
        var2val = {b.var: b.value for b in block.bindings if isinstance(b, VarBinding)}
        for _ in range(len(block.bindings) + 1):
            done = {id(v) for v in replacements}
            matchings = match_graph(self.ctx, block.bindings, done)
            if matchings is None:
                break
            out = self.rewriter(matchings, dict(var2val))
            if not isinstance(out, dict) or not all(
                isinstance(k, Var) and isinstance(v, RelaxExpr) for k, v in out.items()
            ):
                raise TypeError(
                    "rewrite_bindings: the rewriter must return a dict of bound Var to Expr, "
                    f"got {type(out).__name__}"
                )
            out = {k: v for k, v in out.items() if v is not var2val.get(k)}
            if not out or all(id(k) in done for k in out):
                break
            for var in out:
                if var not in var2val:
                    raise ValueError(
                        f"rewrite_bindings: the rewriter returned a value for {var.name_hint!r}, "
                        "which no binding of the block defines"
                    )
            replacements.update(out)
        return replacements

    def emit_nested(self, expr):
        """expr with the calls nested in it emitted as bindings first, each object once
        (a sub-expression the replacements share is computed once)."""
        from ..expr import Call, Tuple, TupleGetItem

        memo = self._nested

        def flat(e, top):
            if id(e) in memo:
                return memo[id(e)]
            if isinstance(e, Call):
                new = Call(e.op, [flat(a, False) for a in e.args], e.attrs, e.sinfo_args, e.span)
            elif isinstance(e, Tuple):  # a tuple stays inline (normal form), its fields flat
                new = Tuple([flat(f, False) for f in e.fields], e.span)
                return self.builder_.normalize(self.visit(new)) if top else new
            elif isinstance(e, TupleGetItem):
                new = TupleGetItem(flat(e.tuple_value, False), e.index, e.span)
            else:
                return self.visit_expr(e)
            if top:
                return self.builder_.normalize(self.visit(new))
            var = self.builder_.emit(self.visit(new))
            memo[id(e)] = var
            return var

        return flat(expr, True)


def _ordered(bindings, replacements) -> list:
    """bindings in their order, except that one whose new value reads a variable bound later
    in the block waits until that variable is bound."""
    from ..transform.lowering_utils import free_relax_uses

    defined_here = {b.var for b in bindings}
    emitted: set = set()
    pending = list(bindings)
    out = []
    while pending:
        for i, b in enumerate(pending):
            value = replacements.get(b.var, b.value)
            needs = {v for v in free_relax_uses(value) if v in defined_here}
            if needs <= emitted:
                out.append(b)
                emitted.add(b.var)
                del pending[i]
                break
        else:
            raise ValueError(
                "rewrite_bindings: the new values read one another in a cycle: "
                + ", ".join(b.var.name_hint for b in pending)
            )
    return out
