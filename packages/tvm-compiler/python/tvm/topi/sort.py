"""sort, argsort and topk over te tensors: a stable rank of every element along the axis
(how many elements come before it), then for each rank the element that has it."""

from __future__ import annotations

from tvm import te, tir
from tvm.tir import expr as E


def _check(who, data, axis):
    if not isinstance(data, te.Tensor):
        raise TypeError(
            f"topi.{who}: argument 'data' must be a te.Tensor, got {type(data).__name__}"
        )
    if not isinstance(axis, int) or not -data.ndim <= axis < data.ndim:
        raise ValueError(
            f"topi.{who}: argument 'axis' = {axis!r} is out of range for {data.ndim} dimensions"
        )
    return axis % data.ndim


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


def sort(data, axis=-1, is_ascend=1):
    """data sorted along axis (ascending when is_ascend; equal elements keep their order)."""
    axis = _check("sort", data, axis)
    order = _order(data, axis, not is_ascend, data.shape[axis])
    return te.compute(data.shape, lambda *i: data[_at(i, axis, order[i])], name="sort")


def argsort(data, valid_count=None, axis=-1, is_ascend=1, dtype="float32"):
    """The positions that sort data along axis, as dtype (a stable sort)."""
    axis = _check("argsort", data, axis)
    if valid_count is not None:
        raise ValueError(
            "topi.argsort: argument 'valid_count' (sorting only a prefix, for NMS) is not "
            "supported; pass None"
        )
    order = _order(data, axis, not is_ascend, data.shape[axis])
    return te.compute(order.shape, lambda *i: order[i].astype(dtype), name="argsort")


def topk(data, k=1, axis=-1, ret_type="both", is_ascend=False, dtype="int64"):
    """The k largest (smallest, when is_ascend) elements along axis, in that order, and/or
    their positions as dtype: ret_type "both" ([values, indices]), "values" or "indices";
    k < 1 takes them all."""
    axis = _check("topk", data, axis)
    if ret_type not in ("both", "values", "indices"):
        raise ValueError(
            f"topi.topk: argument 'ret_type' must be 'both', 'values' or 'indices', got "
            f"{ret_type!r}"
        )
    if not isinstance(k, int):
        raise TypeError(f"topi.topk: argument 'k' must be an int, got {type(k).__name__}")
    extent = data.shape[axis]
    if k >= 1 and isinstance(extent, E.IntImm) and k > extent.value:
        raise ValueError(f"topi.topk: argument 'k' = {k} exceeds the axis extent {extent.value}")
    order = _order(data, axis, not is_ascend, extent if k < 1 else k)
    values = te.compute(order.shape, lambda *i: data[_at(i, axis, order[i])], name="topk_values")
    indices = te.compute(order.shape, lambda *i: order[i].astype(dtype), name="topk_indices")
    return {"both": [values, indices], "values": values, "indices": indices}[ret_type]
