"""Legalisation of the reductions (sum, mean, max, min, prod, variance, std, median)."""

from __future__ import annotations

from tvm import te, topi
from tvm.tir import op as T

from .common import register_legalize, scalar


def _axes(x, axis):
    return list(range(len(x.shape))) if axis is None else [a % len(x.shape) for a in axis]


def _count(x, axes):
    n = 1
    for a in axes:
        n = n * x.shape[a]
    return n


def _divide(t, n, name):
    """t / n elementwise, n an element count (an int or a symbolic product)."""
    divisor = scalar(n, t.dtype) if isinstance(n, int) else n.astype(t.dtype)
    return te.compute(t.shape, lambda *i: t[i] / divisor, name=name)


def mean_te(x, axis, keepdims):
    axes = _axes(x, axis)
    total = topi.sum(x, axes, keepdims)
    return _divide(total, _count(x, axes), "mean")


def variance_te(x, axis, keepdims):
    axes = _axes(x, axis)
    mean = mean_te(x, axes, True)
    dev = te.compute(
        x.shape,
        lambda *i: (
            (x[i] - mean[tuple(0 if k in axes else v for k, v in enumerate(i))])
            * (x[i] - mean[tuple(0 if k in axes else v for k, v in enumerate(i))])
        ),
        name="sq_dev",
    )
    return _divide(topi.sum(dev, axes, keepdims), _count(x, axes), "variance")


def std_te(x, axis, keepdims):
    var = variance_te(x, axis, keepdims)
    return te.compute(var.shape, lambda *i: T.sqrt(var[i]), name="std")


_TE = {
    "sum": topi.sum,
    "max": topi.max,
    "min": topi.min,
    "mean": mean_te,
    "prod": topi.prod,
    "variance": variance_te,
    "std": std_te,
}


def _legalize(name, te_func):
    def legalize(bb, call):
        axis = call.attrs.axis
        return bb.call_te(
            te_func,
            call.args[0],
            None if axis is None else list(axis),
            call.attrs.keepdims,
            primfunc_name_hint=name,
        )

    return legalize


for _name, _func in _TE.items():
    register_legalize(f"relax.{_name}", _legalize(_name, _func))


def median_te(x, axis, keepdims):
    """The lower median (element (n - 1) // 2 in sorted order, as torch.median): over all
    elements when axis is None, else (values, int64 indices) along the axis."""
    if axis is None:
        n = _count(x, range(len(x.shape)))
        flat = topi.reshape(x, (n,))
        ordered = topi.sort(flat, 0)
        mid = (n - 1) // 2
        shape = [1] * len(x.shape) if keepdims else []
        return te.compute(shape, lambda *i: ordered[mid], name="median")
    a = axis[0] % len(x.shape)
    ordered, order = topi.sort(x, a), topi.argsort(x, axis=a, dtype="int64")
    mid = (x.shape[a] - 1) // 2
    shape = [1 if k == a else d for k, d in enumerate(x.shape)]
    if not keepdims:
        shape = shape[:a] + shape[a + 1 :]

    def at(t):
        def pick(*i):
            i = list(i)
            return t[tuple(i[:a] + [mid] + i[a + (1 if keepdims else 0) :])]

        return pick

    return [
        te.compute(shape, at(ordered), name="median"),
        te.compute(shape, at(order), name="median_indices"),
    ]


register_legalize("relax.median", _legalize("median", median_te))
