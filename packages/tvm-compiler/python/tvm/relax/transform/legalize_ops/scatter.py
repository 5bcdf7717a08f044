"""Legalisation of scatter_elements and scatter_nd through topi (Relax's scatter_nd indices
hold the coordinates on their last axis, as ONNX's)."""

from __future__ import annotations

from tvm import topi

from .common import register_legalize


@register_legalize("relax.scatter_elements")
def _scatter_elements(bb, call):
    a = call.attrs
    return bb.call_te(
        topi.scatter_elements,
        *call.args,
        a.axis,
        a.reduction,
        primfunc_name_hint="scatter_elements",
    )


@register_legalize("relax.scatter_nd")
def _scatter_nd(bb, call):
    return bb.call_te(
        lambda data, indices, updates: topi.scatter.scatter_nd_indexed(
            data, indices, updates, call.attrs.reduction, depth_last=True
        ),
        *call.args,
        primfunc_name_hint="scatter_nd",
    )
