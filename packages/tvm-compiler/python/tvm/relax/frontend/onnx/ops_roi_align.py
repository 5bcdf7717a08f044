"""The converter of ONNX RoiAlign: each region's bins averaged (or maxed) over a fixed grid of
bilinearly interpolated samples, as a te reduction."""

from __future__ import annotations

from tvm import te

from ._relax_api import tir
from .common import Node
from .registry import converter


def roi_align_te(x, rois, batch_index, out_h, out_w, ratio, scale, half_pixel, mode):
    """te: [num_rois, C, out_h, out_w] pooled from x [N, C, H, W] over rois [R, 4] (x1, y1,
    x2, y2) of the images batch_index [R], ratio x ratio samples per bin."""
    height, width = int(x.shape[2]), int(x.shape[3])
    fdt = "float32" if x.dtype != "float64" else "float64"
    iy = te.reduce_axis((0, ratio), name="iy")
    ix = te.reduce_axis((0, ratio), name="ix")

    def sample(r, c, ph, pw, sy, sx):
        offset = 0.5 if half_pixel else 0.0
        start_w, start_h = (
            rois[r, 0].astype(fdt) * scale - offset,
            rois[r, 1].astype(fdt) * scale - offset,
        )
        end_w, end_h = (
            rois[r, 2].astype(fdt) * scale - offset,
            rois[r, 3].astype(fdt) * scale - offset,
        )
        roi_w, roi_h = end_w - start_w, end_h - start_h
        if not half_pixel:
            roi_w, roi_h = tir.max(roi_w, 1.0), tir.max(roi_h, 1.0)
        bin_h, bin_w = roi_h / out_h, roi_w / out_w
        y = start_h + ph.astype(fdt) * bin_h + (sy.var.astype(fdt) + 0.5) * bin_h / ratio
        x_ = start_w + pw.astype(fdt) * bin_w + (sx.var.astype(fdt) + 0.5) * bin_w / ratio
        outside = tir.any(y < -1.0, y > float(height), x_ < -1.0, x_ > float(width))
        y, x_ = tir.max(y, 0.0), tir.max(x_, 0.0)
        y0 = tir.min(tir.floor(y), float(height - 1))
        x0 = tir.min(tir.floor(x_), float(width - 1))
        y = tir.min(y, float(height - 1)) if height > 0 else y
        x_ = tir.min(x_, float(width - 1)) if width > 0 else x_
        ly, lx = y - y0, x_ - x0
        yl, xl = y0.astype("int64"), x0.astype("int64")
        yh, xh = tir.min(yl + 1, height - 1), tir.min(xl + 1, width - 1)
        n = batch_index[r].astype("int64")
        taps = [
            ((1 - ly) * (1 - lx), yl, xl),
            ((1 - ly) * lx, yl, xh),
            (ly * (1 - lx), yh, xl),
            (ly * lx, yh, xh),
        ]
        values = [w * x[n, c, a, b].astype(fdt) for w, a, b in taps]
        zero = tir.const(0, fdt)
        if mode == "avg":
            total = values[0] + values[1] + values[2] + values[3]
        else:
            total = tir.max(tir.max(values[0], values[1]), tir.max(values[2], values[3]))
        return tir.Select(outside, zero, total)

    shape = [rois.shape[0], x.shape[1], out_h, out_w]
    if mode == "avg":
        summed = te.compute(
            shape,
            lambda r, c, ph, pw: te.sum(sample(r, c, ph, pw, iy, ix), axis=[iy, ix]),
            name="roi_align_sum",
        )
        count = float(ratio * ratio)
        return te.compute(shape, lambda *i: (summed[i] / count).astype(x.dtype), name="roi_align")
    pooled = te.compute(
        shape,
        lambda r, c, ph, pw: te.max(sample(r, c, ph, pw, iy, ix), axis=[iy, ix]),
        name="roi_align_max",
    )
    return te.compute(shape, lambda *i: pooled[i].astype(x.dtype), name="roi_align")


@converter("RoiAlign", since=10)
def _roi_align(node: Node):
    x, rois, batch_index = node.input(0), node.input(1), node.input(2)
    default_mode = "half_pixel" if node.opset >= 16 else "output_half_pixel"
    transform = node.attr("coordinate_transformation_mode", default_mode)
    if transform not in ("half_pixel", "output_half_pixel"):
        raise node.unsupported(f"coordinate_transformation_mode={transform!r}")
    mode = node.attr("mode", "avg")
    if mode not in ("avg", "max"):
        raise node.unsupported(f"mode={mode!r}")
    ratio = int(node.attr("sampling_ratio", 0))
    if ratio <= 0:
        raise node.unsupported(
            "sampling_ratio=0 (an adaptive sample grid, its size known only at run time)"
        )
    node.static_shape(x)
    return node.emit_te(
        roi_align_te,
        x,
        rois,
        batch_index,
        out_h=int(node.attr("output_height", 1)),
        out_w=int(node.attr("output_width", 1)),
        ratio=ratio,
        scale=float(node.attr("spatial_scale", 1.0)),
        half_pixel=transform == "half_pixel",
        mode=mode,
    )
