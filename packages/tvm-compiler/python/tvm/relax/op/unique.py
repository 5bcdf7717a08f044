"""unique: the distinct elements of a tensor (flattened), optionally sorted, with the index
of each one's first occurrence, the inverse map and the counts; the result's length depends
on the data, so only its rank is known."""

from __future__ import annotations

from ..struct_info import TensorStructInfo, TupleStructInfo
from ._utils import tensor_arg
from .base import call_op, register
from .op_attrs import Attrs


class UniqueAttrs(Attrs):
    """unique: sorted, return_index, return_inverse, return_counts, axis."""


def _infer_unique(call, ctx):
    data = tensor_arg(call, 0, "x")
    a = call.attrs
    values = TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=1)
    extra = []
    if a.return_index:
        extra.append(TensorStructInfo(dtype="int64", vdevice=data.vdevice, ndim=1))
    if a.return_inverse:
        extra.append(TensorStructInfo(dtype="int64", vdevice=data.vdevice, ndim=1))
    if a.return_counts:
        extra.append(TensorStructInfo(dtype="int64", vdevice=data.vdevice, ndim=1))
    return TupleStructInfo([values, *extra]) if extra else values


register("unique", _infer_unique).set_attr("RequiresArgumentShapes", False)


def unique(
    x,
    sorted: bool = True,  # noqa: A002  (upstream's name)
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis=None,
):
    """The unique elements of x flattened (ascending when sorted, else in order of first
    appearance); with the flags, also a tuple's further fields in this order: the index in x of
    each one's first occurrence, for each element of x its position in the result, and how
    often each occurs. Unique slices along an axis are not supported yet."""
    if axis is not None:
        raise NotImplementedError("unique: axis is not supported yet (only the flattened form)")
    attrs = UniqueAttrs(
        sorted=bool(sorted),
        return_index=bool(return_index),
        return_inverse=bool(return_inverse),
        return_counts=bool(return_counts),
        axis=None,
    )
    return call_op("unique", [x], attrs)


__all__ = ["unique"]
