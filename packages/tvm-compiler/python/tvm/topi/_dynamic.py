"""Slices and tiles whose bounds or shape are known only at run time: dynamic_strided_slice,
dyn_tile; and div (C's division)."""

from __future__ import annotations

from tvm import te, tir
from tvm.tir import expr as E


def slice_bounds(extent, begin, end, stride):
    """Python's slice start and length on one axis (int64 PrimExprs)."""
    zero, one = tir.const(0, "int64"), tir.const(1, "int64")
    extent = extent.astype("int64") if str(extent.dtype) != "int64" else extent

    def clamp(v):
        v = tir.Select(v < 0, v + extent, v)
        lo = tir.Select(stride > 0, zero, -one)
        hi = tir.Select(stride > 0, extent, extent - one)
        return tir.max(tir.min(v, hi), lo)

    start, stop = clamp(begin.astype("int64")), clamp(end.astype("int64"))
    forward = tir.floordiv(stop - start + stride - one, stride)
    backward = tir.floordiv(start - stop - stride - one, -stride)
    return start, tir.max(tir.Select(stride > 0, forward, backward), zero)


def dynamic_strided_slice(a, begin, end, strides, output_shape):
    """a[begin:end:strides] with the bounds read from 1-D tensors at run time (Python's
    clamping; a negative stride walks backwards); output_shape gives the result's extents
    (computed by the caller from the same bounds)."""
    for name, t in (("a", a), ("begin", begin), ("end", end), ("strides", strides)):
        if not isinstance(t, te.Tensor):
            raise TypeError(
                f"topi.dynamic_strided_slice: argument {name!r} must be a te.Tensor, got {t!r}"
            )
    if len(output_shape) != a.ndim:
        raise ValueError(
            f"topi.dynamic_strided_slice: argument 'output_shape' must have {a.ndim} extents"
        )

    def at(*i):
        src = []
        for d, v in enumerate(i):
            stride = strides[d].astype("int64")
            start, _ = slice_bounds(a.shape[d], begin[d], end[d], stride)
            src.append(start + v.astype("int64") * stride)
        return a[tuple(src)]

    return te.compute(output_shape, at, name="dynamic_strided_slice")


def dyn_tile(a, new_shape, rdim):
    """a repeated to fill new_shape (rank max(rdim, a's)): element i reads a at i modulo a's
    extents on its trailing axes."""
    if not isinstance(a, te.Tensor):
        raise TypeError(f"topi.dyn_tile: argument 'a' must be a te.Tensor, got {a!r}")
    new_shape = list(new_shape)
    if len(new_shape) != max(rdim, a.ndim):
        raise ValueError(
            f"topi.dyn_tile: argument 'new_shape' must have max(rdim, a.ndim) = "
            f"{max(rdim, a.ndim)} extents, got {len(new_shape)}"
        )
    offset = len(new_shape) - a.ndim

    def body(*i):
        return a[tuple(tir.floormod(i[offset + k], d) for k, d in enumerate(a.shape))]

    return te.compute(new_shape, body, name="T_tile")


def div(a, b, span=None):
    """a / b as C computes it: truncating for integers, true division for floats."""
    a, b = E.convert(a), E.convert(b)
    if str(a.dtype).startswith(("int", "uint")) and str(b.dtype).startswith(("int", "uint")):
        return tir.truncdiv(a, b)
    return a / b
