"""Legalisation of image.resize2d through topi.image (resize2d_te stays importable here for
the ONNX frontend's Resize)."""

from __future__ import annotations

from tvm.topi.image.resize import resize2d_te

from .common import register_legalize

__all__ = ["resize2d_te"]


@register_legalize("relax.image.resize2d")
def _resize2d(bb, call):
    a = call.attrs
    size = list(call.args[1].struct_info.values)
    return bb.call_te(
        resize2d_te,
        call.args[0],
        size,
        a.roi,
        a.layout,
        a.method,
        a.coordinate_transformation_mode,
        a.rounding_method,
        a.cubic_alpha,
        a.cubic_exclude,
        a.extrapolation_value,
        a.out_dtype,
        primfunc_name_hint="resize2d",
    )
