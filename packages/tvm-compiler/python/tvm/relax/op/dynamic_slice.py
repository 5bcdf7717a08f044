"""dynamic_strided_slice: strided_slice whose begin, end and strides are 1-D int64 tensors
known only at run time (one entry per axis of x), so only the rank of the result is known."""

from __future__ import annotations

from ..struct_info import TensorStructInfo
from ._utils import dims_of, fmt_shape, static, tensor_arg
from .base import call_op, register


def _infer_dynamic_strided_slice(call, ctx):
    who = "dynamic_strided_slice"
    data = tensor_arg(call, 0, "x")
    for index, name in ((1, "begin"), (2, "end"), (3, "strides")):
        arg = tensor_arg(call, index, name)
        if arg.ndim not in (-1, 1):
            raise ValueError(f"{who}: {name} must be a 1-D tensor, got shape {fmt_shape(arg)}")
        if arg.dtype != "void" and not arg.dtype.startswith("int"):
            raise TypeError(f"{who}: {name} must be an integer tensor, got dtype {arg.dtype}")
        dims = dims_of(arg)
        length = static(dims[0]) if dims else None
        if data.ndim != -1 and length is not None and length != data.ndim:
            raise ValueError(
                f"{who}: {name} of shape {fmt_shape(arg)} must have one entry per axis of x of "
                f"shape {fmt_shape(data)}"
            )
    return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=data.ndim)


register("dynamic_strided_slice", _infer_dynamic_strided_slice).set_attr(
    "RequiresArgumentShapes", False
)


def dynamic_strided_slice(x, begin, end, strides):
    """x[begin:end:strides] on every axis, Python's slice rules, with the three given as
    tensors computed at run time."""
    return call_op("dynamic_strided_slice", [x, begin, end, strides])


__all__ = ["dynamic_strided_slice"]
