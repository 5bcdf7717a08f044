"""Reductions over axes: sum, mean, max, min, prod, variance, std (axis, keepdims as NumPy)."""

from __future__ import annotations

from tvm.tir import expr as E

from ..struct_info import TensorStructInfo
from ._utils import dims_of, normalize_axes, op_name, tensor_arg, tensor_sinfo
from .base import call_op, register
from .op_attrs import ScanopAttrs, StatisticalAttrs


def _infer_reduce(call, ctx):
    who = op_name(call)
    data = tensor_arg(call, 0, "x")
    axis, keepdims = call.attrs.axis, call.attrs.keepdims
    if data.ndim == -1:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=-1)
    axes = list(range(data.ndim)) if axis is None else normalize_axes(who, axis, data.ndim)
    out_ndim = data.ndim if keepdims else data.ndim - len(axes)
    dims = dims_of(data)
    if dims is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=out_ndim)
    if keepdims:
        out = [E.const(1, "int64") if k in axes else d for k, d in enumerate(dims)]
    else:
        out = [d for k, d in enumerate(dims) if k not in axes]
    return tensor_sinfo(out, data.dtype, data.vdevice)


def _make(name):
    register(name, _infer_reduce)

    def constructor(x, axis=None, keepdims: bool = False):
        axes = None if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
        return call_op(name, [x], StatisticalAttrs(axis=axes, keepdims=bool(keepdims)))

    constructor.__name__ = name
    constructor.__qualname__ = name
    constructor.__doc__ = f"The {name} of x over axis (all axes when None)."
    return constructor


max = _make("max")  # noqa: A001
mean = _make("mean")
min = _make("min")  # noqa: A001
prod = _make("prod")
std = _make("std")
sum = _make("sum")  # noqa: A001
variance = _make("variance")


def _infer_cumsum(call, ctx):
    data = tensor_arg(call, 0, "data")
    dtype = call.attrs.dtype if call.attrs.dtype != "void" else data.dtype
    if call.attrs.axis is None:
        dims = dims_of(data)
        from ._utils import product

        return tensor_sinfo(None if dims is None else [product(dims)], dtype, data.vdevice, 1)
    if data.ndim != -1:
        normalize_axes(op_name(call), call.attrs.axis, data.ndim)
    return TensorStructInfo(data.shape, dtype, data.vdevice, ndim=data.ndim)


register("cumsum", _infer_cumsum)
register("cumprod", _infer_cumsum)


def cumsum(data, axis=None, dtype=None, exclusive: bool = False):
    """Running sums along axis (of the flattened data when None)."""
    return call_op(
        "cumsum",
        [data],
        ScanopAttrs(axis=axis, dtype=str(dtype or "void"), exclusive=bool(exclusive)),
    )


def cumprod(data, axis=None, dtype=None, exclusive: bool = False):
    """Running products along axis (of the flattened data when None)."""
    return call_op(
        "cumprod",
        [data],
        ScanopAttrs(axis=axis, dtype=str(dtype or "void"), exclusive=bool(exclusive)),
    )


__all__ = ["cumprod", "cumsum", "max", "mean", "min", "prod", "std", "sum", "variance"]
