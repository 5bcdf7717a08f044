"""resize2d: NCHW or NHWC images scaled to a new height and width (nearest, linear or cubic,
with ONNX's coordinate transformation modes)."""

from __future__ import annotations

from tvm.ir.expr import PrimExpr

from ...expr import ShapeExpr
from .._utils import dims_of, fmt_shape, int64, shape_arg_values, tensor_arg, tensor_sinfo
from ..base import call_op, register
from ..op_attrs import Attrs

_METHODS = ("nearest_neighbor", "linear", "cubic")
_COORDS = (
    "half_pixel",
    "align_corners",
    "asymmetric",
    "pytorch_half_pixel",
    "tf_half_pixel_for_nn",
    "tf_crop_and_resize",
    "half_pixel_symmetric",
)
_ROUNDING = ("", "round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil")
_LAYOUTS = {"NCHW": (2, 3), "NHWC": (1, 2)}  # positions of H and W


class Resize2DAttrs(Attrs):
    """resize2d: roi, layout, method, coordinate_transformation_mode, rounding_method,
    cubic_alpha, cubic_exclude, extrapolation_value, out_dtype."""


def _infer_resize2d(call, ctx):
    who = "image.resize2d"
    a = call.attrs
    data = tensor_arg(call, 0, "data")
    size, _ = shape_arg_values(call, 1, "size")
    dtype = a.out_dtype if a.out_dtype != "void" else data.dtype
    if data.ndim not in (-1, 4):
        raise ValueError(f"{who}: data must be 4-D ({a.layout}), got shape {fmt_shape(data)}")
    dims = dims_of(data)
    if dims is None or size is None:
        return tensor_sinfo(None, dtype, data.vdevice, 4)
    h, w = _LAYOUTS[a.layout]
    dims[h], dims[w] = size
    return tensor_sinfo(dims, dtype, data.vdevice)


register("image.resize2d", _infer_resize2d)


def _choice(who, name, value, allowed):
    if value not in allowed:
        raise ValueError(f"{who}: {name} must be one of {list(allowed)}, got {value!r}")
    return value


def resize2d(
    data,
    size,
    roi=None,
    layout: str = "NCHW",
    method: str = "linear",
    coordinate_transformation_mode: str = "half_pixel",
    rounding_method: str = "round",
    cubic_alpha: float = -0.75,
    cubic_exclude: int = 0,
    extrapolation_value: float = 0.0,
    out_dtype=None,
):
    """data resized to size (height, width). roi (start_h, start_w, end_h, end_w), as fractions
    of the image, is read by the "tf_crop_and_resize" mode, whose samples outside the image
    take extrapolation_value."""
    who = "image.resize2d"
    if isinstance(size, (int, PrimExpr)):
        size = (size, size)
    if isinstance(size, (list, tuple)):
        if len(size) != 2:
            raise ValueError(f"{who}: size must be (height, width), got {size!r}")
        size = ShapeExpr([int64(s) for s in size])
    if roi is None:
        roi = (0.0, 0.0, 0.0, 0.0)
    elif isinstance(roi, (int, float)):
        roi = (float(roi),) * 4
    roi = tuple(float(r) for r in roi)
    if len(roi) != 4:
        raise ValueError(f"{who}: roi must be (start_h, start_w, end_h, end_w), got {roi!r}")
    attrs = Resize2DAttrs(
        roi=roi,
        layout=_choice(who, "layout", layout, _LAYOUTS),
        method=_choice(who, "method", method, _METHODS),
        coordinate_transformation_mode=_choice(
            who, "coordinate_transformation_mode", coordinate_transformation_mode, _COORDS
        ),
        rounding_method=_choice(who, "rounding_method", rounding_method, _ROUNDING),
        cubic_alpha=float(cubic_alpha),
        cubic_exclude=int(cubic_exclude),
        extrapolation_value=float(extrapolation_value),
        out_dtype=str(out_dtype or "void"),
    )
    return call_op(who, [data, size], attrs)
