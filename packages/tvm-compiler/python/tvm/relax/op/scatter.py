"""Scatters: scatter_elements and scatter_nd write (or combine) updates into a copy of data."""

from __future__ import annotations

from ._utils import dims_of, fmt_shape, normalize_axis, static, tensor_arg, tensor_sinfo
from .base import call_op, register
from .op_attrs import Attrs

_REDUCTIONS = ("update", "add", "mul", "mean", "max", "min")


class ScatterElementsAttrs(Attrs):
    """scatter_elements: axis, reduction."""


class ScatterNDAttrs(Attrs):
    """scatter_nd: reduction."""


def _operands(call, who):
    data = tensor_arg(call, 0, "data")
    indices = tensor_arg(call, 1, "indices")
    updates = tensor_arg(call, 2, "updates")
    if indices.dtype != "void" and not indices.dtype.startswith(("int", "uint")):
        raise TypeError(f"{who}: indices must be an integer tensor, got dtype {indices.dtype}")
    if "void" not in (data.dtype, updates.dtype) and data.dtype != updates.dtype:
        raise TypeError(
            f"{who}: updates has dtype {updates.dtype} but data has dtype {data.dtype}; they "
            "must be equal"
        )
    return data, indices, updates


def _result(data):
    return tensor_sinfo(dims_of(data), data.dtype, data.vdevice, data.ndim)


def _infer_scatter_elements(call, ctx):
    who = "scatter_elements"
    data, indices, updates = _operands(call, who)
    if data.ndim != -1:
        normalize_axis(who, call.attrs.axis, data.ndim)
        if indices.ndim not in (-1, data.ndim):
            raise ValueError(
                f"{who}: indices of shape {fmt_shape(indices)} must have the rank of data of "
                f"shape {fmt_shape(data)}"
            )
    idims, udims = dims_of(indices), dims_of(updates)
    if idims is not None and udims is not None:
        if len(idims) != len(udims) or any(
            static(a) is not None and static(b) is not None and static(a) != static(b)
            for a, b in zip(idims, udims)
        ):
            raise ValueError(
                f"{who}: updates of shape {fmt_shape(updates)} must have the shape of indices "
                f"{fmt_shape(indices)}"
            )
    return _result(data)


def _infer_scatter_nd(call, ctx):
    who = "scatter_nd"
    data, indices, updates = _operands(call, who)
    idims = dims_of(indices)
    if data.ndim == -1 or idims is None or updates.ndim == -1:
        return _result(data)
    depth = static(idims[-1]) if idims else None
    if depth is None or depth > data.ndim:
        raise ValueError(
            f"{who}: the last axis of indices of shape {fmt_shape(indices)} must be a static "
            f"extent of at most the rank of data of shape {fmt_shape(data)}"
        )
    expected = len(idims) - 1 + data.ndim - depth
    if updates.ndim != expected:
        raise ValueError(
            f"{who}: updates of shape {fmt_shape(updates)} must have rank {expected} (indices "
            f"{fmt_shape(indices)}, data {fmt_shape(data)})"
        )
    return _result(data)


register("scatter_elements", _infer_scatter_elements)
register("scatter_nd", _infer_scatter_nd)


def _reduction(who, reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{who}: reduction must be one of {list(_REDUCTIONS)}, got {reduction!r}")
    return reduction


def scatter_elements(data, indices, updates, axis: int = 0, reduction: str = "update"):
    """A copy of data where, along axis, position indices[i] takes updates[i] (reduction
    "update"), or combines with it ("add", "mul", "mean", "max", "min"). Negative indices count
    from the end of the axis."""
    who = "scatter_elements"
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"{who}: axis must be an int, got {axis!r}")
    attrs = ScatterElementsAttrs(axis=axis, reduction=_reduction(who, reduction))
    return call_op(who, [data, indices, updates], attrs)


def scatter_nd(data, indices, updates, reduction: str = "update"):
    """A copy of data where the slice at each index tuple indices[..., :] takes (or combines
    with) the matching slice of updates."""
    who = "scatter_nd"
    return call_op(
        who, [data, indices, updates], ScatterNDAttrs(reduction=_reduction(who, reduction))
    )


__all__ = ["scatter_elements", "scatter_nd"]
