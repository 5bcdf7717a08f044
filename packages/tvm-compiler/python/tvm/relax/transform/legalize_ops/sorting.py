"""Legalisation of sort, argsort and topk: a stable rank of every element along the axis
(how many elements come before it), then for each rank the element that has it."""

from __future__ import annotations

from tvm import te, tir
from tvm.tir import expr as E

from .common import register_legalize


def _at(i, axis, value):
    return tuple(i[:axis]) + (value,) + tuple(i[axis + 1 :])


def _order(x, axis, descending, count):
    """The positions along axis of the first count elements of x in sorted order."""
    n = x.shape[axis]
    itype = str(n.dtype) if isinstance(n, E.PrimExpr) else "int64"
    j = te.reduce_axis((0, n), name="j")

    def rank(*i):
        mine, other = x[i], x[_at(i, axis, j)]
        before = other > mine if descending else other < mine
        tie = tir.all(other == mine, j < i[axis])
        one, zero = tir.const(1, itype), tir.const(0, itype)
        return te.sum(tir.Select(tir.any(before, tie), one, zero), axis=j)

    ranks = te.compute(x.shape, rank, name="rank")
    src = te.reduce_axis((0, n), name="src")

    def pick(*i):
        hit = ranks[_at(i, axis, src)] == i[axis]
        return te.sum(tir.Select(hit, src, tir.const(0, itype)), axis=src)

    shape = list(x.shape)
    shape[axis] = count
    return te.compute(shape, pick, name="order")


def sort_te(x, axis, descending):
    axis %= len(x.shape)
    order = _order(x, axis, descending, x.shape[axis])
    return te.compute(x.shape, lambda *i: x[_at(i, axis, order[i])], name="sort")


def argsort_te(x, axis, descending, dtype):
    axis %= len(x.shape)
    order = _order(x, axis, descending, x.shape[axis])
    return te.compute(order.shape, lambda *i: order[i].astype(dtype), name="argsort")


def topk_te(x, k, axis, ret_type, largest, dtype):
    axis %= len(x.shape)
    order = _order(x, axis, largest, x.shape[axis] if k < 1 else k)
    values = te.compute(order.shape, lambda *i: x[_at(i, axis, order[i])], name="topk_values")
    indices = te.compute(order.shape, lambda *i: order[i].astype(dtype), name="topk_indices")
    return {"both": [values, indices], "values": values, "indices": indices}[ret_type]


@register_legalize("relax.sort")
def _sort(bb, call):
    a = call.attrs
    return bb.call_te(sort_te, call.args[0], a.axis, a.descending, primfunc_name_hint="sort")


@register_legalize("relax.argsort")
def _argsort(bb, call):
    a = call.attrs
    return bb.call_te(
        argsort_te, call.args[0], a.axis, a.descending, a.dtype, primfunc_name_hint="argsort"
    )


@register_legalize("relax.topk")
def _topk(bb, call):
    a = call.attrs
    return bb.call_te(
        topk_te,
        call.args[0],
        a.k,
        a.axis,
        a.ret_type,
        a.largest,
        a.dtype,
        primfunc_name_hint="topk",
    )
