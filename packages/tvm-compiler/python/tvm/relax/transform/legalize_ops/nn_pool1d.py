"""Legalisation of the 1-D pools (through the 2-D ones on an (N, C, 1, W) view),
instance_norm (topi's, a group per channel), batch_flatten and pixel_shuffle."""

from __future__ import annotations

from types import SimpleNamespace

from tvm import te, topi
from tvm.tir import op as T

from ...op._utils import dims_of, static
from ...op.op_attrs import Pool2DAttrs
from .common import register_legalize
from .nn_conv import adaptive_avg_pool2d_te, pool2d_te


def _as_ncw(data, layout):
    if layout == "NCW":
        return data
    n, w, c = data.shape
    return te.compute((n, c, w), lambda b, ch, i: data[b, i, ch], name="to_ncw")


def _from_ncw(data, layout):
    if layout == "NCW":
        return data
    n, c, w = data.shape
    return te.compute((n, w, c), lambda b, i, ch: data[b, ch, i], name="to_nwc")


def _through_2d(data, layout, out_layout, pool_2d):
    x = _as_ncw(data, layout)
    n, c, w = x.shape
    x4 = te.compute((n, c, 1, w), lambda b, ch, _, i: x[b, ch, i], name="as_nchw")
    out = pool_2d(x4)
    n, c, _, ow = out.shape
    out3 = te.compute((n, c, ow), lambda b, ch, i: out[b, ch, 0, i], name="as_ncw")
    return _from_ncw(out3, out_layout)


def _pool1d(kind):
    def legalize(bb, call):
        a = call.attrs
        attrs = Pool2DAttrs(
            pool_size=(1, a.pool_size[0]),
            strides=(1, a.strides[0]),
            padding=(0, a.padding[0], 0, a.padding[1]),
            dilation=(1, a.dilation[0]),
            ceil_mode=a.ceil_mode,
            count_include_pad=a.count_include_pad,
            layout="NCHW",
            out_layout="NCHW",
        )

        def pool1d(data):
            return _through_2d(data, a.layout, a.out_layout, lambda x: pool2d_te(x, attrs, kind))

        return bb.call_te(pool1d, call.args[0], primfunc_name_hint=f"{kind}_pool1d")

    return legalize


register_legalize("relax.nn.max_pool1d", _pool1d("max"))
register_legalize("relax.nn.avg_pool1d", _pool1d("avg"))


@register_legalize("relax.nn.adaptive_avg_pool1d")
def _adaptive_avg_pool1d(bb, call):
    a = call.attrs
    out_size = None if a.output_size is None else (1, a.output_size[0])
    attrs = SimpleNamespace(output_size=out_size, layout="NCHW", out_layout="NCHW")

    def adaptive_avg_pool1d(data):
        return _through_2d(data, a.layout, a.out_layout, lambda x: adaptive_avg_pool2d_te(x, attrs))

    return bb.call_te(adaptive_avg_pool1d, call.args[0], primfunc_name_hint="adaptive_avg_pool1d")


@register_legalize("relax.nn.instance_norm")
def _instance_norm(bb, call):
    a = call.attrs
    data = call.args[0].struct_info
    channel_axis = a.channel_axis % data.ndim
    channels = static(dims_of(data)[channel_axis]) if dims_of(data) is not None else None
    if channels is None:
        raise NotImplementedError(
            "nn.instance_norm: legalisation needs a static channel count, got data of "
            f"struct info {data}"
        )

    def instance_norm(x, gamma, beta):
        return topi.nn.instance_norm(
            x,
            gamma if a.scale else None,
            beta if a.center else None,
            channel_axis,
            list(a.axes),
            a.epsilon,
        )

    return bb.call_te(instance_norm, *call.args, primfunc_name_hint="instance_norm")


@register_legalize("relax.nn.batch_flatten")
def _batch_flatten(bb, call):
    shape = dims_of(call.struct_info)  # Relax has the (batch, rest) shape already
    return bb.call_te(topi.reshape, call.args[0], shape, primfunc_name_hint="batch_flatten")


@register_legalize("relax.nn.pixel_shuffle")
def _pixel_shuffle(bb, call):
    r = call.attrs.upscale_factor
    shape = dims_of(call.struct_info)

    def pixel_shuffle(data):
        def element(*i):
            lead, (c, y, x) = i[:-3], i[-3:]
            channel = c * (r * r) + T.floormod(y, r) * r + T.floormod(x, r)
            return data[lead + (channel, T.floordiv(y, r), T.floordiv(x, r))]

        return te.compute(shape, element, name="pixel_shuffle")

    return bb.call_te(pixel_shuffle, call.args[0], primfunc_name_hint="pixel_shuffle")
