"""Resize with antialias (linear or cubic, downsampling): the filter widened by 1 / scale and
normalized. Separable and linear in the data, so each spatial axis is a constant matrix built
here from ONNX's 1-D rule and the resize is two matmuls."""

from __future__ import annotations

import math

import numpy as np
from tvm.relax import op as R

from .common import Node, const, dtype_of


def _linear(ratio: float, scale: float):
    scale = min(scale, 1.0)
    start = math.floor(-1 / scale) + 1
    taps = np.arange(start, start + 2 - 2 * start) - ratio
    coeffs = np.clip(1 - np.abs(taps * scale), 0, 1)
    return coeffs / coeffs.sum()


def _cubic(ratio: float, scale: float, a: float):
    scale = min(scale, 1.0)
    start = math.floor(-2 / scale) + 1
    x = np.abs(scale * (np.arange(start, 2 - start) - ratio))
    near = (a + 2) * x**3 - (a + 3) * x**2 + 1
    far = a * x**3 - 5 * a * x**2 + 8 * a * x - 4 * a
    coeffs = np.where(x <= 1, near, np.where(x < 2, far, 0.0))
    return coeffs / coeffs.sum()


def _source(x: int, in_len: int, out_len: int, scale: float, mode: str) -> float:
    """The input coordinate output index x maps to."""
    out_width = scale * in_len
    if mode == "align_corners":
        return 0.0 if out_width == 1 else x * (in_len - 1) / (out_width - 1)
    if mode == "asymmetric":
        return x / scale
    if mode == "pytorch_half_pixel":
        return -0.5 if out_width == 1 else (x + 0.5) / scale - 0.5
    if mode == "half_pixel":
        return (x + 0.5) / scale - 0.5
    if mode == "half_pixel_symmetric":
        offset = in_len / 2 * (1 - out_len / out_width)
        return offset + (x + 0.5) / scale - 0.5
    raise ValueError(mode)


def _matrix(in_len: int, out_len: int, scale: float, coeffs_of, exclude_outside: bool, coord):
    """[out_len, in_len]: output x as a weighted sum of the inputs (edge values past the
    ends, or those taps dropped and the rest renormalized with exclude_outside)."""
    matrix = np.zeros((out_len, in_len))
    for x in range(out_len):
        src = _source(x, in_len, out_len, scale, coord)
        ratio = 1.0 if float(src).is_integer() else src - math.floor(src)
        coeffs = coeffs_of(ratio, scale)
        n = len(coeffs)
        # the n indices nearest src (the smaller one on a tie), as ONNX picks its neighbours
        near = sorted(
            range(math.floor(src) - n, math.floor(src) + n + 1), key=lambda i: (abs(src - i), i)
        )
        idxes = sorted(near[:n])
        if exclude_outside:
            coeffs = np.array([c if 0 <= i < in_len else 0.0 for c, i in zip(coeffs, idxes)])
            coeffs = coeffs / coeffs.sum()
        for c, i in zip(coeffs, idxes):
            matrix[x, min(max(i, 0), in_len - 1)] += c
    return matrix


def resize_antialias(node: Node, x, out_hw, scale_hw, mode: str, coord: str):
    """x [N, C, H, W] resized to out_hw with the antialiasing filter."""
    if coord not in (
        "align_corners",
        "asymmetric",
        "pytorch_half_pixel",
        "half_pixel",
        "half_pixel_symmetric",
    ):
        raise node.unsupported(f"antialias with coordinate_transformation_mode={coord!r}")
    a = node.attr("cubic_coeff_a", -0.75)
    exclude = bool(node.attr("exclude_outside", 0))
    if mode == "linear":
        coeffs_of = _linear
    elif mode == "cubic":

        def coeffs_of(ratio, scale):
            return _cubic(ratio, scale, a)
    else:
        raise node.unsupported(f"antialias with mode={mode!r}")
    in_h, in_w = node.shape(x)[2:]
    rows = _matrix(in_h, out_hw[0], scale_hw[0], coeffs_of, exclude, coord)
    cols = _matrix(in_w, out_hw[1], scale_hw[1], coeffs_of, exclude, coord)
    dtype = dtype_of(x)
    out = node.emit(R.matmul(const(rows.astype(dtype)), x))
    return node.emit(R.matmul(out, const(cols.T.astype(dtype))))
