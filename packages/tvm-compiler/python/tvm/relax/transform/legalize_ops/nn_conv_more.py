"""Legalisation of conv1d and conv1d_transpose (as their 2-D forms over a unit height) and
conv2d_transpose (each output pixel gathers the input pixels whose strided footprint covers
it)."""

from __future__ import annotations

from types import SimpleNamespace

from tvm import te, tir, topi

from .common import register_legalize
from .nn_conv import conv2d_te


def conv1d_te(data, weight, attrs):
    a = attrs
    x = data if a.data_layout == "NCW" else topi.transpose(data, [0, 2, 1])
    w = weight if a.kernel_layout == "OIW" else topi.transpose(weight, [2, 1, 0])
    x4 = te.compute((x.shape[0], x.shape[1], 1, x.shape[2]), lambda n, c, _, i: x[n, c, i])
    w4 = te.compute((w.shape[0], w.shape[1], 1, w.shape[2]), lambda o, c, _, k: w[o, c, k])
    attrs2d = SimpleNamespace(
        data_layout="NCHW",
        kernel_layout="OIHW",
        out_layout="NCHW",
        out_dtype=a.out_dtype,
        padding=(0, a.padding[0], 0, a.padding[1]),
        strides=(1, a.strides[0]),
        dilation=(1, a.dilation[0]),
        groups=a.groups,
    )
    out4 = conv2d_te(x4, w4, attrs2d)
    out = te.compute(
        (out4.shape[0], out4.shape[1], out4.shape[3]),
        lambda n, o, i: out4[n, o, 0, i],
        name="conv1d",
    )
    return out if a.out_layout == "NCW" else topi.transpose(out, [0, 2, 1])


def conv2d_transpose_te(data, weight, attrs):
    a = attrs
    n, c_in, h, w = data.shape
    _, oc_per_group, kh, kw = weight.shape
    sh, sw = a.strides
    dh, dw = a.dilation
    pt, pl, pb, pr = a.padding
    out_dtype = a.out_dtype if a.out_dtype != "void" else data.dtype
    out_h = (h - 1) * sh - pt - pb + dh * (kh - 1) + a.output_padding[0] + 1
    out_w = (w - 1) * sw - pl - pr + dw * (kw - 1) + a.output_padding[1] + 1
    ic_per_group = tir.floordiv(c_in, a.groups)
    ic = te.reduce_axis((0, ic_per_group), name="ic")
    ry = te.reduce_axis((0, kh), name="ry")
    rx = te.reduce_axis((0, kw), name="rx")

    def at(b, o, y, x):
        cin = tir.floordiv(o, oc_per_group) * ic_per_group + ic
        ty, tx = y + pt - ry * dh, x + pl - rx * dw
        iy, ix = tir.floordiv(ty, sh), tir.floordiv(tx, sw)
        ok = tir.all(
            tir.floormod(ty, sh) == 0,
            tir.floormod(tx, sw) == 0,
            ty >= 0,
            tx >= 0,
            iy < h,
            ix < w,
        )
        lhs = data[b, cin, tir.min(tir.max(iy, 0), h - 1), tir.min(tir.max(ix, 0), w - 1)]
        rhs = weight[cin, tir.floormod(o, oc_per_group), ry, rx]
        if str(lhs.dtype) != out_dtype:
            lhs, rhs = lhs.astype(out_dtype), rhs.astype(out_dtype)
        term = tir.if_then_else(ok, lhs * rhs, tir.const(0, out_dtype))
        return te.sum(term, axis=[ic, ry, rx])

    return te.compute((n, oc_per_group * a.groups, out_h, out_w), at, name="conv2d_transpose")


def conv1d_transpose_te(data, weight, attrs):
    a = attrs
    x4 = te.compute(
        (data.shape[0], data.shape[1], 1, data.shape[2]), lambda n, c, _, i: data[n, c, i]
    )
    w4 = te.compute(
        (weight.shape[0], weight.shape[1], 1, weight.shape[2]), lambda i, o, _, k: weight[i, o, k]
    )
    attrs2d = SimpleNamespace(
        out_dtype=a.out_dtype,
        padding=(0, a.padding[0], 0, a.padding[1]),
        strides=(1, a.strides[0]),
        dilation=(1, a.dilation[0]),
        output_padding=(0, a.output_padding[0]),
        groups=a.groups,
    )
    out4 = conv2d_transpose_te(x4, w4, attrs2d)
    return te.compute(
        (out4.shape[0], out4.shape[1], out4.shape[3]),
        lambda n, o, i: out4[n, o, 0, i],
        name="conv1d_transpose",
    )


@register_legalize("relax.nn.conv1d_transpose")
def _conv1d_transpose(bb, call):
    return bb.call_te(
        conv1d_transpose_te, *call.args, call.attrs, primfunc_name_hint="conv1d_transpose"
    )


@register_legalize("relax.nn.conv1d")
def _conv1d(bb, call):
    return bb.call_te(conv1d_te, *call.args, call.attrs, primfunc_name_hint="conv1d")


@register_legalize("relax.nn.conv2d_transpose")
def _conv2d_transpose(bb, call):
    return bb.call_te(
        conv2d_transpose_te, *call.args, call.attrs, primfunc_name_hint="conv2d_transpose"
    )
