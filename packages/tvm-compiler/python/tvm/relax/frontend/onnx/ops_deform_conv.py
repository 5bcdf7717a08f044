"""The converter of ONNX DeformConv (2-D): the input sampled bilinearly at every kernel tap's
offset position (times the mask) as a te computation, then a grouped matmul with the weights."""

from __future__ import annotations

from tvm import te
from tvm.relax import op as R

from ._relax_api import tir
from .common import Node
from .registry import converter


def deform_columns_te(x, offset, mask, kernel, strides, dilations, pads, offset_group):
    """te: [N, C, kh, kw, oh, ow]: x[n, c] at (oy * sh - pad + ky * dh + dy, ...) with the
    offsets (dy, dx) of c's offset group, zero outside the image, times the mask."""
    _, channels, height, width = (int(d) for d in x.shape)
    kh, kw = kernel
    oh, ow = int(offset.shape[2]), int(offset.shape[3])
    per_group = channels // offset_group
    fdt = "float64" if x.dtype == "float64" else "float32"

    def compute(n, c, ky, kx, oy, ox):
        g = c // per_group
        tap = (g * kh + ky) * kw + kx
        py = (oy * strides[0] - pads[0] + ky * dilations[0]).astype(fdt) + offset[
            n, tap * 2, oy, ox
        ].astype(fdt)
        px = (ox * strides[1] - pads[1] + kx * dilations[1]).astype(fdt) + offset[
            n, tap * 2 + 1, oy, ox
        ].astype(fdt)
        y0, x0 = tir.floor(py), tir.floor(px)
        ly, lx = py - y0, px - x0
        yi, xi = y0.astype("int64"), x0.astype("int64")
        total = tir.const(0, fdt)
        for dy, wy in ((0, 1 - ly), (1, ly)):
            for dx, wx in ((0, 1 - lx), (1, lx)):
                r, s = yi + dy, xi + dx
                inside = tir.all(r >= 0, r < height, s >= 0, s < width)
                rr = tir.max(tir.min(r, height - 1), 0)
                ss = tir.max(tir.min(s, width - 1), 0)
                value = tir.Select(inside, x[n, c, rr, ss].astype(fdt), tir.const(0, fdt))
                total = total + wy * wx * value
        if mask is not None:
            total = total * mask[n, tap, oy, ox].astype(fdt)
        return total.astype(x.dtype)

    shape = [x.shape[0], channels, kh, kw, oh, ow]
    return te.compute(shape, compute, name="deform_columns")


@converter("DeformConv", since=19)
def _deform_conv(node: Node):
    x, w, offset = node.input(0), node.input(1), node.input(2)
    bias, mask = node.input(3, optional=True), node.input(4, optional=True)
    x_shape, w_shape = node.static_shape(x), node.static_shape(w, "weight")
    off_shape = node.static_shape(offset, "offset")
    if len(x_shape) != 4:
        raise node.unsupported(f"a {len(x_shape) - 2}-D DeformConv (only 2-D)")
    n, channels = x_shape[:2]
    out_channels, per_group = w_shape[:2]
    kernel = list(node.attr("kernel_shape", w_shape[2:]))
    strides = list(node.attr("strides", [1, 1]))
    dilations = list(node.attr("dilations", [1, 1]))
    pads = list(node.attr("pads", [0, 0, 0, 0]))
    group = node.attr("group", 1)
    offset_group = node.attr("offset_group", 1)
    taps = kernel[0] * kernel[1]
    if (
        channels != per_group * group
        or out_channels % group
        or channels % offset_group
        or off_shape[1] != offset_group * taps * 2
    ):
        raise ValueError(
            f"from_onnx: {node.where()}: X {x_shape}, W {w_shape} and offset {off_shape} do "
            f"not fit group={group}, offset_group={offset_group} and the kernel {kernel}"
        )
    oh, ow = off_shape[2:]
    expect = [
        (x_shape[2 + k] + pads[k] + pads[k + 2] - dilations[k] * (kernel[k] - 1) - 1) // strides[k]
        + 1
        for k in range(2)
    ]
    if [oh, ow] != expect:
        raise ValueError(
            f"from_onnx: {node.where()}: the offsets cover {[oh, ow]}; the output is {expect}"
        )
    cols = (
        node.emit_te(
            deform_columns_te,
            x,
            offset,
            mask,
            kernel=kernel,
            strides=strides,
            dilations=dilations,
            pads=pads,
            offset_group=offset_group,
        )
        if mask is not None
        else node.emit_te(
            lambda x_, off: deform_columns_te(
                x_, off, None, kernel, strides, dilations, pads, offset_group
            ),
            x,
            offset,
        )
    )
    cols = node.emit(R.reshape(cols, [n, group, per_group * taps, oh * ow]))
    weights = node.emit(R.reshape(w, [group, out_channels // group, per_group * taps]))
    out = node.emit(R.matmul(weights, cols))  # [N, group, out_channels / group, oh * ow]
    out = node.emit(R.reshape(out, [n, out_channels, oh, ow]))
    if bias is not None:
        out = node.emit(R.add(out, R.reshape(bias, [1, out_channels, 1, 1])))
    return out
