"""Legalisation of relax.layout_transform: a te.compute over the new shape reading x through
the index map's inverse (padding where the map pads)."""

from __future__ import annotations

import math

from tvm import te
from tvm.tir import expr as E
from tvm.tir.functor import substitute
from tvm.tir.schedule.bijection import NotBijective, inverse_and_shape

from ...op._utils import dims_of
from .common import register_legalize


def _constants_over(expr, var) -> list:
    """The divisors and moduli applied to var in expr (the splits the map makes of it)."""
    found = []

    def walk(e):
        if isinstance(e, (E.FloorDiv, E.FloorMod)) and isinstance(e.b, E.IntImm):
            if _uses(e.a, var):
                found.append(e.b.value)
            walk(e.a)
        elif isinstance(e, (E.Add, E.Sub, E.Mul)):
            walk(e.a)
            walk(e.b)

    walk(expr)
    return found


def _uses(expr, var) -> bool:
    if expr is var:
        return True
    return any(_uses(getattr(expr, f), var) for f in ("a", "b") if hasattr(expr, f))


def _inverse(index_map, dims):
    """(output vars, input index expressions of them, padded extents) for static dims; a pure
    permutation needs no static extent."""
    initial, final = index_map.initial_indices, index_map.final_indices
    if sorted(map(id, final)) == sorted(map(id, initial)) and all(
        isinstance(f, E.Var) for f in final
    ):
        where = {id(f): k for k, f in enumerate(final)}
        outs = [E.Var(f"v{k}", f.dtype) for k, f in enumerate(final)]
        return outs, [outs[where[id(v)]] for v in initial], list(dims)
    if not all(isinstance(d, E.IntImm) for d in dims):
        raise ValueError(
            f"layout_transform: legalising index_map {index_map!r} (not a permutation) needs a "
            f"static shape of x, got {[str(d) for d in dims]}"
        )
    padded = []
    for var, dim in zip(initial, dims):
        step = 1
        for c in (c for f in final for c in _constants_over(f, var)):
            step = step * c // math.gcd(step, c)
        padded.append(-(-dim.value // step) * step)
    try:
        outs, inverse, _ = inverse_and_shape(initial, final, padded)
    except NotBijective as err:
        raise ValueError(
            f"layout_transform: index_map {index_map!r} is not invertible over {padded}: {err}"
        ) from None
    return outs, inverse, padded


@register_legalize("relax.layout_transform")
def _layout_transform(bb, call):
    attrs = call.attrs
    x = call.args[0]
    in_dims = dims_of(x.struct_info)
    out_dims = dims_of(call.struct_info)
    if in_dims is None or out_dims is None:
        return call  # unknown shape: nothing to build a kernel from
    outs, inverse, padded = _inverse(attrs.index_map, in_dims)
    dtype = x.struct_info.dtype
    pad = E.const(0, dtype) if attrs.pad_value is None else attrs.pad_value.value
    if pad.dtype != dtype:
        pad = E.Cast(dtype, pad)

    def compute(data):
        def body(*j):
            vmap = {id(v): jj for v, jj in zip(outs, j)}
            idx = [substitute(e, {v: vmap[id(v)] for v in outs}) for e in inverse]
            value = data[tuple(idx)]
            conds = [E.LT(i, d) for i, d, p in zip(idx, in_dims, padded) if not _same(d, p)]
            if not conds:
                return value
            cond = conds[0]
            for c in conds[1:]:
                cond = E.And(cond, c)
            return E.Select(cond, value, pad)

        return te.compute(out_dims, body, name="te_layout_transform")

    return bb.call_te(compute, x, primfunc_name_hint="te_layout_transform")


def _same(dim, padded) -> bool:
    return not isinstance(padded, int) or (isinstance(dim, E.IntImm) and dim.value == padded)
