"""scatter_elements and scatter_nd over te tensors: each output element reduces over the
update positions that address it (the last one wins for "update"), then combines with data."""

from __future__ import annotations

from tvm import te, tir

_ELEMENT_REDUCTIONS = ("update", "add", "mul", "mean", "min", "max")
_ND_REDUCTIONS = ("update", "add", "mul", "min", "max")


def _scalar(value, dtype):
    dtype = str(dtype)
    if dtype.startswith(("float", "bfloat")):
        return tir.const(float(value), dtype)
    return tir.const(int(value), dtype)


def _check(who, data, indices, updates, reduction, allowed, name="reduction"):
    for arg, value in (("data", data), ("indices", indices), ("updates", updates)):
        if not isinstance(value, te.Tensor):
            raise TypeError(
                f"topi.{who}: argument {arg!r} must be a te.Tensor, got {type(value).__name__}"
            )
    if reduction not in allowed:
        raise ValueError(
            f"topi.{who}: argument {name!r} must be one of {allowed}, got {reduction!r}"
        )


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
            lambda *i: te.sum(tir.Select(hit(*i), value(*i), _scalar(0, dtype)), axis=raxes),
            name=f"{name}_sum",
        )
    elif reduction == "mul":
        red = te.compute(
            data.shape,
            lambda *i: _product(tir.Select(hit(*i), value(*i), _scalar(1, dtype)), axis=raxes),
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


def scatter_elements(data, indices, updates, axis=0, reduction="update"):
    """data with updates written at the positions indices gives along axis (indices and
    updates share a shape; a negative index counts from the end): "update" keeps the last
    write, "add"/"mul"/"mean"/"min"/"max" fold the writes into data's element."""
    _check("scatter_elements", data, indices, updates, reduction, _ELEMENT_REDUCTIONS)
    ndim = len(data.shape)
    if indices.ndim != ndim or updates.ndim != ndim:
        raise ValueError(
            f"topi.scatter_elements: arguments 'indices' and 'updates' must have data's {ndim} "
            f"axes, got {indices.ndim} and {updates.ndim}"
        )
    if not isinstance(axis, int) or not -ndim <= axis < ndim:
        raise ValueError(
            f"topi.scatter_elements: argument 'axis' = {axis!r} is out of range for {ndim} "
            "dimensions"
        )
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


def scatter_nd(data, indices, updates, mode):
    """data with updates written at the positions indices gives: indices is (M, Y...) (M
    coordinates of data's first axes for each position Y), updates is (Y..., data's other
    axes); mode "update" keeps the last write, "add"/"mul"/"min"/"max" fold them in."""
    return scatter_nd_indexed(data, indices, updates, mode, depth_last=False)


def scatter_nd_indexed(data, indices, updates, mode, depth_last):
    """scatter_nd with the coordinate axis of indices first (upstream's layout) or last
    (ONNX's and Relax's layout, depth_last): one implementation for both."""
    _check("scatter_nd", data, indices, updates, mode, _ND_REDUCTIONS, "mode")
    reduction = mode
    extent = indices.shape[-1] if depth_last else indices.shape[0]
    if not isinstance(extent, tir.IntImm):
        raise ValueError("topi.scatter_nd: the coordinate extent of indices must be static")
    depth = extent.value
    if depth > data.ndim:
        raise ValueError(
            f"topi.scatter_nd: indices address {depth} axes, data has only {data.ndim}"
        )
    lead = list(indices.shape[:-1] if depth_last else indices.shape[1:])
    raxes = [te.reduce_axis((0, extent), name=f"j{n}") for n, extent in enumerate(lead)]

    def coordinate(m):
        return indices[tuple(raxes) + (m,)] if depth_last else indices[(m,) + tuple(raxes)]

    def hit(*i):
        picks = [_wrap(coordinate(m), data.shape[m], str(i[m].dtype)) == i[m] for m in range(depth)]
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
