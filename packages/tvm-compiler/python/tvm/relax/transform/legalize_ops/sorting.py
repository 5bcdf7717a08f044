"""Legalisation of sort, argsort and topk through topi's stable-rank sort."""

from __future__ import annotations

from tvm import topi

from .common import register_legalize


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
    return bb.call_te(
        lambda x: topi.topk(x, a.k, a.axis, a.ret_type, not a.largest, a.dtype),
        call.args[0],
        primfunc_name_hint="topk",
    )
