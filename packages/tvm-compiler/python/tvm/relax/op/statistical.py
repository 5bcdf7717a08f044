"""Reductions over axes: sum, mean, max, min, prod, variance, std (axis, keepdims as NumPy)."""

from __future__ import annotations

from numbers import Integral

from tvm.tir import expr as E

from ..struct_info import TensorStructInfo, TupleStructInfo
from ._utils import dims_of, normalize_axes, op_name, tensor_arg, tensor_sinfo
from .base import call_op, register
from .op_attrs import ScanopAttrs, StatisticalAttrs, _attrs_kind


def _infer_reduce(call, ctx):
    who = op_name(call)
    data = tensor_arg(call, 0, "x")
    axis, keepdims = call.attrs.axis, call.attrs.keepdims
    if axis is None and not keepdims:  # a full reduction is a scalar, whatever the rank
        return TensorStructInfo([], data.dtype, data.vdevice)
    if data.ndim == -1:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=-1)
    if axis is None:  # keepdims: all ones, known from the rank alone
        return tensor_sinfo([1] * data.ndim, data.dtype, data.vdevice)
    axes = normalize_axes(who, axis, data.ndim)
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


def _scan_axis(who: str, axis):
    """A scan's axis: None or one int (upstream's Optional<int64_t> signature rejects the rest
    with TypeError, e.g. a second tensor passed where the axis goes)."""
    if axis is not None and (not isinstance(axis, Integral) or isinstance(axis, bool)):
        raise TypeError(f"{who}: axis must be an int or None, got {type(axis).__name__}")
    return None if axis is None else int(axis)


def cumsum(data, axis=None, dtype=None, exclusive: bool = False):
    """Running sums along axis (of the flattened data when None)."""
    return call_op(
        "cumsum",
        [data],
        ScanopAttrs(
            axis=_scan_axis("cumsum", axis), dtype=str(dtype or "void"), exclusive=bool(exclusive)
        ),
    )


def cumprod(data, axis=None, dtype=None, exclusive: bool = False):
    """Running products along axis (of the flattened data when None)."""
    return call_op(
        "cumprod",
        [data],
        ScanopAttrs(
            axis=_scan_axis("cumprod", axis), dtype=str(dtype or "void"), exclusive=bool(exclusive)
        ),
    )


MedianAttrs = _attrs_kind("MedianAttrs", "median: axis, keepdims.")


def _infer_median(call, ctx):
    """As upstream: a full reduction gives the median alone when its shape is known; along an
    axis (or a keepdims reduction of unknown rank) the tuple (values, int64 indices)."""
    data = tensor_arg(call, 0, "x")
    axis, keepdims = call.attrs.axis, call.attrs.keepdims
    dtype, vdev = data.dtype, data.vdevice
    if axis is None and not keepdims:
        return TensorStructInfo([], dtype, vdev)
    if axis is None and data.ndim != -1:
        return tensor_sinfo([1] * data.ndim, dtype, vdev)
    if data.ndim == -1:
        values = TensorStructInfo(dtype=dtype, vdevice=vdev, ndim=-1)
        return TupleStructInfo([values, TensorStructInfo(dtype="int64", vdevice=vdev, ndim=-1)])
    (axis,) = normalize_axes("median", axis, data.ndim)
    dims = dims_of(data)
    if dims is None:
        ndim = data.ndim if keepdims else data.ndim - 1
        out = [TensorStructInfo(dtype=d, vdevice=vdev, ndim=ndim) for d in (dtype, "int64")]
        return TupleStructInfo(out)
    dims = [E.const(1, "int64") if k == axis else d for k, d in enumerate(dims)]
    if not keepdims:
        dims = dims[:axis] + dims[axis + 1 :]
    return TupleStructInfo([tensor_sinfo(dims, dtype, vdev), tensor_sinfo(dims, "int64", vdev)])


register("median", _infer_median)


def median(x, axis=None, keepdims: bool = False):
    """The (lower) median of x: over all elements when axis is None (a tensor), else along the
    one axis, returning (values, indices) as upstream (and torch.median) do."""
    if axis is not None:
        axes = [axis] if isinstance(axis, Integral) else list(axis)
        if len(axes) != 1:
            raise ValueError(f"median: axis must name one axis, got {axis!r}")
        axis = (int(axes[0]),)
    return call_op("median", [x], MedianAttrs(axis=axis, keepdims=bool(keepdims)))


__all__ = ["cumprod", "cumsum", "median", "max", "mean", "min", "prod", "std", "sum", "variance"]
