"""Legalisation of conv2d (groups, NCHW/NHWC data, the weight's OIHW axes in any order), the
2-D pools, adaptive average pooling, batch_norm (inference) and dropout (inference: the
identity)."""

from __future__ import annotations

from tvm import te, topi
from tvm.tir import expr as E
from tvm.tir import op as T

from ...op.nn.conv import kernel_oihw
from .common import register_legalize, scalar, scale_shift

_TO_NCHW = {"NCHW": None, "NHWC": [0, 3, 1, 2]}
_FROM_NCHW = {"NCHW": None, "NHWC": [0, 2, 3, 1]}


def _relayout(t, axes):
    return t if axes is None else topi.transpose(t, axes)


def conv2d_te(data, weight, attrs):
    a = attrs
    x = _relayout(data, _TO_NCHW[a.data_layout])
    axes = kernel_oihw(list(range(4)), a.kernel_layout)
    w = weight if a.kernel_layout == "OIHW" else topi.transpose(weight, axes)
    out_dtype = a.out_dtype if a.out_dtype != "void" else x.dtype
    top, left, bottom, right = a.padding
    padded = topi.nn.pad(x, (0, 0, top, left), (0, 0, bottom, right), name="pad_temp")
    n, _, h, wd = x.shape
    o, i, kh, kw = w.shape
    sh, sw = a.strides
    dh, dw = a.dilation
    oh = E.FloorDiv(h + (top + bottom) - (kh - 1) * dh - 1, sh) + 1
    ow = E.FloorDiv(wd + (left + right) - (kw - 1) * dw - 1, sw) + 1
    out_per_group = E.FloorDiv(o, a.groups)
    rc = te.reduce_axis((0, i), name="rc")
    ry = te.reduce_axis((0, kh), name="ry")
    rx = te.reduce_axis((0, kw), name="rx")

    def body(b, f, y, xx):
        channel = E.FloorDiv(f, out_per_group) * i + rc if a.groups > 1 else rc
        lhs = padded[b, channel, y * sh + ry * dh, xx * sw + rx * dw]
        rhs = w[f, rc, ry, rx]
        if str(lhs.dtype) != out_dtype:
            lhs, rhs = lhs.astype(out_dtype), rhs.astype(out_dtype)
        return te.sum(lhs * rhs, axis=[rc, ry, rx])

    out = te.compute((n, o, oh, ow), body, name="conv2d")
    return _relayout(out, _FROM_NCHW[a.out_layout])


@register_legalize("relax.nn.conv2d")
def _conv2d(bb, call):
    return bb.call_te(
        conv2d_te, call.args[0], call.args[1], call.attrs, primfunc_name_hint="conv2d"
    )


def pool2d_te(data, attrs, kind):
    a = attrs
    x = _relayout(data, _TO_NCHW[a.layout])
    n, c, h, w = x.shape
    kh, kw = a.pool_size
    sh, sw = a.strides
    dh, dw = a.dilation
    top, left, bottom, right = a.padding
    extra = (sh - 1, sw - 1) if a.ceil_mode else (0, 0)
    oh = E.FloorDiv(h + (top + bottom + extra[0]) - (kh - 1) * dh - 1, sh) + 1
    ow = E.FloorDiv(w + (left + right + extra[1]) - (kw - 1) * dw - 1, sw) + 1
    ry = te.reduce_axis((0, kh), name="ry")
    rx = te.reduce_axis((0, kw), name="rx")

    def window(b, ch, y, xx, identity):
        row, col = y * sh + ry * dh - top, xx * sw + rx * dw - left
        inside = E.And(E.And(row >= 0, row < h), E.And(col >= 0, col < w))
        safe_row = E.Max(E.Min(row, h - 1), 0)
        safe_col = E.Max(E.Min(col, w - 1), 0)
        return T.if_then_else(inside, x[b, ch, safe_row, safe_col], identity)

    if kind == "max":
        out = te.compute(
            (n, c, oh, ow),
            lambda *i: te.max(window(*i, T.min_value(x.dtype)), axis=[ry, rx]),
            name="pool_max",
        )
        return _relayout(out, _FROM_NCHW[a.out_layout])
    total = te.compute(
        (n, c, oh, ow),
        lambda *i: te.sum(window(*i, scalar(0, x.dtype)), axis=[ry, rx]),
        name="pool_sum",
    )

    def taps(start, k, d, lo, hi):
        # how many of the window's k taps start, start + d, ... fall in [lo, hi): with a
        # dilation a window overhanging the end (ceil_mode) or the padding loses whole taps,
        # not d positions each
        first = E.Max(E.FloorDiv(lo - start + d - 1, d), 0)
        last = E.Min(E.FloorDiv(hi - 1 - start, d), k - 1)
        return E.Max(last - first + 1, 1)

    def avg(b, ch, y, xx):
        y0, x0 = y * sh - top, xx * sw - left
        if a.count_include_pad:
            hi_r, hi_c = h + bottom, w + right
            lo_r, lo_c = -top, -left
        else:
            hi_r, hi_c, lo_r, lo_c = h, w, 0, 0
        rows = taps(y0, kh, dh, lo_r, hi_r)
        cols = taps(x0, kw, dw, lo_c, hi_c)
        return total[b, ch, y, xx] / (rows * cols).astype(x.dtype)

    out = te.compute(total.shape, avg, name="pool_avg")
    return _relayout(out, _FROM_NCHW[a.out_layout])


register_legalize(
    "relax.nn.max_pool2d",
    lambda bb, call: bb.call_te(
        pool2d_te, call.args[0], call.attrs, "max", primfunc_name_hint="max_pool2d"
    ),
)
register_legalize(
    "relax.nn.avg_pool2d",
    lambda bb, call: bb.call_te(
        pool2d_te, call.args[0], call.attrs, "avg", primfunc_name_hint="avg_pool2d"
    ),
)


def adaptive_avg_pool2d_te(data, attrs):
    x = _relayout(data, _TO_NCHW[attrs.layout])
    n, c, h, w = x.shape
    oh, ow = (h, w) if attrs.output_size is None else attrs.output_size
    if all(isinstance(v, (int, E.IntImm)) for v in (h, w, oh, ow)):
        h, w, oh, ow = (int(v) for v in (h, w, oh, ow))
        # Window k covers [floor(k*H/OH), ceil((k+1)*H/OH)): at most ceil(H/OH)+1 rows.
        kh, kw = -(-h // oh) + 1, -(-w // ow) + 1
    else:  # a symbolic H or W: the same window bound, as an expression
        h, w, oh, ow = (E.const(v, "int64") if isinstance(v, int) else v for v in (h, w, oh, ow))
        kh = T.floordiv(h + oh - 1, oh) + 1
        kw = T.floordiv(w + ow - 1, ow) + 1
    ry = te.reduce_axis((0, kh), name="ry")
    rx = te.reduce_axis((0, kw), name="rx")

    def bounds(k, size, out):
        return T.floordiv(k * size, out), T.floordiv((k + 1) * size + out - 1, out)

    def total(b, ch, y, xx):
        r0, r1 = bounds(y, h, oh)
        c0, c1 = bounds(xx, w, ow)
        row, col = r0 + ry, c0 + rx
        inside = E.And(row < r1, col < c1)
        value = x[b, ch, E.Min(row, h - 1), E.Min(col, w - 1)]
        return te.sum(T.if_then_else(inside, value, scalar(0, x.dtype)), axis=[ry, rx])

    sums = te.compute((n, c, oh, ow), total, name="adaptive_sum")

    def avg(b, ch, y, xx):
        r0, r1 = bounds(y, h, oh)
        c0, c1 = bounds(xx, w, ow)
        return sums[b, ch, y, xx] / ((r1 - r0) * (c1 - c0)).astype(x.dtype)

    out = te.compute(sums.shape, avg, name="adaptive_avg_pool2d")
    return _relayout(out, _FROM_NCHW[attrs.out_layout])


register_legalize(
    "relax.nn.adaptive_avg_pool2d",
    lambda bb, call: bb.call_te(
        adaptive_avg_pool2d_te, call.args[0], call.attrs, primfunc_name_hint="adaptive_avg_pool2d"
    ),
)


def batch_norm_te(x, gamma, beta, mean, var, axis, epsilon, center, scale):
    axis %= len(x.shape)

    def body(*i):
        ch = (i[axis],)
        value = (x[i] - mean[ch]) / T.sqrt(var[ch] + scalar(epsilon, x.dtype))
        return scale_shift(value, gamma, beta, ch, scale, center)

    return te.compute(x.shape, body, name="batch_norm")


@register_legalize("relax.nn.batch_norm")
def _batch_norm(bb, call):
    from ...expr import Tuple

    a = call.attrs
    out = bb.emit_te(
        batch_norm_te,
        *call.args,
        a.axis,
        a.epsilon,
        a.center,
        a.scale,
        primfunc_name_hint="batch_norm",
    )
    return Tuple([out, call.args[3], call.args[4]])


@register_legalize("relax.nn.dropout")
def _dropout(bb, call):
    from ...expr import Tuple

    def mask(x):
        return te.compute(x.shape, lambda *i: scalar(1, x.dtype), name="dropout_mask")

    return Tuple([call.args[0], bb.emit_te(mask, call.args[0], primfunc_name_hint="ones")])
