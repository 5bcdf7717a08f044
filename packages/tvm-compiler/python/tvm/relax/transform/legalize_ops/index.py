"""Legalisation of strided_slice and take."""

from __future__ import annotations

from tvm import te, tir, topi
from tvm.ir.expr import PrimExpr
from tvm.tir import expr as E

from ...op._slice_math import canonical_index
from ...op._utils import dims_of, static
from ...struct_info import PrimStructInfo
from .common import register_legalize


def _start(begin, stride, extent):
    """Where Python's slice begin:...:stride starts on an axis of extent (maybe symbolic)."""
    n = static(extent)
    if not isinstance(begin, int) or not isinstance(stride, int):  # symbolic
        return canonical_index(begin, extent, stride)
    if n is not None:
        return slice(begin, None, stride).indices(n)[0]
    if begin >= 0:
        return E.Min(E.const(begin, "int64"), extent)
    return E.Max(extent + begin, E.const(0, "int64"))


@register_legalize("relax.strided_slice")
def _strided_slice(bb, call):
    attrs = call.attrs
    data = call.args[0].struct_info
    ndim = data.ndim
    in_dims = dims_of(data)
    out_dims = dims_of(call.struct_info)
    starts, steps = [0] * ndim, [1] * ndim
    for axis, b, s in zip(attrs.axes, attrs.begin, attrs.strides):
        axis %= ndim
        starts[axis], steps[axis] = _start(b, s, in_dims[axis]), s

    def strided_slice(x):
        return te.compute(
            out_dims,
            lambda *i: x[tuple(st + v * sp for v, st, sp in zip(i, starts, steps))],
            name="strided_slice",
        )

    return bb.call_te(strided_slice, call.args[0], primfunc_name_hint="strided_slice")


@register_legalize("relax.take")
def _take(bb, call):
    axis = call.attrs.axis
    mode = call.attrs.mode
    data = call.args[0].struct_info
    axis = 0 if axis is None else axis % data.ndim

    def take(x, indices):
        if isinstance(indices, PrimExpr):  # a PrimValue index: x without that axis
            shape = list(x.shape[:axis]) + list(x.shape[axis + 1 :])
            at = indices.astype("int64")
            return te.compute(shape, lambda *i: x[i[:axis] + (at,) + i[axis:]], name="T_take")
        return topi.take(x, indices, axis, mode=mode)

    index = call.args[1]
    sinfo = index.struct_info
    if isinstance(sinfo, PrimStructInfo) and sinfo.value is None:
        # A PrimValue of unknown value: bind it to a symbolic var te can read.
        var = tir.Var("index", sinfo.dtype)
        index = bb.match_cast(index, PrimStructInfo(value=var))
    return bb.call_te(take, call.args[0], index, primfunc_name_hint="take")
