"""unique: the distinct elements of a tensor (flattened, or slices along an axis), optionally
sorted, with the index of each one's first occurrence, the inverse map and the counts; the
result's length depends on the data, so only its rank is known."""

from __future__ import annotations

from ..struct_info import TensorStructInfo, TupleStructInfo
from ._utils import normalize_axis, tensor_arg
from .base import call_op, register
from .op_attrs import Attrs


class UniqueAttrs(Attrs):
    """unique: sorted, return_index, return_inverse, return_counts, axis."""


def _infer_unique(call, ctx):
    data = tensor_arg(call, 0, "x")
    a = call.attrs
    ndim = 1
    if a.axis is not None:
        if data.ndim == 0:
            raise ValueError("unique: argument 'x' is a scalar, which has no axis to take")
        normalize_axis("unique", a.axis, data.ndim)
        ndim = data.ndim  # unique slices along axis: the other dims are kept
    values = TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=ndim)
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
    often each occurs. With axis, the unique slices of x along that axis instead (sorted
    lexicographically, as numpy.unique(axis=...) does), the indices counting slices."""
    if axis is not None and (not isinstance(axis, int) or isinstance(axis, bool)):
        axis = getattr(axis, "value", axis)  # an IntImm / PrimValue's int
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"unique: argument 'axis' must be an int or None, got {axis!r}")
    attrs = UniqueAttrs(
        sorted=bool(sorted),
        return_index=bool(return_index),
        return_inverse=bool(return_inverse),
        return_counts=bool(return_counts),
        axis=axis,
    )
    return call_op("unique", [x], attrs)


__all__ = ["unique"]
