"""Running sums and products along an axis of a te tensor (cumsum, cumprod, any scanop)."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as tir_op

from .transform import reshape

_product = te.comm_reducer(lambda a, b: a * b, lambda dtype: E.const(1, dtype), name="prod")


def _scan(name, reducer, identity, data, axis, dtype, exclusive):
    if not isinstance(data, te.Tensor):
        raise TypeError(
            f"topi.{name}: argument 'data' must be a te.Tensor, got {type(data).__name__}"
        )
    if axis is None:  # over the flattened data
        size = E.const(1, "int64")
        for extent in data.shape:
            size = size * extent.astype("int64")
        data, axis = reshape(data, [size]), 0
    ndim = len(data.shape)
    if not -ndim <= axis < ndim:
        raise ValueError(f"topi.{name}: axis {axis} is out of range for a {ndim}-D data")
    axis %= ndim
    dtype = str(dtype or data.dtype)
    k = te.reduce_axis((0, data.shape[axis]), name="k")

    def element(*i):
        taken = k < i[axis] if exclusive else k <= i[axis]
        value = data[i[:axis] + (k,) + i[axis + 1 :]]
        if str(value.dtype) != dtype:
            value = value.astype(dtype)
        return reducer(tir_op.if_then_else(taken, value, E.const(identity, dtype)), axis=k)

    return te.compute(list(data.shape), element, name=name)


def cumsum(data, axis=None, dtype=None, exclusive=None):
    """Running sums of data along axis (of the flattened data when None); exclusive leaves
    each element out of its own sum."""
    return _scan("cumsum", te.sum, 0, data, axis, dtype, bool(exclusive))


def cumprod(data, axis=None, dtype=None, exclusive=None):
    """Running products of data along axis, as cumsum."""
    return _scan("cumprod", _product, 1, data, axis, dtype, bool(exclusive))


def scanop(data, binop, identity_value, op_name, axis=None, dtype=None, exclusive=None):
    """Running binop (associative and commutative, identity_value its identity) of data
    along axis, as cumsum with another operator."""
    if not callable(binop):
        raise TypeError(f"topi.scanop: argument 'binop' must be callable, got {binop!r}")
    identity = (
        identity_value.value
        if isinstance(identity_value, (E.IntImm, E.FloatImm))
        else identity_value
    )
    reducer = te.comm_reducer(
        lambda a, b: binop(a, b), lambda t: E.const(identity, t), name=op_name
    )
    return _scan(op_name, reducer, identity, data, axis, dtype, bool(exclusive))
