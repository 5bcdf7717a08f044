"""Reductions over axes of a te tensor (sum, max, min, argmax), NumPy's axis/keepdims."""

from __future__ import annotations

from tvm import te, tir


def _axes(who, ndim, axis):
    if axis is None:
        return list(range(ndim))
    axes = [axis] if isinstance(axis, int) else list(axis)
    out = []
    for a in axes:
        if not isinstance(a, int) or not -ndim <= a < ndim:
            raise ValueError(f"{who}: axis {a!r} is out of range for {ndim} dimensions")
        out.append(a % ndim)
    return sorted(set(out))


def _reduce(name, reducer, data, axis, keepdims, tuple_source=False):
    who = f"topi.{name}"
    if not isinstance(data, te.Tensor):
        raise TypeError(f"{who}: argument 'data' must be a te.Tensor, got {type(data).__name__}")
    axes = _axes(who, data.ndim, axis)
    kept = [k for k in range(data.ndim) if k not in axes]
    out_shape = (
        [1 if k in axes else data.shape[k] for k in range(data.ndim)]
        if keepdims
        else [data.shape[k] for k in kept]
    )
    raxes = [te.reduce_axis((0, data.shape[k]), name=f"k{k}") for k in axes]

    def body(*i):
        pos = dict(zip(kept, (i[k] for k in kept) if keepdims else i))
        pos.update({k: r.var for k, r in zip(axes, raxes)})
        value = data[tuple(pos[k] for k in range(data.ndim))]
        if not tuple_source:
            return reducer(value, axis=raxes)
        # The flat index over the reduced axes, first maximum kept (as NumPy's argmax).
        flat = 0
        for k, r in zip(axes, raxes):
            flat = flat * data.shape[k] + r.var
        return reducer(
            (tir.Cast("int32", flat) if not isinstance(flat, int) else flat, value), axis=raxes
        )

    out = te.compute(out_shape, body, name=f"{data.name}_red" if not tuple_source else "T_argmax")
    return out[0] if tuple_source else out


def sum(data, axis=None, keepdims=False):  # noqa: A001
    """The sum of data over axis (all axes when None)."""
    return _reduce("sum", te.sum, data, axis, keepdims)


def max(data, axis=None, keepdims=False):  # noqa: A001
    """The maximum of data over axis (all axes when None)."""
    return _reduce("max", te.max, data, axis, keepdims)


def min(data, axis=None, keepdims=False):  # noqa: A001
    """The minimum of data over axis (all axes when None)."""
    return _reduce("min", te.min, data, axis, keepdims)


def _argmax_combine(x, y):
    keep = x[1] >= y[1]
    return tir.Select(keep, x[0], y[0]), tir.Select(keep, x[1], y[1])


_argmax = te.comm_reducer(
    _argmax_combine, lambda t0, t1: (tir.const(-1, t0), te.min_value(t1)), name="argmax"
)


def argmax(data, axis=None, keepdims=False):
    """The (int32) index of the first maximum of data over axis (flattened when None)."""
    return _reduce("argmax", _argmax, data, axis, keepdims, tuple_source=True)
