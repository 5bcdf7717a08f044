"""pool2d (max or avg) over NCHW data with kernel, stride, dilation, padding and ceil_mode."""

from tvm import te
from tvm.arith import Analyzer
from tvm.tir import expr as E
from tvm.tir.op import min_value

from .pad import pad


def pool2d(
    data,
    kernel,
    stride,
    dilation,
    padding,
    pool_type,
    ceil_mode=False,
    layout="NCHW",
    count_include_pad=True,
):
    """Max or average over kernel windows (average divides by the window size, padding
    included when count_include_pad, else by the elements inside data). ceil_mode rounds the
    output size up: the last window may overhang the bottom/right padding (by up to
    stride - 1), and an average does not count what it overhangs, as upstream."""
    who = "topi.nn.pool2d"
    if layout != "NCHW":
        raise ValueError(f"{who}: argument 'layout' must be 'NCHW', got {layout!r}")
    if pool_type not in ("max", "avg"):
        raise ValueError(f"{who}: argument 'pool_type' must be 'max' or 'avg', got {pool_type!r}")
    kh, kw = kernel
    sh, sw = stride
    dh, dw = dilation
    top, left, bottom, right = padding
    n, c, h, w = data.shape
    value = min_value(data.dtype).value if pool_type == "max" else 0.0
    # ceil_mode: extra padding after so that the floor division below rounds up.
    extra_h, extra_w = (sh - 1, sw - 1) if ceil_mode else (0, 0)
    padded = pad(
        data, (0, 0, top, left), (0, 0, bottom + extra_h, right + extra_w), value, name="pad_temp"
    )
    oh = Analyzer().simplify(E.FloorDiv(h + top + bottom + extra_h - (kh - 1) * dh - 1, sh) + 1)
    ow = Analyzer().simplify(E.FloorDiv(w + left + right + extra_w - (kw - 1) * dw - 1, sw) + 1)
    ry = te.reduce_axis((0, kh), name="ry")
    rx = te.reduce_axis((0, kw), name="rx")

    def window(b, ch, y, x):
        return padded[b, ch, y * sh + ry * dh, x * sw + rx * dw]

    if pool_type == "max":
        return te.compute(
            (n, c, oh, ow), lambda *i: te.max(window(*i), axis=[ry, rx]), name="pool_max"
        )
    total = te.compute(
        (n, c, oh, ow), lambda *i: te.sum(window(*i), axis=[ry, rx]), name="pool_sum"
    )
    if count_include_pad and not ceil_mode:
        return te.compute(total.shape, lambda *i: total[i] / float(kh * kw), name="pool_avg")
    if count_include_pad:

        def taps(start, size, k, d, pad_after):
            # The window's taps inside data and its declared padding (not ceil_mode's extra).
            last = E.Min(start + (k - 1) * d, size + pad_after - 1)
            return E.FloorDiv(last - start, d) + 1

        def avg_in_padding(b, ch, y, x):
            rows = taps(y * sh - top, h, kh, dh, bottom)
            cols = taps(x * sw - left, w, kw, dw, right)
            return total[b, ch, y, x] / (rows * cols).astype(data.dtype)

        return te.compute(total.shape, avg_in_padding, name="pool_avg")

    def avg(b, ch, y, x):
        y0, x0 = y * sh - top, x * sw - left
        rows = E.Max(E.Min(y0 + (kh - 1) * dh + 1, h) - E.Max(y0, 0), 1)
        cols = E.Max(E.Min(x0 + (kw - 1) * dw + 1, w) - E.Max(x0, 0), 1)
        return total[b, ch, y, x] / (rows * cols).astype(data.dtype)

    return te.compute(total.shape, avg, name="pool_avg")
