"""Advanced indexing and writes into te tensors: index_tensor/adv_index, index_put,
strided_set (within_index, make_idx), slice_scatter, sparse_to_dense, expand_like,
collapse_sum."""

from __future__ import annotations

from tvm import te, tir
from tvm.tir import expr as E

from .broadcast import _index, broadcast_shape


def _tensor(who, name, value):
    if not isinstance(value, te.Tensor):
        raise TypeError(
            f"topi.{who}: argument {name!r} must be a te.Tensor, got {type(value).__name__}"
        )


def _index_list(who, data, indices):
    indices = list(indices) if isinstance(indices, (list, tuple)) else [indices]
    if not indices:
        raise ValueError(f"topi.{who}: argument 'indices' must hold at least one tensor")
    for t in indices:
        _tensor(who, "indices", t)
        if not str(t.dtype).startswith(("int", "uint")):
            raise TypeError(f"topi.{who}: the index tensors must be integers, got {t.dtype}")
    if len(indices) > data.ndim:
        raise ValueError(f"topi.{who}: {len(indices)} index tensors for a {data.ndim}-D data")
    shape = list(indices[0].shape)
    for t in indices[1:]:
        shape = broadcast_shape(f"topi.{who}", shape, t.shape)
    return indices, shape


def index_tensor(data, indices):
    """data[I0, I1, ...] as NumPy's advanced indexing: the index tensors broadcast to B, the
    result is B + data's unindexed axes (a negative index counts from the end; one out of
    range is clamped into the axis)."""
    from .transform import wrapped_index

    _tensor("index_tensor", "data", data)
    indices, lead = _index_list("index_tensor", data, indices)
    k = len(indices)

    def body(*i):
        b, rest = i[: len(lead)], i[len(lead) :]
        picks = tuple(
            wrapped_index(_index(t, b), data.shape[axis]) for axis, t in enumerate(indices)
        )
        return data[picks + tuple(rest)]

    return te.compute(lead + list(data.shape[k:]), body, name="index_tensor")


def adv_index(data, indices):
    """NumPy-style indexing with tensors (index_tensor)."""
    return index_tensor(data, indices)


def index_put(data, indices, values, accumulate=False):
    """data with values written at data[I0, I1, ...] (values broadcast to the indexed shape):
    added when accumulate, else the last write to a position wins."""
    from .transform import wrapped_index

    _tensor("index_put", "data", data)
    _tensor("index_put", "values", values)
    indices, lead = _index_list("index_put", data, indices)
    k = len(indices)
    raxes = [te.reduce_axis((0, extent), name=f"b{n}") for n, extent in enumerate(lead)]
    rvars = tuple(r.var for r in raxes)

    def hit(i):
        return tir.all(
            *[
                wrapped_index(_index(t, rvars), data.shape[axis]) == i[axis]
                for axis, t in enumerate(indices)
            ]
        )

    def value(i):
        return _index(values, rvars + tuple(i[k:]))

    if accumulate:
        zero = tir.const(0, data.dtype)
        total = te.compute(
            data.shape,
            lambda *i: te.sum(tir.Select(hit(i), value(i), zero), axis=raxes),
            name="index_put_sum",
        )
        return te.compute(data.shape, lambda *i: data[i] + total[i], name="index_put")

    def flat():
        position = tir.const(0, "int64")
        for extent, r in zip(lead, rvars):
            position = position * extent.astype("int64") + r.astype("int64")
        return position

    last = te.compute(
        data.shape,
        lambda *i: te.max(tir.Select(hit(i), flat(), tir.const(-1, "int64")), axis=raxes),
        name="index_put_last",
    )

    def body(*i):
        position, coords = tir.max(last[i], 0), []
        for extent in reversed(lead):
            extent = extent.astype("int64")
            coords.append(tir.floormod(position, extent))
            position = tir.floordiv(position, extent)
        written = _index(values, tuple(reversed(coords)) + tuple(i[k:]))
        return tir.Select(last[i] >= 0, written, data[i])

    return te.compute(data.shape, body, name="index_put")


def within_index(b, e, s, i):
    """Whether position i is selected by the slice b:e:s (b, e already non-negative)."""
    forward = tir.all(b <= i, i < e, tir.floormod(i - b, s) == 0)
    backward = tir.all(e < i, i <= b, tir.floormod(b - i, 0 - s) == 0)
    return tir.Select(s < 0, backward, forward)


def make_idx(b, e, s, z, i):
    """The position within the slice b:e:s (of an axis of size z) of the selected array
    position i (meaningful where within_index holds)."""
    return tir.floordiv(i - b, s)


def strided_set(a, v, begin, end, strides=None):
    """a with a[begin:end:strides] (1-D int tensors, one entry per axis; a negative bound
    counts from the end) replaced by v."""
    for name, t in (("a", a), ("v", v), ("begin", begin), ("end", end)):
        _tensor("strided_set", name, t)
    if strides is not None:
        _tensor("strided_set", "strides", strides)
    ndim = a.ndim

    def body(*i):
        inside, at = [], []
        for axis in range(ndim):
            extent = a.shape[axis]
            dtype = str(i[axis].dtype)

            s = _entry(strides, axis, dtype, 1)
            b, e = _entry(begin, axis, dtype), _entry(end, axis, dtype)
            ext = extent if str(extent.dtype) == dtype else extent.astype(dtype)
            b = tir.Select(b < 0, b + ext, b)
            e = tir.Select(e < 0, e + ext, e)
            inside.append(within_index(b, e, s, i[axis]))
            at.append(make_idx(b, e, s, ext, i[axis]))
        return tir.if_then_else(tir.all(*inside), v[tuple(at)], a[i])

    return te.compute(a.shape, body, name="strided_set")


def _entry(t, axis, dtype, default=None):
    """t[axis] in dtype (default when t is None)."""
    value = t[axis] if t is not None else tir.const(default, dtype)
    return _cast(value, dtype)


def slice_scatter(input_tensor, src, start, end, step, axis):
    """[input_tensor with input_tensor[start:end:step] along axis replaced by src]."""
    _tensor("slice_scatter", "input_tensor", input_tensor)
    _tensor("slice_scatter", "src", src)
    ndim = input_tensor.ndim
    if not isinstance(axis, int) or not -ndim <= axis < ndim:
        raise ValueError(
            f"topi.slice_scatter: argument 'axis' = {axis!r} is out of range for {ndim} dimensions"
        )
    if not isinstance(step, int) or step < 1:
        raise ValueError(f"topi.slice_scatter: argument 'step' must be an int >= 1, got {step!r}")
    axis %= ndim

    def body(*i):
        x = i[axis]
        lo = tir.const(start, str(x.dtype)) if isinstance(start, int) else start
        hi = tir.const(end, str(x.dtype)) if isinstance(end, int) else end
        inside = tir.all(lo <= x, x < hi, tir.floormod(x - lo, step) == 0)
        at = i[:axis] + (tir.floordiv(x - lo, step),) + i[axis + 1 :]
        return tir.if_then_else(inside, src[at], input_tensor[i])

    return [te.compute(input_tensor.shape, body, name="slice_scatter")]


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0):
    """A dense tensor of output_shape holding sparse_values at sparse_indices (0-D: one
    position of a 1-D output; 1-D: positions of a 1-D output; 2-D: one row of coordinates per
    value) and default_value elsewhere; a 0-D sparse_values serves every position."""
    _tensor("sparse_to_dense", "sparse_indices", sparse_indices)
    _tensor("sparse_to_dense", "sparse_values", sparse_values)
    if sparse_indices.ndim > 2 or sparse_values.ndim > 1:
        raise ValueError(
            "topi.sparse_to_dense: sparse_indices must be 0-D, 1-D or 2-D and sparse_values "
            "0-D or 1-D"
        )
    output_shape = list(output_shape)
    dtype = sparse_values.dtype
    count = 1 if sparse_indices.ndim == 0 else sparse_indices.shape[0]
    r = te.reduce_axis((0, count), name="r")

    def coordinate(axis):
        if sparse_indices.ndim == 0:
            return sparse_indices[()]
        if sparse_indices.ndim == 1:
            return sparse_indices[r.var]
        return sparse_indices[r.var, axis]

    def hit(i):
        return tir.all(
            *[_cast(coordinate(axis), i[axis].dtype) == i[axis] for axis in range(len(i))]
        )

    last = te.compute(
        output_shape,
        lambda *i: te.max(
            tir.Select(hit(i), r.var.astype("int64"), tir.const(-1, "int64")), axis=r
        ),
        name="sparse_to_dense_last",
    )
    if isinstance(default_value, te.Tensor):
        default = default_value[()] if default_value.ndim == 0 else default_value[0]
    else:
        default = tir.const(default_value, dtype)

    def body(*i):
        position = tir.max(last[i], 0)
        if sparse_values.ndim == 0:
            written = sparse_values[()]
        else:
            written = sparse_values[_cast(position, str(sparse_values.shape[0].dtype))]
        return tir.Select(last[i] >= 0, written, _cast(default, dtype))

    return te.compute(output_shape, body, name="sparse_to_dense")


def _cast(value, dtype):
    return value if str(value.dtype) == str(dtype) else value.astype(dtype)


def expand_like(a, shape_like, axis):
    """a broadcast to shape_like's shape, its axes placed where axis (the new ones) is not."""
    _tensor("expand_like", "a", a)
    _tensor("expand_like", "shape_like", shape_like)
    new = sorted(x % shape_like.ndim for x in axis)
    if a.ndim + len(new) != shape_like.ndim:
        raise ValueError(
            f"topi.expand_like: a ({a.ndim}-D) and {len(new)} new axes do not make "
            f"shape_like's {shape_like.ndim} dimensions"
        )
    kept = [k for k in range(shape_like.ndim) if k not in new]
    return te.compute(shape_like.shape, lambda *i: a[tuple(i[k] for k in kept)], name="expand_like")


def collapse_sum(data, target_shape):
    """data summed down to target_shape (which broadcasts to data's shape): over its leading
    axes target_shape lacks and the axes where target_shape has 1."""
    _tensor("collapse_sum", "data", data)
    target = list(target_shape)
    lead = data.ndim - len(target)
    if lead < 0:
        raise ValueError("topi.collapse_sum: target_shape has more axes than data")
    axes = list(range(lead))
    for k, extent in enumerate(target):
        have = data.shape[lead + k]
        want = extent.value if isinstance(extent, E.IntImm) else extent
        if (
            isinstance(want, int)
            and want == 1
            and not (isinstance(have, E.IntImm) and have.value == 1)
        ):
            axes.append(lead + k)
    raxes = [te.reduce_axis((0, data.shape[k]), name=f"r{k}") for k in axes]

    def body(*i):
        index, rv = [], dict(zip(axes, raxes))
        for k in range(data.ndim):
            if k in rv:
                index.append(rv[k].var)
            else:
                index.append(i[k - lead] if k >= lead else 0)
        value = data[tuple(index)]
        return te.sum(value, axis=raxes) if raxes else value

    return te.compute(target, body, name="collapse_sum")
