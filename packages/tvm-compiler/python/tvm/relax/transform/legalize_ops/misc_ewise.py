"""Legalisation of size, outer, ewise_fma, eye and eye_like."""

from __future__ import annotations

from tvm import te, topi

from ...op._utils import dims_of
from .common import register_legalize, scalar


@register_legalize("relax.size")
def _size(bb, call):
    def size(x):
        count = scalar(1, "int64")
        for extent in x.shape:
            count = count * extent.astype("int64")
        return te.compute((), lambda: count, name="size")

    return bb.call_te(size, call.args[0], primfunc_name_hint="size")


@register_legalize("relax.outer")
def _outer(bb, call):
    def outer(x1, x2):
        return te.compute((x1.shape[0], x2.shape[0]), lambda i, j: x1[i] * x2[j], name="outer")

    return bb.call_te(outer, *call.args, primfunc_name_hint="outer")


@register_legalize("relax.ewise_fma")
def _ewise_fma(bb, call):
    def ewise_fma(x1, x2, x3):
        return te.compute(x1.shape, lambda *i: x1[i] * x2[i] + x3[i], name="ewise_fma")

    return bb.call_te(ewise_fma, *call.args, primfunc_name_hint="ewise_fma")


@register_legalize("relax.eye")
def _eye(bb, call):
    dtype = call.struct_info.dtype
    shape = dims_of(call.struct_info)
    k = call.args[2].value
    return bb.call_te(lambda: topi.eye(shape[0], shape[1], k, dtype), primfunc_name_hint="eye")


@register_legalize("relax.eye_like")
def _eye_like(bb, call):
    dtype = call.struct_info.dtype
    k = call.args[1].value

    def eye_like(x):
        return topi.eye(x.shape[0], x.shape[1], k, dtype)

    return bb.call_te(eye_like, call.args[0], primfunc_name_hint="eye_like")
