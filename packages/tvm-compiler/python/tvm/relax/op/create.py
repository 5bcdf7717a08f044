"""Tensor creation: zeros, ones, full (and their *_like forms), arange, tril/triu."""

from __future__ import annotations

import math

from tvm.ir.dtype import DataType
from tvm.ir.expr import RelaxExpr

from ..expr import PrimValue, const
from ..struct_info import PrimStructInfo, TensorStructInfo
from ._utils import arg_sinfo, op_name, shape_arg_values, tensor_arg, tensor_sinfo
from .base import call_op, register
from .manipulate import _shape_arg
from .op_attrs import InitAttrs


def _dtype(dtype):
    return "void" if dtype is None else str(DataType(str(dtype)))


def _required_dtype(who, dtype):
    """zeros/ones' dtype: required, and not the unknown dtype ("" or "void")."""
    if dtype is None or str(dtype) in ("", "void"):
        raise ValueError(f"{who}: dtype must be a concrete dtype such as 'float32', got {dtype!r}")
    return _dtype(dtype)


def _scalar_fill(call, index):
    fill = tensor_arg(call, index, "fill_value")
    if fill.ndim != 0:  # as upstream: a tensor of unknown rank is not known to be a scalar
        rank = "unknown" if fill.ndim == -1 else fill.ndim
        raise ValueError(
            f"{op_name(call)}: fill_value must be a 0-d (scalar) tensor, got ndim {rank}"
        )
    return fill


def _infer_init(call, ctx):
    shape_arg_values(call, 0, "shape")  # a shape, or TypeError
    dtype, vdevice = call.attrs.dtype, None
    if op_name(call) == "full":
        fill = _scalar_fill(call, 1)
        vdevice = fill.vdevice
        if dtype == "void":
            dtype = fill.dtype
    # The shape argument itself (a ShapeExpr, or a shape variable that stays symbolic).
    return TensorStructInfo(call.args[0], dtype, vdevice)


def _infer_init_like(call, ctx):
    data = tensor_arg(call, 0, "x")
    dtype = call.attrs.dtype if call.attrs.dtype != "void" else data.dtype
    if op_name(call) == "full_like":
        _scalar_fill(call, 1)
    return TensorStructInfo(data.shape, dtype, data.vdevice, ndim=data.ndim)


for _name in ("zeros", "ones", "full"):
    register(_name, _infer_init)
for _name in ("zeros_like", "ones_like", "full_like"):
    register(_name, _infer_init_like)


def zeros(shape, dtype):
    """A tensor of shape filled with 0."""
    return call_op(
        "zeros", [_shape_arg("zeros", shape)], InitAttrs(dtype=_required_dtype("zeros", dtype))
    )


def ones(shape, dtype):
    """A tensor of shape filled with 1."""
    return call_op(
        "ones", [_shape_arg("ones", shape)], InitAttrs(dtype=_required_dtype("ones", dtype))
    )


def _fill_arg(fill_value, dtype):
    if isinstance(fill_value, RelaxExpr):
        return fill_value
    return const(fill_value, None if dtype is None else str(dtype))


def full(shape, fill_value, dtype=None):
    """A tensor of shape filled with fill_value (a scalar or a scalar tensor)."""
    return call_op(
        "full",
        [_shape_arg("full", shape), _fill_arg(fill_value, dtype)],
        InitAttrs(dtype=_dtype(dtype)),
    )


def zeros_like(x, dtype=None):
    return call_op("zeros_like", [x], InitAttrs(dtype=_dtype(dtype)))


def ones_like(x, dtype=None):
    return call_op("ones_like", [x], InitAttrs(dtype=_dtype(dtype)))


def full_like(x, fill_value, dtype=None):
    return call_op("full_like", [x, _fill_arg(fill_value, dtype)], InitAttrs(dtype=_dtype(dtype)))


def _infer_arange(call, ctx):
    from tvm.tir import expr as E

    from ._utils import simplify

    values = []
    for i, name in enumerate(("start", "end", "step")):
        sinfo = arg_sinfo(call, i, name)
        if not isinstance(sinfo, PrimStructInfo):
            raise TypeError(f"arange: argument {name!r} must be a PrimValue, got {sinfo}")
        values.append(sinfo.value)
    dtype = call.attrs.dtype
    start, end, step = values
    if any(v is None for v in values):
        return TensorStructInfo(dtype=dtype, ndim=1)
    if all(isinstance(v, E.IntImm) for v in values):
        step_v = step.value
        if step_v == 0:
            raise ValueError("arange: step must not be zero")
        n = max(0, -((start.value - end.value) // step_v))
        return tensor_sinfo([n], dtype)
    if all(isinstance(v, (E.IntImm, E.FloatImm)) for v in values):
        if step.value == 0:
            raise ValueError("arange: step must not be zero")
        return tensor_sinfo([max(0, math.ceil((end.value - start.value) / step.value))], dtype)
    if all(str(v.dtype).startswith("int") for v in values):
        n = E.FloorDiv(
            end.astype("int64") - start.astype("int64") + step.astype("int64") - 1,
            step.astype("int64"),
        )
        return tensor_sinfo([simplify(n)], dtype)
    return TensorStructInfo(dtype=dtype, ndim=1)


register("arange", _infer_arange)


def arange(start, end=None, step=1, dtype=None):
    """[start, end) in steps of step, as NumPy's arange."""
    if end is None:
        start, end = 0, start
    vals = [v if isinstance(v, PrimValue) else PrimValue(v) for v in (start, end, step)]
    if dtype is None:
        dtype = "float32" if any(str(v.value.dtype).startswith("float") for v in vals) else "int64"
    return call_op("arange", vals, InitAttrs(dtype=_dtype(dtype)))


def _infer_tri(call, ctx):
    data = tensor_arg(call, 0, "x")
    if data.ndim not in (-1,) and data.ndim < 2:
        raise ValueError(f"{op_name(call)}: x must have at least 2 dimensions, got {data.ndim}")
    return data


register("tril", _infer_tri)
register("triu", _infer_tri)


def _diagonal(who: str, k) -> int:
    if isinstance(k, (bool, str)) or not hasattr(k, "__index__"):
        raise TypeError(f"{who}: argument 'k' must be an int, got {type(k).__name__} {k!r}")
    return int(k)


def tril(x, k: int = 0):
    """x with the elements above diagonal k set to zero."""
    from .op_attrs import TileAttrs

    return call_op("tril", [x], TileAttrs(k=_diagonal("tril", k)))


def triu(x, k: int = 0):
    """x with the elements below diagonal k set to zero."""
    from .op_attrs import TileAttrs

    return call_op("triu", [x], TileAttrs(k=_diagonal("triu", k)))


__all__ = [
    "tril",
    "triu",
    "arange",
    "full",
    "full_like",
    "ones",
    "ones_like",
    "zeros",
    "zeros_like",
]
