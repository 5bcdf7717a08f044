"""Selection and search: where, argmax, argmin."""

from __future__ import annotations

from tvm.ir import structural_equal
from tvm.tir import expr as E

from ..expr import ShapeExpr
from ..struct_info import TensorStructInfo
from ._utils import broadcast_dims, dims_of, normalize_axis, op_name, tensor_arg, tensor_sinfo
from .base import call_op, register
from .binary import _vdevice
from .op_attrs import Attrs


def _infer_where(call, ctx):
    cond = tensor_arg(call, 0, "condition")
    x1, x2 = tensor_arg(call, 1, "x1"), tensor_arg(call, 2, "x2")
    vdevice = _vdevice("where", x1, x2)
    if cond.vdevice is not None and vdevice is not None:
        if not structural_equal(cond.vdevice, vdevice):
            raise ValueError(
                f"where: condition is on VDevice {cond.vdevice} and the values on {vdevice}; "
                "all three must be on the same VDevice"
            )
    vdevice = vdevice if vdevice is not None else cond.vdevice
    if cond.dtype != "bool":
        raise TypeError(f"where: condition must be a bool tensor, got dtype {cond.dtype}")
    if "void" not in (x1.dtype, x2.dtype) and x1.dtype != x2.dtype:
        raise TypeError(
            f"where: x1 has dtype {x1.dtype} and x2 has dtype {x2.dtype}; they must be equal"
        )
    dtype = "void" if "void" in (x1.dtype, x2.dtype) else x1.dtype
    ndims = [s.ndim for s in (cond, x1, x2)]
    ndim = -1 if -1 in ndims else max(ndims)
    # As upstream: only literal shapes broadcast; three tensors of one shape variable keep it.
    if all(isinstance(s.shape, ShapeExpr) for s in (cond, x1, x2)):
        dims = broadcast_dims("where", x1, x2)
        if dims is not None:
            dims = broadcast_dims(
                "where", cond, TensorStructInfo(dims, dtype), ("condition", "the values")
            )
        return tensor_sinfo(dims, dtype, vdevice, ndim)
    if cond.shape is not None and cond.shape.same_as(x1.shape) and cond.shape.same_as(x2.shape):
        return TensorStructInfo(cond.shape, dtype, vdevice)
    return TensorStructInfo(dtype=dtype, vdevice=vdevice, ndim=ndim)


register("where", _infer_where)


def where(condition, x1, x2):
    """x1 where condition holds, else x2 (all three broadcast)."""
    return call_op("where", [condition, x1, x2])


class ArgmaxArgminAttrs(Attrs):
    """argmax/argmin: axis, keepdims."""


def _infer_arg(call, ctx):
    data = tensor_arg(call, 0, "x")
    axis, keepdims = call.attrs.axis, call.attrs.keepdims
    if data.ndim == -1:  # only a full reduction without keepdims has a known shape: ()
        if axis is None and not keepdims:
            return TensorStructInfo([], "int64", data.vdevice)
        return TensorStructInfo(dtype="int64", vdevice=data.vdevice, ndim=-1)
    dims = dims_of(data)
    if axis is None:
        out = [E.const(1, "int64")] * data.ndim if keepdims else []
        return tensor_sinfo(out, "int64", data.vdevice)
    axis = normalize_axis(op_name(call), axis, data.ndim)
    if dims is None:
        return TensorStructInfo(dtype="int64", ndim=data.ndim - (not keepdims))
    out = [
        (E.const(1, "int64") if keepdims else None) if k == axis else d for k, d in enumerate(dims)
    ]
    return tensor_sinfo([d for d in out if d is not None], "int64", data.vdevice)


register("argmax", _infer_arg)
register("argmin", _infer_arg)


def argmax(x, axis=None, keepdims: bool = False):
    """The int64 index of the maximum of x over axis (flattened when None)."""
    return call_op("argmax", [x], ArgmaxArgminAttrs(axis=axis, keepdims=bool(keepdims)))


def argmin(x, axis=None, keepdims: bool = False):
    """The int64 index of the minimum of x over axis (flattened when None)."""
    return call_op("argmin", [x], ArgmaxArgminAttrs(axis=axis, keepdims=bool(keepdims)))


__all__ = ["argmax", "argmin", "where"]
