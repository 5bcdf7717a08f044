"""Reductions over axes of a te tensor (sum, max, min, prod, all, any, argmax, argmin),
NumPy's axis/keepdims."""

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


def _reduce(name, reducer, data, axis, keepdims, tuple_source=False, index_dtype="int32"):
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
        # The flat index over the reduced axes (in index_dtype), for argmax/argmin.
        flat = None
        for k, r in zip(axes, raxes):
            v = r.var if str(r.var.dtype) == index_dtype else r.var.astype(index_dtype)
            extent = data.shape[k]
            extent = extent if str(extent.dtype) == index_dtype else extent.astype(index_dtype)
            flat = v if flat is None else flat * extent + v
        return reducer((flat, value), axis=raxes)

    out = te.compute(out_shape, body, name=f"{data.name}_red" if not tuple_source else f"T_{name}")
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


def prod(data, axis=None, keepdims=False):
    """The product of data over axis (all axes when None)."""
    return _reduce("prod", _prod, data, axis, keepdims)


def _bool_data(who, data):
    if isinstance(data, te.Tensor) and str(data.dtype) != "bool":
        raise TypeError(f"{who}: argument 'data' must be a bool te.Tensor, got {data.dtype}")


def all(data, axis=None, keepdims=False):  # noqa: A001
    """Whether every element of the bool tensor data over axis holds."""
    _bool_data("topi.all", data)
    return _reduce("all", _all, data, axis, keepdims)


def any(data, axis=None, keepdims=False):  # noqa: A001
    """Whether some element of the bool tensor data over axis holds."""
    _bool_data("topi.any", data)
    return _reduce("any", _any, data, axis, keepdims)


def _one(dtype):
    return tir.const(1.0 if str(dtype).startswith(("float", "bfloat")) else 1, dtype)


_prod = te.comm_reducer(lambda a, b: a * b, _one, name="prod")
_all = te.comm_reducer(tir.And, lambda t: tir.const(True, t), name="all")
_any = te.comm_reducer(tir.Or, lambda t: tir.const(False, t), name="any")


def _arg_reducer(name, keep_acc, worst):
    """(index, value) pairs folded in index order (x the accumulator): keep_acc(x, y) says
    whether the accumulated pair stays (>= keeps the first of equal values, > the last)."""

    def combine(x, y):
        keep = keep_acc(x[1], y[1])
        return tir.Select(keep, x[0], y[0]), tir.Select(keep, x[1], y[1])

    return te.comm_reducer(combine, lambda t0, t1: (tir.const(-1, t0), worst(t1)), name=name)


_ARG_REDUCERS = {
    ("argmax", False): _arg_reducer("argmax", lambda a, b: a >= b, te.min_value),
    ("argmax", True): _arg_reducer("argmax", lambda a, b: a > b, te.min_value),
    ("argmin", False): _arg_reducer("argmin", lambda a, b: a <= b, te.max_value),
    ("argmin", True): _arg_reducer("argmin", lambda a, b: a < b, te.max_value),
}


def arg_reduce(name, data, axis, keepdims, select_last_index=False, index_dtype="int32"):
    """argmax/argmin (name) of data over axis with the flat index in index_dtype (Relax's
    legalisation asks for int64; topi's functions give int32, as upstream)."""
    reducer = _ARG_REDUCERS[(name, bool(select_last_index))]
    return _reduce(name, reducer, data, axis, keepdims, True, index_dtype)


def argmax(data, axis=None, keepdims=False, select_last_index=False):
    """The (int32) index of the first (last, when select_last_index) maximum of data over
    axis (flattened when None)."""
    return arg_reduce("argmax", data, axis, keepdims, select_last_index)


def argmin(data, axis=None, keepdims=False, select_last_index=False):
    """The (int32) index of the first (last, when select_last_index) minimum of data over
    axis (flattened when None)."""
    return arg_reduce("argmin", data, axis, keepdims, select_last_index)
