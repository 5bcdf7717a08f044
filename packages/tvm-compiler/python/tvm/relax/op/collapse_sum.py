"""collapse_sum_like / collapse_sum_to: data summed down to a shape that broadcasts to it (the
gradient of a broadcast)."""

from __future__ import annotations

from ..struct_info import TensorStructInfo
from ._utils import dims_of, fmt_shape, op_name, shape_arg_values, static, tensor_arg
from .base import call_op, register
from .manipulate import _shape_arg


def _check_collapsible(who, data, target_dims):
    """target must broadcast to data: no more axes, and each static extent 1 or data's."""
    dims = dims_of(data)
    if dims is None or target_dims is None:
        return
    if len(target_dims) > len(dims):
        raise ValueError(
            f"{who}: the target shape {fmt_shape(target_dims)} has more axes than data of shape "
            f"{fmt_shape(data)}"
        )
    for t, d in zip(target_dims[::-1], dims[::-1]):
        if static(t) not in (None, 1) and static(d) is not None and static(t) != static(d):
            raise ValueError(
                f"{who}: the target shape {fmt_shape(target_dims)} does not broadcast to data of "
                f"shape {fmt_shape(data)}"
            )


def _infer_collapse_sum_like(call, ctx):
    data, target = tensor_arg(call, 0, "data"), tensor_arg(call, 1, "collapse_target")
    _check_collapsible(op_name(call), data, dims_of(target))
    if target.shape is not None:
        return TensorStructInfo(target.shape, data.dtype, data.vdevice)
    return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=target.ndim)


def _infer_collapse_sum_to(call, ctx):
    data = tensor_arg(call, 0, "data")
    values, _ = shape_arg_values(call, 1, "shape")
    _check_collapsible(op_name(call), data, values)
    return TensorStructInfo(call.args[1], data.dtype, data.vdevice)


register("collapse_sum_like", _infer_collapse_sum_like)
register("collapse_sum_to", _infer_collapse_sum_to)


def collapse_sum_like(data, collapse_target):
    """data summed over the axes that broadcasting collapse_target to data's shape expands;
    the result has collapse_target's shape."""
    return call_op("collapse_sum_like", [data, collapse_target])


def collapse_sum_to(data, shape):
    """data summed down to shape (which must broadcast to data's shape)."""
    return call_op("collapse_sum_to", [data, _shape_arg("collapse_sum_to", shape)])


__all__ = ["collapse_sum_like", "collapse_sum_to"]
