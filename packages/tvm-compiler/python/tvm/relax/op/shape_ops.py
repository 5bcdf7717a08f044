"""Shape <-> tensor conversions: shape_to_tensor (a Shape value as a 1-D int64 tensor) and
tensor_to_shape (a 1-D integer tensor's values as a Shape, known at run time)."""

from __future__ import annotations

from ..struct_info import ShapeStructInfo, TensorStructInfo
from ._utils import arg_sinfo, dims_of, fmt_shape, static, tensor_arg
from .base import call_op, register


def _infer_shape_to_tensor(call, ctx):
    sinfo = arg_sinfo(call, 0, "expr")
    if not isinstance(sinfo, ShapeStructInfo):
        raise TypeError(
            f"shape_to_tensor: argument 'expr' must be a shape, got struct info "
            f"{type(sinfo).__name__}"
        )
    if sinfo.ndim == -1:
        return TensorStructInfo(dtype="int64", ndim=1)
    return TensorStructInfo([sinfo.ndim], "int64")


def _infer_tensor_to_shape(call, ctx):
    data = tensor_arg(call, 0, "expr")
    if data.ndim not in (-1, 1):
        raise ValueError(
            f"tensor_to_shape: argument 'expr' must be a 1-D tensor, got shape {fmt_shape(data)}"
        )
    if data.dtype != "void" and not data.dtype.startswith("int"):
        raise TypeError(f"tensor_to_shape: argument 'expr' must be int64, got dtype {data.dtype}")
    dims = dims_of(data)
    length = static(dims[0]) if dims else None
    if length is None:
        raise ValueError(
            f"tensor_to_shape: argument 'expr' of shape {fmt_shape(data)} must have a static "
            "length (the rank of the shape it becomes)"
        )
    return ShapeStructInfo(ndim=length)


register("shape_to_tensor", _infer_shape_to_tensor)
register("tensor_to_shape", _infer_tensor_to_shape)


def shape_to_tensor(expr):
    """The values of a Shape expression as a 1-D int64 tensor."""
    return call_op("shape_to_tensor", [expr])


def tensor_to_shape(expr):
    """The values of a 1-D integer tensor of static length as a Shape (its values known only at
    run time)."""
    return call_op("tensor_to_shape", [expr])


__all__ = ["shape_to_tensor", "tensor_to_shape"]
