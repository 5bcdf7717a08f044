"""pool1d (through pool2d on an (N, C, 1, W) view), global_pool and adaptive_pool (NCHW)."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as T

from .pooling import pool2d


def _check(who, data, ndim, layout, want):
    if not isinstance(data, te.Tensor) or data.ndim != ndim:
        raise ValueError(f"topi.nn.{who}: argument 'data' must be a {ndim}-D te.Tensor")
    if layout != want:
        raise ValueError(f"topi.nn.{who}: argument 'layout' must be {want!r}, got {layout!r}")


def _pool_type(who, pool_type):
    if pool_type not in ("max", "avg"):
        raise ValueError(
            f"topi.nn.{who}: argument 'pool_type' must be 'max' or 'avg', got {pool_type!r}"
        )


def pool1d(
    data,
    kernel,
    stride,
    dilation,
    padding,
    pool_type,
    ceil_mode=False,
    layout="NCW",
    count_include_pad=True,
):
    """Max or average over windows of NCW data (padding is (before, after))."""
    _check("pool1d", data, 3, layout, "NCW")
    (k,), (s,), (d,) = (
        list(v) if not isinstance(v, int) else [v] for v in (kernel, stride, dilation)
    )
    before, after = list(padding) if len(list(padding)) == 2 else (padding[0], padding[0])
    n, c, w = data.shape
    as_2d = te.compute((n, c, 1, w), lambda b, ch, _, x: data[b, ch, x], name="as_nchw")
    out = pool2d(
        as_2d,
        (1, k),
        (1, s),
        (1, d),
        (0, before, 0, after),
        pool_type,
        ceil_mode,
        "NCHW",
        count_include_pad,
    )
    return te.compute(
        (out.shape[0], out.shape[1], out.shape[3]),
        lambda b, ch, x: out[b, ch, 0, x],
        name=f"pool_{pool_type}",
    )


def global_pool(data, pool_type, layout="NCHW"):
    """The max or average of each channel of NCHW data, as (N, C, 1, 1)."""
    _check("global_pool", data, 4, layout, "NCHW")
    _pool_type("global_pool", pool_type)
    n, c, h, w = data.shape
    ry = te.reduce_axis((0, h), name="ry")
    rx = te.reduce_axis((0, w), name="rx")
    if pool_type == "max":
        return te.compute(
            (n, c, 1, 1),
            lambda b, ch, _y, _x: te.max(data[b, ch, ry, rx], axis=[ry, rx]),
            name="adaptive_pool_max",
        )
    total = te.compute(
        (n, c, 1, 1),
        lambda b, ch, _y, _x: te.sum(data[b, ch, ry, rx], axis=[ry, rx]),
        name="adaptive_pool_sum",
    )
    count = (h * w).astype(data.dtype)
    return te.compute(total.shape, lambda *i: total[i] / count, name="adaptive_pool_avg")


def adaptive_pool(data, output_size, pool_type, layout="NCHW"):
    """Max or average of NCHW data over output_size windows: output row y covers input rows
    floor(y * H / OH) to ceil((y + 1) * H / OH)."""
    _check("adaptive_pool", data, 4, layout, "NCHW")
    _pool_type("adaptive_pool", pool_type)
    oh, ow = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    n, c, h, w = data.shape
    oh = h if oh is None else oh
    ow = w if ow is None else ow

    def bounds(i, size, out):
        i = i.astype(str(size.dtype)) if str(i.dtype) != str(size.dtype) else i
        start = E.FloorDiv(i * size, out)
        end = E.FloorDiv((i + 1) * size + out - 1, out)
        return start, end - start

    # The widest window bounds the reduce axes; taps past a window's end are masked out.
    def widest(size, out):
        s, o = size.value if isinstance(size, E.IntImm) else None, out
        if s is None or not isinstance(o, int):
            raise ValueError("topi.nn.adaptive_pool: the extents must be static")
        return max(-(-(k + 1) * s // o) - (k * s // o) for k in range(o))

    ry = te.reduce_axis((0, widest(h, oh)), name="ry")
    rx = te.reduce_axis((0, widest(w, ow)), name="rx")

    def window(b, ch, y, x):
        y0, hy = bounds(y, h, oh)
        x0, wx = bounds(x, w, ow)
        inside = T.all(ry < hy, rx < wx)
        yy = T.if_then_else(inside, y0 + ry, y0)
        xx = T.if_then_else(inside, x0 + rx, x0)
        return inside, data[b, ch, yy, xx], hy * wx

    if pool_type == "max":
        low = T.min_value(data.dtype)
        return te.compute(
            (n, c, oh, ow),
            lambda *i: te.max(T.if_then_else(window(*i)[0], window(*i)[1], low), axis=[ry, rx]),
            name="adaptive_pool_max",
        )
    zero = E.const(0.0, data.dtype)
    total = te.compute(
        (n, c, oh, ow),
        lambda *i: te.sum(T.if_then_else(window(*i)[0], window(*i)[1], zero), axis=[ry, rx]),
        name="adaptive_pool_sum",
    )

    def avg(b, ch, y, x):
        _, hy = bounds(y, h, oh)
        _, wx = bounds(x, w, ow)
        return total[b, ch, y, x] / (hy * wx).astype(data.dtype)

    return te.compute(total.shape, avg, name="adaptive_pool_avg")


def adaptive_pool1d(data, output_size, pool_type, layout="NCW"):
    """adaptive_pool over the width of NCW data."""
    _check("adaptive_pool1d", data, 3, layout, "NCW")
    size = output_size[0] if isinstance(output_size, (list, tuple)) else output_size
    n, c, w = data.shape
    as_2d = te.compute((n, c, 1, w), lambda b, ch, _, x: data[b, ch, x], name="as_nchw")
    out = adaptive_pool(as_2d, (1, size), pool_type)
    return te.compute(
        (n, c, out.shape[3]), lambda b, ch, x: out[b, ch, 0, x], name=f"adaptive_pool_{pool_type}"
    )
