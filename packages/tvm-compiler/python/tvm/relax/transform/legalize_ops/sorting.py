"""Legalisation of sort, argsort and topk through topi's stable-rank sort."""

from __future__ import annotations

from tvm import tir, topi

from ...op._utils import dims_of
from .common import assert_in_kernel, register_legalize


@register_legalize("relax.sort")
def _sort(bb, call):
    a = call.attrs
    return bb.call_te(topi.sort, call.args[0], a.axis, not a.descending, primfunc_name_hint="sort")


@register_legalize("relax.argsort")
def _argsort(bb, call):
    a = call.attrs
    return bb.call_te(
        lambda x: topi.argsort(x, None, a.axis, not a.descending, a.dtype),
        call.args[0],
        primfunc_name_hint="argsort",
    )


@register_legalize("relax.topk")
def _topk(bb, call):
    a = call.attrs
    lowered = bb.call_te(
        lambda x: topi.topk(x, a.k, a.axis, a.ret_type, not a.largest, a.dtype),
        call.args[0],
        primfunc_name_hint="topk",
    )
    dims = dims_of(call.args[0].struct_info)
    if a.k >= 1 and dims is not None:
        extent = dims[a.axis % len(dims)]
        if not isinstance(extent, tir.IntImm):  # a symbolic axis: k may exceed it at run time
            # topi's picks past the axis' end would read outside data (an empty axis gave
            # uninitialised memory)
            ok = tir.LE(tir.const(a.k, extent.dtype), extent)
            message = f"topk: k = {a.k} is larger than the extent of axis {a.axis} of data"
            assert_in_kernel(bb, lowered, ok, message)
    return lowered
