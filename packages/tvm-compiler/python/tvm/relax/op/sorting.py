"""Sorting: sort, argsort and topk along one axis."""

from __future__ import annotations

from tvm.tir import expr as E

from ..struct_info import TupleStructInfo
from ._utils import dims_of, normalize_axis, op_name, static, tensor_arg, tensor_sinfo
from .base import call_op, register
from .op_attrs import Attrs


class SortAttrs(Attrs):
    """sort: axis, descending."""


class ArgsortAttrs(Attrs):
    """argsort: axis, descending, dtype."""


class TopKAttrs(Attrs):
    """topk: k, axis, ret_type, largest, dtype."""


def _check_int_dtype(who: str, dtype) -> str:
    dtype = str(dtype)
    if not dtype.startswith(("int", "uint")):
        raise TypeError(f"{who}: dtype must be an integer dtype for the indices, got {dtype!r}")
    return dtype


def _sorted_input(call):
    data = tensor_arg(call, 0, "data")
    if data.ndim != -1:
        normalize_axis(op_name(call), call.attrs.axis, data.ndim)
    return data


def _infer_sort(call, ctx):
    data = _sorted_input(call)
    return tensor_sinfo(dims_of(data), data.dtype, data.vdevice, data.ndim)


def _infer_argsort(call, ctx):
    data = _sorted_input(call)
    return tensor_sinfo(dims_of(data), call.attrs.dtype, data.vdevice, data.ndim)


def _infer_topk(call, ctx):
    data = _sorted_input(call)
    a = call.attrs
    dims = dims_of(data)
    if dims is not None and a.k >= 1:
        axis = normalize_axis("topk", a.axis, data.ndim)
        extent = static(dims[axis])
        if extent is not None and a.k > extent:
            raise ValueError(
                f"topk: k {a.k} is larger than the extent {extent} of axis {a.axis} of data"
            )
        dims[axis] = E.const(a.k, "int64")
    values = tensor_sinfo(dims, data.dtype, data.vdevice, data.ndim)
    indices = tensor_sinfo(dims, a.dtype, data.vdevice, data.ndim)
    if a.ret_type == "values":
        return values
    if a.ret_type == "indices":
        return indices
    return TupleStructInfo([values, indices])


register("sort", _infer_sort)
register("argsort", _infer_argsort)
register("topk", _infer_topk)


def _axis(who: str, axis) -> int:
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"{who}: axis must be an int, got {axis!r}")
    return axis


def sort(x, axis: int = -1, descending: bool = False):
    """The values of x sorted along axis (ascending unless descending; stable)."""
    return call_op("sort", [x], SortAttrs(axis=_axis("sort", axis), descending=bool(descending)))


def argsort(data, axis: int = -1, descending: bool = False, dtype: str = "int32"):
    """The indices that sort data along axis (a stable sort: ties keep their order)."""
    attrs = ArgsortAttrs(
        axis=_axis("argsort", axis),
        descending=bool(descending),
        dtype=_check_int_dtype("argsort", dtype),
    )
    return call_op("argsort", [data], attrs)


def topk(
    data,
    k: int = 1,
    axis: int = -1,
    ret_type: str = "both",
    largest: bool = True,
    dtype: str = "int32",
):
    """The k largest (or smallest) values along axis and/or their indices, in sorted order;
    k < 1 keeps the whole axis. ret_type is "both" (a tuple), "values" or "indices"."""
    if not isinstance(k, int) or isinstance(k, bool):
        raise TypeError(f"topk: k must be an int, got {k!r}")
    if ret_type not in ("both", "values", "indices"):
        raise ValueError(f"topk: ret_type must be 'both', 'values' or 'indices', got {ret_type!r}")
    attrs = TopKAttrs(
        k=k,
        axis=_axis("topk", axis),
        ret_type=ret_type,
        largest=bool(largest),
        dtype=_check_int_dtype("topk", dtype),
    )
    return call_op("topk", [data], attrs)


__all__ = ["argsort", "sort", "topk"]
