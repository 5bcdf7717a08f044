"""Matching a PatternContext's graph against a dataflow block's bindings: each pattern is given
a variable whose value it matches (bound variables looked through), the use constraints hold,
and patterns met inside one another's match agree (a backtracking search)."""

from __future__ import annotations

from .matcher import Matcher


def _uses(value) -> list:
    from ..transform.lowering_utils import free_relax_uses

    return free_relax_uses(value)


def match_graph(ctx, bindings, exclude: dict) -> dict | None:
    """{pattern: Var} for the first assignment found, or None. Variables in exclude (ids)
    are not assigned to patterns that match a binding (they were rewritten already)."""
    from ..expr import VarBinding

    var2val = {b.var: b.value for b in bindings if isinstance(b, VarBinding)}
    candidates = [b.var for b in bindings if isinstance(b, VarBinding)]
    users: dict = {}  # var -> the bound vars whose values read it
    for b in bindings:
        if not isinstance(b, VarBinding):
            continue
        for v in dict.fromkeys(_uses(b.value)):
            users.setdefault(v, []).append(b.var)
            if v not in var2val and all(v is not c for c in candidates):
                candidates.append(v)  # a parameter or a variable of an earlier block
    nodes = list(ctx.nodes)
    if not nodes:
        return None
    # The patterns that match calls first: they have the fewest candidates.
    from .pattern import CallPattern

    nodes.sort(key=lambda p: not isinstance(p, CallPattern))
    fits = {}
    for p in nodes:
        fits[id(p)] = [
            v
            for v in candidates
            if not (v in var2val and id(v) in exclude) and Matcher(var2val).visit(p, v)
        ]
        if not fits[id(p)]:
            return None
    edges = ctx.edges
    kinds = {id(p): p for p in nodes}
    assigned: dict = {}

    def consistent(p, v) -> bool:
        if isinstance(p, CallPattern) and any(
            w is v for q, w in assigned.items() if isinstance(kinds[q], CallPattern)
        ):
            return False  # two call patterns stand for two bindings (wildcards may share)
        for src, dst, only_use, _index in edges:
            s = v if src is p else assigned.get(id(src))
            d = v if dst is p else assigned.get(id(dst))
            if s is None or d is None:
                continue
            if all(u is not d for u in users.get(s, [])):
                return False
            if only_use and any(u is not d for u in users.get(s, [])):
                return False
        return True

    def agrees() -> bool:
        """Each pattern, matched with the others' variables fixed, matches its own."""
        for p in nodes:
            m = Matcher(var2val)
            for q in nodes:
                if q is not p:
                    m.memo[id(q)] = (q, m.lookup(assigned[id(q)]))
            if not m.visit(p, assigned[id(p)]):
                return False
        return True

    def search(i) -> bool:
        if i == len(nodes):
            return agrees()
        p = nodes[i]
        for v in fits[id(p)]:
            if consistent(p, v):
                assigned[id(p)] = v
                if search(i + 1):
                    return True
                del assigned[id(p)]
        return False

    if not search(0):
        return None
    return {p: assigned[id(p)] for p in ctx.nodes}
