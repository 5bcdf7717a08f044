"""Converters of ONNX GridSample (a te computation: nearest, linear or cubic sampling of an
N-D image at normalized grid points, zeros / border / reflection padding) and AffineGrid (the
normalized grid of an affine transform, from Relax ops)."""

from __future__ import annotations

import itertools

import numpy as np
from tvm import te
from tvm.relax import op as R

from ._relax_api import tir
from .common import Node, const, dtype_of
from .registry import converter

_CUBIC_ALPHA = -0.75  # Keys' cubic convolution, as the ONNX reference and onnxruntime


def _reflect(x, low: float, high: float):
    """x reflected at the borders low and high until it lies between them: a triangle wave
    of period 2 * (high - low), x itself between the borders. x appears once in it (the
    sampling kernels repeat this expression in every tap)."""
    span = high - low
    if span <= 0:  # a one-pixel axis (align_corners): its only coordinate
        return x * 0 + low
    z = x - low
    folded = z - tir.floor(z / (2 * span)) * (2 * span)  # in [0, 2 * span)
    return low + span - tir.abs(folded - span)


def _cubic_weights(t):
    """The 4 cubic convolution weights of the points at -1, 0, 1, 2 for a fraction t."""
    a = _CUBIC_ALPHA

    def far(d):  # 1 < |d| < 2
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a

    def near(d):  # |d| <= 1
        return ((a + 2) * d - (a + 3)) * d * d + 1

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def grid_sample_te(x, grid, mode: str, padding_mode: str, align_corners: bool):
    """te: Y[n, c, *o] sampled from x[n, c] at grid[n, *o] (last axis: the coordinates, the
    innermost spatial axis first), each in [-1, 1] across the image."""
    dims = [int(d) for d in x.shape[2:]]
    nsp = len(dims)
    fdt = "float64" if grid.dtype == "float64" else "float32"
    lows = [0.0 if align_corners else -0.5 for _ in dims]
    highs = [d - 1.0 if align_corners else d - 0.5 for d in dims]

    def coordinate(n, o, k):
        """Spatial axis k's unnormalized coordinate, with the out-of-range rule applied."""
        g = grid[(n, *o, nsp - 1 - k)].astype(fdt)
        d = float(dims[k])
        v = (g + 1) / 2 * (d - 1) if align_corners else ((g + 1) * d - 1) / 2
        if mode == "nearest":
            v = tir.round(v)
        outside = tir.any(v < lows[k], v > highs[k])
        if padding_mode == "border":
            v = tir.Select(outside, tir.max(tir.min(v, d - 1), 0.0), v)
        elif padding_mode == "reflection":
            v = _reflect(v, lows[k], highs[k])
        return v

    def index(i, k):
        """(index to read, whether it counts) for an integer position i on axis k."""
        d = dims[k]
        if padding_mode == "zeros":
            return tir.max(tir.min(i, d - 1), 0), tir.all(i >= 0, i < d)
        if padding_mode == "reflection":
            i = _reflect(i.astype(fdt), lows[k], highs[k]).astype("int64")
        return tir.max(tir.min(i, d - 1), 0), None

    # the coordinates first, in a stage of their own: inlined, every term of the sum would
    # repeat their (reflected) expressions, which grow with each use
    coords = [
        te.compute(
            [*grid.shape[:-1]],
            lambda n, *o, k=k: coordinate(n, o, k),
            name=f"grid_coordinate{k}",
        )
        for k in range(nsp)
    ]

    def compute(n, c, *o):
        at = [coords[k][(n, *o)] for k in range(nsp)]
        if mode == "nearest":
            picks = [index(v.astype("int64"), k) for k, v in enumerate(at)]
            value = x[(n, c, *(p for p, _ in picks))]
            valid = [ok for _, ok in picks if ok is not None]
            return tir.Select(tir.all(*valid), value, tir.const(0, x.dtype)) if valid else value
        bases = [tir.floor(v) for v in at]
        fracs = [v - b for v, b in zip(at, bases)]
        if mode == "linear":
            offsets, weights = [0, 1], [[1 - t, t] for t in fracs]
        else:
            offsets, weights = [-1, 0, 1, 2], [_cubic_weights(t) for t in fracs]
        total = tir.const(0, fdt)
        for combo in itertools.product(range(len(offsets)), repeat=nsp):
            weight, reads, valid = tir.const(1, fdt), [], []
            for k, j in enumerate(combo):
                weight = weight * weights[k][j]
                at_k, ok = index(bases[k].astype("int64") + offsets[j], k)
                reads.append(at_k)
                if ok is not None:
                    valid.append(ok)
            value = x[(n, c, *reads)].astype(fdt)
            if valid:
                value = tir.Select(tir.all(*valid), value, tir.const(0, fdt))
            total = total + weight * value
        return total.astype(x.dtype)

    out_shape = [x.shape[0], x.shape[1], *grid.shape[1:-1]]
    return te.compute(out_shape, compute, name="grid_sample")


@converter("GridSample", since=16)
def _grid_sample(node: Node):
    x, grid = node.input(0), node.input(1)
    names = {"bilinear": "linear", "bicubic": "cubic"} if node.opset < 20 else {}
    mode = node.attr("mode", "bilinear" if node.opset < 20 else "linear")
    mode = names.get(mode, mode)
    if mode not in ("nearest", "linear", "cubic"):
        raise node.unsupported(f"mode={mode!r}")
    padding_mode = node.attr("padding_mode", "zeros")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise node.unsupported(f"padding_mode={padding_mode!r}")
    align_corners = bool(node.attr("align_corners", 0))
    x_shape, grid_shape = node.shape(x), node.shape(grid)
    nsp = len(x_shape) - 2
    if nsp < 1 or len(grid_shape) != nsp + 2 or grid_shape[-1] != nsp:
        raise ValueError(
            f"from_onnx: {node.where()}: X {x_shape} and grid {grid_shape} do not fit: the "
            "grid must be [N, *output_spatial, spatial rank of X]"
        )
    if not all(isinstance(d, int) for d in x_shape[2:]):
        raise node.unsupported(f"an input with symbolic spatial dimensions {x_shape}")
    return node.emit_te(
        grid_sample_te,
        x,
        grid,
        mode=mode,
        padding_mode=padding_mode,
        align_corners=align_corners,
    )


@converter("AffineGrid", since=20)
def _affine_grid(node: Node):
    """grid[n, *o] = theta[n] @ (the normalized coordinates of o, innermost first, and 1)."""
    theta = node.input(0)
    size = [int(v) for v in node.const_input(1, "size").reshape(-1)]
    align_corners = bool(node.attr("align_corners", 0))
    nsp = len(size) - 2
    if nsp not in (2, 3) or node.shape(theta)[1:] != [nsp, nsp + 1]:
        raise ValueError(
            f"from_onnx: {node.where()}: theta {node.shape(theta)} and size {size} do not "
            "fit: theta must be [N, 2, 3] for a 2-D size [N, C, H, W], [N, 3, 4] for 3-D"
        )
    spatial = size[2:]
    axes = []
    for d in spatial:
        steps = np.arange(d, dtype="float64")
        if align_corners:
            axes.append(steps * 2 / (d - 1) - 1 if d > 1 else np.zeros(1))
        else:
            axes.append((steps * 2 + 1) / d - 1)
    mesh = np.meshgrid(*axes, indexing="ij")
    # the base points [prod(spatial), nsp + 1]: x (innermost) first, then the others, then 1
    base = np.stack([m.reshape(-1) for m in reversed(mesh)] + [np.ones(mesh[0].size)], axis=1)
    dtype = dtype_of(theta)
    base_t = const(base.T.astype(dtype))  # [nsp + 1, points]
    out = node.emit(R.matmul(theta, base_t))  # [N, nsp, points]
    out = node.emit(R.permute_dims(out, [0, 2, 1]))
    return node.emit(R.reshape(out, [node.shape(theta)[0], *spatial, nsp]))
