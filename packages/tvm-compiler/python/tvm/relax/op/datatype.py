"""astype: a tensor converted to another dtype."""

from __future__ import annotations

from tvm.ir.dtype import DataType

from ..struct_info import TensorStructInfo
from ._utils import tensor_arg
from .base import call_op, register
from .op_attrs import AstypeAttrs


def _infer_astype(call, ctx):
    data = tensor_arg(call, 0, "x")
    return TensorStructInfo(data.shape, call.attrs.dtype, data.vdevice, ndim=data.ndim)


register("astype", _infer_astype)


def astype(x, dtype):
    """x converted elementwise to dtype."""
    return call_op("astype", [x], AstypeAttrs(dtype=str(DataType(str(dtype)))))


__all__ = ["astype"]
