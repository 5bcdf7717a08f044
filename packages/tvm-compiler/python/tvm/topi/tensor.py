"""Tensors filled with a value (full, full_like) and the sum of a list of tensors."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E


def _fill(who, value, dtype):
    """value (a scalar, a PrimExpr or a 0-d te.Tensor) as an expression of dtype."""
    if isinstance(value, te.Tensor):
        if value.ndim != 0:
            raise ValueError(
                f"{who}: argument 'fill_value' must be a scalar or a 0-d te.Tensor, got shape "
                f"{[str(s) for s in value.shape]}"
            )
        value = value[()]
    elif isinstance(value, (bool, int, float)):
        dtype = str(dtype)
        if dtype == "bool":
            return E.const(bool(value), "bool")
        if dtype.startswith(("float", "bfloat")):
            return E.const(float(value), dtype)
        return E.const(int(value), dtype)
    elif not isinstance(value, E.PrimExpr):
        raise TypeError(
            f"{who}: argument 'fill_value' must be a scalar or a te.Tensor, got "
            f"{type(value).__name__}"
        )
    return value if str(value.dtype) == str(dtype) else value.astype(dtype)


def full(shape, dtype, fill_value):
    """A tensor of shape and dtype whose every element is fill_value."""
    if not isinstance(shape, (list, tuple)) and not hasattr(shape, "__len__"):
        raise TypeError(
            f"topi.full: argument 'shape' must be a list of extents, got {type(shape).__name__}"
        )
    value = _fill("topi.full", fill_value, dtype)
    return te.compute(list(shape), lambda *i: value, name="T_full")


def full_like(x, fill_value):
    """A tensor of x's shape and dtype whose every element is fill_value."""
    if not isinstance(x, te.Tensor):
        raise TypeError(f"topi.full_like: argument 'x' must be a te.Tensor, got {type(x).__name__}")
    value = _fill("topi.full_like", fill_value, x.dtype)
    return te.compute(x.shape, lambda *i: value, name="T_full_like")


def elemwise_sum(xs):
    """The elementwise sum of the tensors of xs (of one shape)."""
    xs = list(xs) if isinstance(xs, (list, tuple)) else xs
    if not isinstance(xs, list) or not xs or not all(isinstance(t, te.Tensor) for t in xs):
        raise TypeError("topi.elemwise_sum: argument 'xs' must be a non-empty list of te.Tensor")

    def body(*i):
        total = xs[0][i]
        for t in xs[1:]:
            total = total + t[i]
        return total

    return te.compute(xs[0].shape, body, name="T_elemwise_sum")
