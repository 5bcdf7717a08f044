"""The region of a buffer that accesses touch while some loops run, as (start, extent) per axis."""

from __future__ import annotations

from tvm.arith import Analyzer
from tvm.arith.linear import from_linear, to_linear

from .. import expr as E
from ..functor import post_order_visit


class RegionError(Exception):
    """The accesses are not affine in the varying loops, so no region can be given."""


def _uses(expr, var_ids) -> bool:
    found = []

    def check(node):
        if isinstance(node, E.Var) and id(node) in var_ids:
            found.append(node)

    post_order_visit(expr, check)
    return bool(found)


def access_region(index_lists, varying: dict, analyzer: Analyzer):
    """Union over index_lists of the points reached while each var in varying ranges over
    its (min, extent): one (start_expr, extent_int) per axis."""
    ids = {id(v) for v in varying}
    per_axis = None
    for indices in index_lists:
        bounds = []
        for index in indices:
            form = to_linear(analyzer.simplify(index))
            lo_off = hi_off = 0
            base = form.copy()
            for key, (atom, coeff) in list(form.terms.items()):
                if isinstance(atom, E.Var) and id(atom) in ids:
                    lo, extent = varying[atom]
                    if not isinstance(lo, E.IntImm) or not isinstance(extent, E.IntImm):
                        raise RegionError(f"loop {atom.name} does not have constant bounds")
                    first, last = coeff * lo.value, coeff * (lo.value + extent.value - 1)
                    lo_off += min(first, last)
                    hi_off += max(first, last)
                    del base.terms[key]
                elif _uses(atom, ids):
                    raise RegionError(f"index {index} is not affine in the loops inside")
            bounds.append((from_linear(base), lo_off, hi_off))
        if per_axis is None:
            per_axis = bounds
            continue
        merged = []
        for (b0, lo0, hi0), (b1, lo1, hi1) in zip(per_axis, bounds):
            delta = analyzer.simplify(b1 - b0)
            if not isinstance(delta, E.IntImm):
                raise RegionError(f"accesses at {b0} and {b1} differ by a non-constant amount")
            merged.append((b0, min(lo0, lo1 + delta.value), max(hi0, hi1 + delta.value)))
        per_axis = merged
    if per_axis is None:
        return None
    return [(analyzer.simplify(base + lo), hi - lo + 1) for base, lo, hi in per_axis]
