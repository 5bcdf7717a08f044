"""Legalisation of scatter_elements and scatter_nd: each output element reduces over the update
positions that address it (the last one wins for "update"), then combines with data."""

from __future__ import annotations

from tvm import te, tir

from .common import register_legalize, scalar

_product = te.comm_reducer(lambda a, b: a * b, lambda t: tir.const(1, t), name="product")


def _wrap(index, extent, dtype):
    """An index counted from the end when negative, in dtype (the output loop's)."""
    index = index if str(index.dtype) == dtype else index.astype(dtype)
    extent = extent if str(extent.dtype) == dtype else extent.astype(dtype)
    return tir.Select(index < 0, index + extent, index)


def _combine(data, hit, value, raxes, reduction, position, name):
    """The te result of combining data with the values at the hits (position(*i) is the flat
    index of the update read, for "update": the last hit wins)."""
    dtype = data.dtype
    if reduction == "update":
        last = te.compute(
            data.shape,
            lambda *i: te.max(
                tir.Select(hit(*i), position(*i), tir.const(-1, "int64")), axis=raxes
            ),
            name=f"{name}_last",
        )
        return last, None
    if reduction in ("add", "mean"):
        red = te.compute(
            data.shape,
            lambda *i: te.sum(tir.Select(hit(*i), value(*i), scalar(0, dtype)), axis=raxes),
            name=f"{name}_sum",
        )
    elif reduction == "mul":
        red = te.compute(
            data.shape,
            lambda *i: _product(tir.Select(hit(*i), value(*i), scalar(1, dtype)), axis=raxes),
            name=f"{name}_product",
        )
    elif reduction == "max":
        red = te.compute(
            data.shape,
            lambda *i: te.max(tir.Select(hit(*i), value(*i), te.min_value(dtype)), axis=raxes),
            name=f"{name}_max",
        )
    else:
        red = te.compute(
            data.shape,
            lambda *i: te.min(tir.Select(hit(*i), value(*i), te.max_value(dtype)), axis=raxes),
            name=f"{name}_min",
        )
    count = None
    if reduction == "mean":
        count = te.compute(
            data.shape,
            lambda *i: te.sum(
                tir.Select(hit(*i), tir.const(1, "int64"), tir.const(0, "int64")), axis=raxes
            ),
            name=f"{name}_count",
        )
    return red, count


def _finish(data, red, count, reduction, read_update, name):
    def body(*i):
        old = data[i]
        if reduction == "update":
            last = red[i]
            return tir.Select(last >= 0, read_update(i, tir.max(last, 0)), old)
        if reduction == "add":
            return old + red[i]
        if reduction == "mul":
            return old * red[i]
        if reduction == "max":
            return tir.max(old, red[i])
        if reduction == "min":
            return tir.min(old, red[i])
        return (old + red[i]) / (count[i] + 1).astype(data.dtype)

    return te.compute(data.shape, body, name=name)


def scatter_elements_te(data, indices, updates, axis, reduction):
    ndim = len(data.shape)
    axis %= ndim
    k = te.reduce_axis((0, indices.shape[axis]), name="k")

    def src(i, along):
        return tuple(
            along if d == axis else tir.min(i[d], indices.shape[d] - 1) for d in range(ndim)
        )

    def hit(*i):
        inside = tir.all(*[i[d] < indices.shape[d] for d in range(ndim) if d != axis] or [True])
        dtype = str(i[axis].dtype)
        return tir.all(inside, _wrap(indices[src(i, k)], data.shape[axis], dtype) == i[axis])

    def value(*i):
        return updates[src(i, k)]

    def position(*i):
        return k.var.astype("int64")

    red, count = _combine(data, hit, value, [k], reduction, position, "scatter")

    def read_update(i, last):
        return updates[src(i, last.astype(str(k.var.dtype)))]

    return _finish(data, red, count, reduction, read_update, "scatter_elements")


def scatter_nd_te(data, indices, updates, reduction):
    lead = list(indices.shape[:-1])
    depth = int(indices.shape[-1])
    raxes = [te.reduce_axis((0, extent), name=f"j{n}") for n, extent in enumerate(lead)]

    def hit(*i):
        picks = [
            _wrap(indices[tuple(raxes) + (m,)], data.shape[m], str(i[m].dtype)) == i[m]
            for m in range(depth)
        ]
        return tir.all(*picks)

    def value(*i):
        return updates[tuple(raxes) + tuple(i[depth:])]

    def position(*i):
        flat = tir.const(0, "int64")
        for extent, r in zip(lead, raxes):
            flat = flat * extent.astype("int64") + r.var.astype("int64")
        return flat

    red, count = _combine(data, hit, value, raxes, reduction, position, "scatter_nd")

    def read_update(i, last):
        coords = []
        for extent in reversed(lead):
            extent = extent.astype("int64")
            coords.append(tir.floormod(last, extent))
            last = tir.floordiv(last, extent)
        return updates[tuple(reversed(coords)) + tuple(i[depth:])]

    return _finish(data, red, count, reduction, read_update, "scatter_nd")


@register_legalize("relax.scatter_elements")
def _scatter_elements(bb, call):
    a = call.attrs
    return bb.call_te(
        scatter_elements_te, *call.args, a.axis, a.reduction, primfunc_name_hint="scatter_elements"
    )


@register_legalize("relax.scatter_nd")
def _scatter_nd(bb, call):
    return bb.call_te(
        scatter_nd_te, *call.args, call.attrs.reduction, primfunc_name_hint="scatter_nd"
    )
