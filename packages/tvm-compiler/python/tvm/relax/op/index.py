"""Indexing: strided_slice, take and gather_nd."""

from __future__ import annotations

from tvm.tir import expr as E

from ..struct_info import PrimStructInfo, TensorStructInfo
from ._slice_math import slice_length
from ._utils import (
    arg_sinfo,
    dims_of,
    fmt_shape,
    int64,
    literal_dims,
    normalize_axes,
    normalize_axis,
    static,
    tensor_arg,
    tensor_sinfo,
)
from .base import call_op, register
from .op_attrs import GatherNDAttrs, StridedSliceAttrs, TakeAttrs


def _slice_extent(extent, begin, end, stride):
    n = static(extent)
    if n is not None:
        return len(range(*slice(begin, end, stride).indices(n)))
    if stride > 0 and 0 <= begin <= end:
        # A symbolic extent: both ends clamp to it (upstream's form, which needs no max(0, .)
        # since begin <= end).
        stop, start = E.Min(E.const(end, "int64"), extent), E.Min(E.const(begin, "int64"), extent)
        if stride == 1:
            return stop - start
        return E.FloorDiv(stop + E.const(stride - 1, "int64") - start, E.const(stride, "int64"))
    if stride > 0 and begin >= 0 and end >= 0:
        # A symbolic extent: the slice stops at whichever comes first, end or the extent.
        stop = E.Min(E.const(end, "int64"), extent) if end < 2**62 else extent
        length = E.Max(stop - E.const(begin, "int64"), E.const(0, "int64"))
        return E.FloorDiv(length + (stride - 1), E.const(stride, "int64"))
    return None


def _infer_strided_slice(call, ctx):
    data = tensor_arg(call, 0, "x")
    attrs = call.attrs
    # As upstream: slicing no axes keeps x's struct info (a shape variable included) unless its
    # dims are known; slicing some axes of a tensor of unknown dims forgets the shape.
    if data.ndim == -1:
        return data if not attrs.axes else TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice)
    axes = normalize_axes("strided_slice", attrs.axes, data.ndim, "axes")
    dims = dims_of(data)
    if dims is None:
        if not axes:
            return data
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=data.ndim)
    out = list(dims)
    for axis, b, e, s in zip(axes, attrs.begin, attrs.end, attrs.strides):
        if isinstance(s, int) and s == 0:
            raise ValueError(f"strided_slice: the stride on axis {axis} must not be 0")
        if all(isinstance(v, int) for v in (b, e, s)):
            extent = _slice_extent(dims[axis], b, e, s)
        else:  # a symbolic begin, end or stride: the extent is an expression of them
            extent = slice_length(b, e, s, dims[axis])
        if extent is None:
            return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=data.ndim)
        out[axis] = extent
    # Not re-simplified: a symbolic extent keeps upstream's min(end, n) - min(begin, n) form.
    return TensorStructInfo([int64(d) for d in out], data.dtype, data.vdevice)


register("strided_slice", _infer_strided_slice)


def _ints(who, name, values, symbolic: bool = False):
    """values as ints; with symbolic, an integer PrimExpr that is not a constant stays (int64)."""
    values = [values] if isinstance(values, (int, E.PrimExpr)) else list(values)
    out = []
    for v in values:
        if isinstance(v, E.IntImm) or (isinstance(v, int) and not isinstance(v, bool)):
            out.append(int(v))
        elif symbolic and isinstance(v, E.PrimExpr) and v.dtype.is_integer:
            out.append(v if str(v.dtype) == "int64" else v.astype("int64"))
        else:
            what = "ints or integer PrimExprs" if symbolic else "ints"
            raise TypeError(f"{who}: {name} must be {what}, got {v!r}")
    return tuple(out)


def strided_slice(x, axes, begin, end, strides=None, assume_inbound: bool = False):
    """x[begin:end:strides] on each of axes (Python's slice rules, clamped to the extent);
    begin, end and strides may hold symbolic integer PrimExprs."""
    who = "strided_slice"
    axes = _ints(who, "axes", axes)
    begin, end = _ints(who, "begin", begin, True), _ints(who, "end", end, True)
    strides = (1,) * len(axes) if strides is None else _ints(who, "strides", strides, True)
    if not len(axes) == len(begin) == len(end) == len(strides):
        from tvm.error import InternalError

        raise InternalError(  # upstream's ICHECK at construction
            f"{who}: axes, begin, end and strides must have one entry per axis, got "
            f"{len(axes)}, {len(begin)}, {len(end)}, {len(strides)}"
        )
    attrs = StridedSliceAttrs(
        axes=axes, begin=begin, end=end, strides=strides, assume_inbound=assume_inbound
    )
    return call_op("strided_slice", [x], attrs)


def _infer_take(call, ctx):
    data = tensor_arg(call, 0, "x")
    index_sinfo = arg_sinfo(call, 1, "indices")
    if isinstance(index_sinfo, PrimStructInfo):  # a PrimValue index: a 0-d one
        indices = TensorStructInfo([], index_sinfo.dtype)
    else:
        indices = tensor_arg(call, 1, "indices")
    if indices.dtype != "void" and not indices.dtype.startswith(("int", "uint")):
        raise TypeError(f"take: indices must be an integer tensor, got dtype {indices.dtype}")
    axis = call.attrs.axis
    if axis is None:
        if data.ndim != 1:  # as upstream, a tensor of unknown rank is not known to be 1-D
            raise ValueError(
                f"take: without an axis, x must be 1-D, got x of shape {fmt_shape(data)}"
            )
        axis = 0
    if data.ndim == -1 or indices.ndim == -1:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=-1)
    axis = normalize_axis("take", axis, data.ndim)
    # As upstream, only literal shapes (not the values behind a shape variable) give dims.
    dims, idims = literal_dims(data), literal_dims(indices)
    out_ndim = data.ndim - 1 + indices.ndim
    if dims is None or idims is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=out_ndim)
    return tensor_sinfo(dims[:axis] + idims + dims[axis + 1 :], data.dtype, data.vdevice)


register("take", _infer_take)


def take(x, indices, axis=None, mode: str = "fast"):
    """Elements of x at indices along axis (x must be 1-D when axis is None)."""
    if mode not in ("fast", "clip", "wrap"):
        raise ValueError(f"take: mode must be 'fast', 'clip' or 'wrap', got {mode!r}")
    return call_op("take", [x, indices], TakeAttrs(axis=axis, mode=mode))


__all__ = ["strided_slice", "take"]


def _infer_gather_nd(call, ctx):
    data, indices = tensor_arg(call, 0, "data"), tensor_arg(call, 1, "indices")
    batch_dims = call.attrs.batch_dims
    if indices.dtype != "void" and not indices.dtype.startswith(("int", "uint")):
        raise TypeError(f"gather_nd: indices must be an integer tensor, got dtype {indices.dtype}")
    data_dims, index_dims = dims_of(data), dims_of(indices)
    if index_dims is None or data_dims is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=-1)
    depth = static(index_dims[-1]) if index_dims else None
    if depth is None:
        raise ValueError(
            f"gather_nd: the last extent of indices {fmt_shape(index_dims)} must be static"
        )
    if batch_dims < 0 or batch_dims + depth > len(data_dims) or batch_dims >= len(index_dims):
        raise ValueError(
            f"gather_nd: batch_dims {batch_dims} with index depth {depth} does not fit data of "
            f"shape {fmt_shape(data_dims)} and indices of shape {fmt_shape(index_dims)}"
        )
    out = index_dims[:-1] + data_dims[batch_dims + depth :]
    return tensor_sinfo(out, data.dtype, data.vdevice)


register("gather_nd", _infer_gather_nd)


def gather_nd(data, indices, batch_dims: int = 0):
    """Slices of data picked by the last axis of indices (its first batch_dims axes shared)."""
    return call_op("gather_nd", [data, indices], GatherNDAttrs(batch_dims=int(batch_dims)))
