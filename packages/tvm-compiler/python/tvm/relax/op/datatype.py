"""astype and wrap_param: a tensor converted to another dtype."""

from __future__ import annotations

from tvm.ir.dtype import DataType

from ..struct_info import TensorStructInfo
from ._utils import tensor_arg
from .base import call_op, register
from .op_attrs import AstypeAttrs, WrapParamAttrs


def _infer_astype(call, ctx):
    data = tensor_arg(call, 0, "x")
    return TensorStructInfo(data.shape, call.attrs.dtype, data.vdevice, ndim=data.ndim)


register("astype", _infer_astype)


def _infer_wrap_param(call, ctx):
    data = tensor_arg(call, 0, "data")
    return TensorStructInfo(data.shape, call.attrs.dtype, data.vdevice, ndim=data.ndim)


register("wrap_param", _infer_wrap_param)


def astype(x, dtype):
    """x converted elementwise to dtype."""
    return call_op("astype", [x], AstypeAttrs(dtype=_dtype_arg("astype", dtype)))


def _dtype_arg(func: str, dtype) -> str:
    """dtype's canonical name, or a ValueError naming func and its 'dtype' argument."""
    try:
        return str(DataType(str(dtype)))
    except (TypeError, ValueError) as err:
        raise ValueError(f"{func}: argument 'dtype' must be a data type, got {dtype!r}") from err


def wrap_param(data, dtype="float32"):
    """Cast input tensor which is model param to data type if the dtype of the input data is
    not the same as the given dtype (the frontends wrap a weight stored in another precision:
    LegalizeOps folds a constant's cast and leaves a tensor already of dtype as it is)."""
    return call_op("wrap_param", [data], WrapParamAttrs(dtype=_dtype_arg("wrap_param", dtype)))


__all__ = ["astype", "wrap_param"]
