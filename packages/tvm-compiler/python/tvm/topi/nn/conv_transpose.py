"""Transposed convolutions (the gradient of conv2d/conv1d by their input), grouped or not:
conv2d_transpose_nchw, conv1d_transpose_ncw and their group_ forms, kernel (in_channel,
out_channel / groups, taps...)."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as T

from .conv_variants import _pair, get_pad_tuple


def _static(value, who, name):
    if not isinstance(value, E.IntImm):
        raise ValueError(f"topi.nn.{who}: the {name} extent must be static")
    return value.value


def conv2d_transpose_nchw(Input, Filter, strides, padding, out_dtype, output_padding):  # noqa: N803
    """out[b, o, y, x] = sum over c and the taps (ry, rx) with y + top = iy * sh + ry (and
    likewise x) of Input[b, c, iy, ix] * Filter[c, o, ry, rx]; the output is
    (H - 1) * sh - top - bottom + kh + output_padding high (likewise wide)."""
    return _transpose_nchw(
        "conv2d_transpose_nchw", Input, Filter, strides, padding, out_dtype, output_padding, 1
    )


def group_conv2d_transpose_nchw(data, kernel, stride, padding, out_dtype, output_padding, groups):
    """Grouped conv2d_transpose_nchw: kernel (C, F / groups, kh, kw); output channel o of
    group g = o // (F / groups) sums input channels g * C / groups onwards."""
    return _transpose_nchw(
        "group_conv2d_transpose_nchw",
        data,
        kernel,
        stride,
        padding,
        out_dtype,
        output_padding,
        groups,
    )


def _transpose_nchw(who, Input, Filter, strides, padding, out_dtype, output_padding, groups):  # noqa: N803
    for name, t in (("Input", Input), ("Filter", Filter)):
        if not isinstance(t, te.Tensor) or t.ndim != 4:
            raise ValueError(f"topi.nn.{who}: argument {name!r} must be a 4-D te.Tensor, got {t!r}")
    sh, sw = _pair(who, "strides", strides)
    oph, opw = _pair(who, "output_padding", output_padding)
    if oph >= sh or opw >= sw:
        raise ValueError(f"topi.nn.{who}: argument 'output_padding' must be smaller than strides")
    n, c, h, w = Input.shape
    _, f_per_group, kh, kw = Filter.shape
    if not isinstance(groups, int) or groups < 1:
        raise ValueError(f"topi.nn.{who}: argument 'groups' must be an int >= 1, got {groups!r}")
    if isinstance(c, E.IntImm) and c.value % groups:
        raise ValueError(f"topi.nn.{who}: {c.value} channels do not split into {groups} groups")
    f = f_per_group * groups
    c_per_group = T.floordiv(c, groups)
    kh_, kw_ = _static(kh, who, "kernel height"), _static(kw, who, "kernel width")
    top, left, bottom, right = get_pad_tuple(padding, (kh_, kw_))
    out_h = (h - 1) * sh - top - bottom + kh_ + oph
    out_w = (w - 1) * sw - left - right + kw_ + opw
    out_dtype = out_dtype or Input.dtype
    rc = te.reduce_axis((0, c_per_group), name="rc")
    ry = te.reduce_axis((0, kh), name="ry")
    rx = te.reduce_axis((0, kw), name="rx")
    zero = (
        E.const(0, out_dtype) if not str(out_dtype).startswith("float") else E.const(0.0, out_dtype)
    )

    def source(o, r, s, extent):
        """The input position o reads through tap r, and whether there is one."""
        shifted = o - r
        pos = T.floordiv(shifted, s)
        ok = T.all(T.floormod(shifted, s) == 0, pos >= 0, pos < extent)
        return T.max(T.min(pos, extent - 1), 0), ok

    def body(b, o, y, x):
        iy, oky = source(y + top, ry, sh, h)
        ix, okx = source(x + left, rx, sw, w)
        g = T.floordiv(o, f_per_group)
        channel = g * c_per_group + rc
        tap = Filter[channel, T.floormod(o, f_per_group), ry, rx].astype(out_dtype)
        value = Input[b, channel, iy, ix].astype(out_dtype) * tap
        return te.sum(T.if_then_else(T.all(oky, okx), value, zero), axis=[rc, ry, rx])

    return te.compute((n, f, out_h, out_w), body, name=who)


def conv1d_transpose_ncw(data, kernel, stride, padding, out_dtype, output_padding):
    """The 1-D transposed convolution (conv2d_transpose_nchw with a height of 1)."""
    return group_conv1d_transpose_ncw(data, kernel, stride, padding, out_dtype, output_padding, 1)


def group_conv1d_transpose_ncw(data, kernel, stride, padding, out_dtype, output_padding, groups):
    """The grouped 1-D transposed convolution (kernel (C, F / groups, taps))."""
    who = "group_conv1d_transpose_ncw" if groups != 1 else "conv1d_transpose_ncw"
    for name, t in (("data", data), ("kernel", kernel)):
        if not isinstance(t, te.Tensor) or t.ndim != 3:
            raise ValueError(f"topi.nn.{who}: argument {name!r} must be a 3-D te.Tensor, got {t!r}")
    s = stride if isinstance(stride, int) else stride[0]
    op = output_padding if isinstance(output_padding, int) else output_padding[0]
    if isinstance(padding, str):
        pads = padding
    else:
        p = (padding, padding) if isinstance(padding, int) else tuple(padding)
        pads = (0, p[0], 0, p[-1])
    if isinstance(pads, str) and pads == "SAME":
        k = _static(kernel.shape[2], who, "kernel")
        pads = (0, (k - 1 + 1) // 2, 0, (k - 1) - (k - 1 + 1) // 2)
    data4 = te.compute(
        (data.shape[0], data.shape[1], 1, data.shape[2]),
        lambda b, c, _, x: data[b, c, x],
        name="data4",
    )
    kernel4 = te.compute(
        (kernel.shape[0], kernel.shape[1], 1, kernel.shape[2]),
        lambda c, o, _, x: kernel[c, o, x],
        name="kernel4",
    )
    out = _transpose_nchw(who, data4, kernel4, (1, s), pads, out_dtype, (0, op), groups)
    return te.compute(
        (out.shape[0], out.shape[1], out.shape[3]),
        lambda b, o, x: out[b, o, 0, x],
        name="conv1d_transpose_ncw",
    )
