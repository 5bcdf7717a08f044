"""PartitionFullTiles: run the tiles that lie wholly inside the bounds without bound checks.

A split that does not divide its loop leaves `if i_0 * 32 + i_1 < 1000:` around the innermost
statements. The check blocks vectorization and register tiling in every tile, although only
the last tile along each axis needs it. For a loop L, a check `e < c` (e affine in the loops)
holds for a whole iteration of L exactly when it holds with every loop inside L at its worst
value, which leaves a condition on L's variable and the loops outside:

- on L's variable alone (`i_0 * 32 + 31 < 1000`, i.e. `i_0 < 31`): L is split into the
  iterations where the check always holds, with the check removed, and the rest. A rest of
  one iteration gets L's variable replaced by its value, so inside it the check becomes a
  bound on an inner loop (`i_1 < 8`), which then shrinks that loop; iterations where such a
  check can never hold and guards everything are dropped;
- on L's variable with a positive coefficient plus terms that do not change inside L (a shape
  parameter, outer loops: `i_0 * 8 + 7 < n`, i.e. `i_0 < n // 8`), or on L's variable alone
  when L's extent is itself symbolic: the same split at a symbolic point (clamped to L's
  range), the rest keeping the check. L is split this way when its extent is symbolic (the
  full tiles of a symbolic batch then get register tiling), or when nothing outside the
  check is left for the rest to do (the rest is dropped and L just runs fewer iterations).
  Inside the rest the check is known to fail somewhere in every iteration of L, so loops
  inside it do not unswitch on it again;
- otherwise (other variables too, such as a shape parameter), when the check sits inside an
  inner loop: L's body becomes `if <condition>: <body without the check> else: <body>`, one
  decision per iteration of L instead of one per inner iteration.

Checks that fit neither (non-affine, reading memory, which the body may write, or calling
impure functions) stay where they are. The copies this makes are limited to a budget.
Each step only removes a check where it provably holds, so results do not change.
"""

from __future__ import annotations

from tvm.arith import Analyzer
from tvm.arith.linear import to_linear
from tvm.ir.structural import structural_equal

from .. import expr as E
from ..functor import StmtExprMutator, contains, post_order_visit, substitute
from ..op import call_effect
from ..stmt import (
    Allocate,
    AssertStmt,
    BufferStore,
    Evaluate,
    For,
    IfThenElse,
    LetStmt,
    SeqStmt,
)

_COMPARISONS = (E.LT, E.LE, E.GT, E.GE)


def _is_impure_call(node) -> bool:
    return isinstance(node, E.Call) and call_effect(node.op) > E.CallEffectKind.PURE


def _conjuncts(cond) -> list:
    if isinstance(cond, E.And):
        return _conjuncts(cond.a) + _conjuncts(cond.b)
    return [cond]


def _conjunction(terms):
    result = None
    for term in terms:
        result = term if result is None else E.And(result, term)
    return result


class _Check:
    """A check `sum(coeff * atom) + worst < limit` after inner loops took their worst values."""

    def __init__(self, term, atoms, worst, limit, worst_point):
        self.term, self.atoms, self.worst, self.limit = term, atoms, worst, limit
        self.worst_point = worst_point  # inner loop variable -> its worst value
        self.has_inner = bool(worst_point)  # whether it uses inner loop variables

    def condition(self):
        if not self.atoms:
            return E.const(self.worst < self.limit, "bool")
        # The check itself at its worst iteration: a difference of its sides could overflow.
        return substitute(self.term, self.worst_point)

    def prefix_end(self, var):
        """K such that the check holds exactly for var < K, when it is about var alone."""
        if len(self.atoms) != 1 or self.atoms[0][0] is not var or self.atoms[0][1] <= 0:
            return None
        coeff = self.atoms[0][1]
        return -((self.worst - self.limit) // coeff)  # ceil((limit - worst) / coeff)

    def bound_on(self, var):
        """An int64 PrimExpr K over the loops outside var such that the check holds exactly
        for var < K, when var has a positive coefficient and no other term uses var."""
        coeff = next((c for a, c in self.atoms if a is var), 0)
        others = [(a, c) for a, c in self.atoms if a is not var]
        if coeff <= 0 or any(contains(a, lambda n: n is var) for a, _ in others):
            return None
        # coeff * var + rest + worst < limit  <=>  var < ceil((limit - worst - rest) / coeff),
        # in int64 so that narrow loop variables do not overflow on the way.
        num = E.const(self.limit - self.worst + coeff - 1, "int64")
        for atom, c in others:
            num = num - E.const(c, "int64") * _as_int64(atom)
        return E.FloorDiv(num, E.const(coeff, "int64")) if coeff != 1 else num


def _as_int64(e):
    return e if e.dtype == "int64" else E.Cast("int64", e)


class _Scope:
    """What a loop body defines (constant-range loops, other vars) and the checks inside it."""

    def __init__(self, body):
        self.ranges: dict = {}
        self.defined: set = set()
        self.guards: list = []  # (check statement, whether it sits inside an inner loop)
        self._walk(body, False)

    def _walk(self, node, in_loop):
        if isinstance(node, For):
            self.defined.add(node.loop_var)
            if isinstance(node.min, E.IntImm) and isinstance(node.extent, E.IntImm):
                lo, hi = node.min.value, node.min.value + node.extent.value - 1
                # A variable some copy of the body binds differently gets both ranges.
                seen = self.ranges.get(node.loop_var, (lo, hi))
                self.ranges[node.loop_var] = (min(lo, seen[0]), max(hi, seen[1]))
            in_loop = True
        elif isinstance(node, LetStmt):
            self.defined.add(node.var)
        elif isinstance(node, Allocate):
            self.defined.add(node.buffer_var)
        elif isinstance(node, IfThenElse) and node.else_case is None:
            self.guards.append((node, in_loop))
        if isinstance(node, SeqStmt):
            for item in node.seq:
                self._walk(item, in_loop)
        elif isinstance(node, IfThenElse):
            self._walk(node.then_case, in_loop)
            if node.else_case is not None:
                self._walk(node.else_case, in_loop)
        elif getattr(node, "body", None) is not None:
            self._walk(node.body, in_loop)

    def check(self, term):
        """term as a _Check over the loops outside this body, or None when it is not one."""
        if not isinstance(term, _COMPARISONS) or not term.a.dtype.is_integer:
            return None
        inner = self._defined_in(term)
        if any(v not in self.ranges for v in inner) or contains(term, _is_impure_call):
            return None  # changes inside the body in a way the loop ranges do not bound
        if isinstance(term, (E.LT, E.LE)):
            diff, limit = term.a - term.b, 0 if isinstance(term, E.LT) else 1
        else:
            diff, limit = term.b - term.a, 0 if isinstance(term, E.GT) else 1
        form = to_linear(Analyzer().simplify(diff))
        # Inner loops that cancel out of the form still need a value (any in their range).
        worst_point = {v: E.const(self.ranges[v][0], v.dtype) for v in inner}
        worst, atoms = form.const, []
        for atom, coeff in form.terms.values():
            if atom in self.ranges:
                value = self.ranges[atom][1 if coeff > 0 else 0]
                worst += coeff * value
                worst_point[atom] = E.const(value, atom.dtype)
            elif self._defined_in(atom) or contains(atom, lambda n: isinstance(n, E.BufferLoad)):
                return None  # not affine in the inner loops, or memory the body may write
            else:
                atoms.append((atom, coeff))
        return _Check(term, atoms, worst, limit, worst_point)

    def _defined_in(self, expr) -> list:
        """The variables of expr that the body defines."""
        found = []
        post_order_visit(expr, lambda n: found.append(n) if n in self.defined else None)
        return found


_OWN_EXPRS = {
    LetStmt: ("value",),
    IfThenElse: ("condition",),
    For: ("min", "extent"),
    AssertStmt: ("condition",),
    Allocate: ("extents",),
}


def _own_exprs(node):
    """The expressions a statement evaluates itself (not those of the statements inside it)."""
    for name in _OWN_EXPRS.get(type(node), ()):
        value = getattr(node, name)
        yield from value if isinstance(value, tuple) else (value,)


def _all_effects_guarded(body, terms) -> bool:
    """Whether every store, evaluation and impure call in body runs only under one of terms."""

    def walk(node, guarded):
        if not guarded and any(contains(e, _is_impure_call) for e in _own_exprs(node)):
            return False
        if isinstance(node, (BufferStore, Evaluate)):
            return guarded or isinstance(node, Evaluate) and isinstance(node.value, E.IntImm)
        if isinstance(node, AssertStmt):
            return guarded and walk(node.body, guarded)
        if isinstance(node, IfThenElse):
            inside = guarded or any(any(t is g for g in terms) for t in _conjuncts(node.condition))
            return walk(node.then_case, inside) and (
                node.else_case is None or walk(node.else_case, guarded)
            )
        if isinstance(node, SeqStmt):
            return all(walk(s, guarded) for s in node.seq)
        body = getattr(node, "body", None)
        return walk(body, guarded) if body is not None else False

    return walk(body, False)


class _DropTerms(StmtExprMutator):
    """Removes the given conjuncts (by identity) from the checks they appear in."""

    def __init__(self, terms):
        self.terms = terms

    def visit_IfThenElse(self, node):
        node = self.generic_visit(node)
        if node.else_case is not None:
            return node
        kept = [t for t in _conjuncts(node.condition) if not any(t is d for d in self.terms)]
        if not kept:
            return node.then_case
        return node.with_fields(condition=_conjunction(kept))


def _statement_count(stmt) -> int:
    count = [0]
    post_order_visit(
        stmt,
        lambda n: (
            count.__setitem__(0, count[0] + 1) if not isinstance(n, (E.PrimExpr, E.Range)) else None
        ),
    )
    return count[0]


class _FullTilePartitioner(StmtExprMutator):
    def __init__(self, budget: int):
        self.analyzer = Analyzer()
        # Worst-case conditions of checks known to fail somewhere in every iteration of the
        # loops being visited (the rest of a symbolic split): unswitching on them is waste.
        self.known_false: list = []
        # Statements the copies may add in all: each axis split unevenly can double the code,
        # so many such axes would otherwise grow it (and compile time) exponentially.
        self.budget = budget

    def _afford(self, body) -> bool:
        cost = _statement_count(body) + 2  # the copy, plus the loop or if and seq around it
        if cost > self.budget:
            return False
        self.budget -= cost
        return True

    def visit_For(self, loop):
        with self.analyzer.constraint_scope(
            loop.loop_var, E.Range.from_min_extent(loop.min, loop.extent)
        ):
            return self._partition(loop)

    def _partition(self, loop):
        scope = _Scope(loop.body)
        if not scope.guards:
            return self.generic_visit(loop)
        const_range = isinstance(loop.min, E.IntImm) and isinstance(loop.extent, E.IntImm)
        always, own, bounded, outer = self._classify(loop.loop_var, scope)
        body = _DropTerms([c.term for c in always]).visit(loop.body) if always else loop.body
        if not const_range:
            bounded, own = own + bounded, []
        if own:
            start, end = loop.min.value, loop.min.value + loop.extent.value
            ends = [min(max(c.prefix_end(loop.loop_var), start), end) for c in own]
            if start < min(ends) < end:
                split_at = min(ends)
                # Past split_at a check on var alone (no inner loops) is false: what it
                # guards is gone, and only a rest that still does something costs a copy.
                dead = [
                    c.term
                    for c in own
                    if not c.has_inner and c.prefix_end(loop.loop_var) == split_at
                ]
                keep_rest = not _all_effects_guarded(body, dead)
                if not keep_rest or self._afford(body):
                    return self._split(loop, body, own, split_at, start, end, keep_rest)
        if bounded:
            split = self._split_at_bound(loop, body, bounded, const_range)
            if split is not None:
                return split
        if outer and self._afford(body):
            return self._unswitch(loop, body, outer)
        return (
            self.generic_visit(loop.with_fields(body=body)) if always else self.generic_visit(loop)
        )

    def _split_at_bound(self, loop, body, bounded, const_range):
        """Iterations before the first check's symbolic bound without the checks sharing that
        bound, then the rest with them; None when that is not worth a copy of the body."""
        var = loop.loop_var
        bound = bounded[0].bound_on(var)
        same = [c for c in bounded if structural_equal(c.bound_on(var), bound)]
        dead = all(not c.has_inner for c in same) and _all_effects_guarded(
            body, [c.term for c in same]
        )
        if not dead and (const_range or not self._afford(body)):
            return None
        start, end = loop.min, loop.min + loop.extent
        split_at = E.Min(E.Max(bound, _as_int64(start)), _as_int64(end))
        if var.dtype != "int64":
            split_at = E.Cast(var.dtype, split_at)  # between start and end: it fits
        split_at = self.analyzer.simplify(split_at)
        with self.analyzer.constraint_scope(var, E.Range(start, split_at)):
            head = self.visit(_DropTerms([c.term for c in same]).visit(body))
        parts = [loop.with_fields(extent=self.analyzer.simplify(split_at - start), body=head)]
        if not dead:
            conditions = [self.analyzer.simplify(c.condition()) for c in same]
            self.known_false.extend(conditions)
            try:
                with self.analyzer.constraint_scope(var, E.Range(split_at, end)):
                    # Only the body: the rest split again at the same bound would be empty.
                    rest = self.visit(body)
                parts.append(
                    loop.with_fields(
                        min=split_at, extent=self.analyzer.simplify(end - split_at), body=rest
                    )
                )
            finally:
                del self.known_false[len(self.known_false) - len(conditions) :]
        return parts[0] if len(parts) == 1 else SeqStmt(parts)

    def _classify(self, var, scope):
        """The checks in scope that always hold, that hold for a prefix of var's values (a
        constant bound on var alone), that hold below a symbolic bound on var, and those that
        a whole iteration can decide (each a list of _Check; the last two may overlap)."""
        always, own, bounded, outer = [], [], [], []
        for guard, in_loop in scope.guards:
            for term in _conjuncts(guard.condition):
                if any(term is c.term for c in always + own + bounded + outer):
                    continue
                check = scope.check(term)
                if check is None:
                    continue
                cond = self.analyzer.simplify(check.condition())
                if isinstance(cond, E.IntImm):
                    if cond.value:
                        always.append(check)
                    continue  # never true for a whole iteration: checked deeper, or kept
                if check.prefix_end(var) is not None:
                    own.append(check)
                    continue
                if check.bound_on(var) is not None:
                    bounded.append(check)
                if in_loop and not any(structural_equal(cond, f) for f in self.known_false):
                    outer.append(check)  # decided once per iteration instead of per inner one
        return always, own, bounded, outer

    def _split(self, loop, body, own, split_at, start, end, keep_rest):
        """Iterations [start, split_at) without the checks own, then (when keep_rest) the
        others."""
        var = loop.loop_var
        held = [c.term for c in own if c.prefix_end(var) >= split_at]
        with self.analyzer.constraint_scope(var, E.Range.from_min_extent(start, split_at - start)):
            head = self.visit(_DropTerms(held).visit(body))
        parts = [
            loop.with_fields(
                min=E.const(start, var.dtype),
                extent=E.const(split_at - start, var.dtype),
                body=head,
            )
        ]
        if keep_rest:
            if end - split_at == 1:
                rest = self.analyzer.rewrite(substitute(body, {var: E.const(split_at, var.dtype)}))
                parts.append(self.visit(rest))
            else:
                with self.analyzer.constraint_scope(
                    var, E.Range.from_min_extent(split_at, end - split_at)
                ):
                    parts.append(
                        self.visit(
                            loop.with_fields(
                                min=E.const(split_at, var.dtype),
                                extent=E.const(end - split_at, var.dtype),
                                body=body,
                            )
                        )
                    )
        return parts[0] if len(parts) == 1 else SeqStmt(parts)

    def _unswitch(self, loop, body, outer):
        """if <outer conditions>: body without those checks, else: body."""
        conditions = []
        for check in outer:
            cond = self.analyzer.simplify(check.condition())
            if not any(structural_equal(cond, c) for c in conditions):
                conditions.append(cond)
        interior = self.visit(_DropTerms([c.term for c in outer]).visit(body))
        return loop.with_fields(body=IfThenElse(_conjunction(conditions), interior, body))


def partition_full_tiles(func, growth: int = 4):
    """func with full tiles unchecked; the copies add at most growth times its statements."""
    budget = growth * _statement_count(func.body) + 64
    return func.with_body(_FullTilePartitioner(budget).visit(func.body))
