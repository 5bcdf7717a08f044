"""upsampling: an NCHW or NHWC image scaled up (or down) by topi.image.resize2d."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E

from ..image.resize import resize2d

_LAYOUT_AXES = {"NCHW": (2, 3), "NHWC": (1, 2)}


def upsampling(
    data,
    scale_h,
    scale_w,
    layout="NCHW",
    method="nearest_neighbor",
    align_corners=False,
    output_shape=None,
):
    """data resized to round(H * scale_h) x round(W * scale_w): method nearest_neighbor,
    bilinear or bicubic; coordinates asymmetric, or align_corners."""
    if not isinstance(data, te.Tensor) or data.ndim != 4:
        raise ValueError(
            f"topi.nn.upsampling: argument 'data' must be a 4-D te.Tensor, got {data!r}"
        )
    if layout not in _LAYOUT_AXES:
        raise ValueError(
            f"topi.nn.upsampling: argument 'layout' must be NCHW or NHWC, got {layout!r}"
        )
    methods = {"nearest_neighbor": "nearest_neighbor", "bilinear": "linear", "bicubic": "cubic"}
    if method not in methods:
        raise ValueError(
            f"topi.nn.upsampling: argument 'method' must be one of {sorted(methods)}, got "
            f"{method!r}"
        )
    hpos, wpos = _LAYOUT_AXES[layout]
    size = []
    for axis, scale in ((hpos, scale_h), (wpos, scale_w)):
        extent = data.shape[axis]
        if not isinstance(extent, E.IntImm):
            raise ValueError("topi.nn.upsampling: the spatial extents of data must be static")
        size.append(E.const(round(extent.value * float(scale)), str(extent.dtype)))
    mode = "align_corners" if align_corners else "asymmetric"
    return resize2d(
        data,
        [0.0] * 4,
        size,
        layout=layout,
        method=methods[method],
        coordinate_transformation_mode=mode,
        output_shape=output_shape,
    )
