"""The 1-D pools (max_pool1d, avg_pool1d, adaptive_avg_pool1d) on NCW or NWC data, and
instance_norm, batch_flatten and pixel_shuffle: upstream's names, signatures and shapes."""

from __future__ import annotations

from ...struct_info import TensorStructInfo
from .._utils import dims_of, fmt_shape, normalize_axis, product, static, tensor_arg, tensor_sinfo
from ..base import call_op, register
from ..op_attrs import Attrs
from .conv import _layout, _out_extent


class Pool1DAttrs(Attrs):
    """max_pool1d / avg_pool1d: pool_size, strides, padding, dilation, ceil_mode,
    count_include_pad, layout, out_layout."""


class AdaptivePool1DAttrs(Attrs):
    """adaptive_avg_pool1d: output_size, layout, out_layout."""


class InstanceNormAttrs(Attrs):
    """instance_norm: channel_axis, axes, epsilon, center, scale."""


class PixelShuffleAttrs(Attrs):
    """pixel_shuffle: upscale_factor."""


_LAYOUTS_1D = {"NCW": (0, 1, 2), "NWC": (0, 2, 1)}  # positions of N, C, W


def _single(who, name, value):
    one = (value,) if isinstance(value, int) else tuple(value)
    if len(one) != 1 or not all(isinstance(v, int) and v > 0 for v in one):
        raise ValueError(f"{who}: {name} must be a positive int or a 1-tuple, got {value!r}")
    return one


def _padding_1d(who, value):
    pads = (value, value) if isinstance(value, int) else tuple(value)
    if len(pads) == 1:
        pads = (pads[0], pads[0])
    if len(pads) != 2 or not all(isinstance(p, int) and p >= 0 for p in pads):
        raise ValueError(f"{who}: padding must be an int or (left, right), got {value!r}")
    return pads


def _ncw(dims, layout):
    return [dims[k] for k in _LAYOUTS_1D[layout]]


def _from_ncw(ncw, layout):
    out = [None] * 3
    for value, pos in zip(ncw, _LAYOUTS_1D[layout]):
        out[pos] = value
    return out


def _data_3d(call):
    data = tensor_arg(call, 0, "data")
    if data.ndim not in (-1, 3):
        raise ValueError(f"{call.op.name}: data must be 3-D, got shape {fmt_shape(data)}")
    return data


def _infer_pool1d(call, ctx):
    a = call.attrs
    data = _data_3d(call)
    d = dims_of(data)
    if d is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=3)
    n, c, w = _ncw(d, a.layout)
    left, right = a.padding
    ow = _out_extent(w, left, right, a.pool_size[0], a.strides[0], a.dilation[0], a.ceil_mode)
    return tensor_sinfo(_from_ncw([n, c, ow], a.out_layout), data.dtype, data.vdevice)


register("nn.max_pool1d", _infer_pool1d)
register("nn.avg_pool1d", _infer_pool1d)


def _pool1d_op(name: str, doc: str, count_include_pad_default: bool):
    who = f"nn.{name}"

    def constructor(
        data,
        pool_size=(1,),
        strides=(1,),
        padding=(0, 0),
        dilation=(1,),
        ceil_mode=False,
        count_include_pad=count_include_pad_default,
        layout="NCW",
        out_layout=None,
    ):
        attrs = Pool1DAttrs(
            pool_size=_single(who, "pool_size", pool_size),
            strides=_single(who, "strides", strides),
            padding=_padding_1d(who, padding),
            dilation=_single(who, "dilation", dilation),
            ceil_mode=bool(ceil_mode),
            count_include_pad=bool(count_include_pad),
            layout=_layout(who, "layout", layout, _LAYOUTS_1D),
            out_layout=_layout(who, "out_layout", out_layout or layout, _LAYOUTS_1D),
        )
        return call_op(who, [data], attrs)

    constructor.__name__ = constructor.__qualname__ = name
    constructor.__doc__ = doc
    return constructor


max_pool1d = _pool1d_op(
    "max_pool1d", "The maximum over each pool_size window of the W axis.", False
)
avg_pool1d = _pool1d_op(
    "avg_pool1d",
    "The mean over each pool_size window (padding counted when count_include_pad).",
    True,
)


def _infer_adaptive_1d(call, ctx):
    a = call.attrs
    data = _data_3d(call)
    d = dims_of(data)
    if d is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=3)
    n, c, w = _ncw(d, a.layout)
    ow = w if a.output_size is None else a.output_size[0]
    return tensor_sinfo(_from_ncw([n, c, ow], a.out_layout), data.dtype, data.vdevice)


register("nn.adaptive_avg_pool1d", _infer_adaptive_1d)


def adaptive_avg_pool1d(data, output_size=None, layout="NCW", out_layout=None):
    """The mean over windows of the W axis chosen so that it has output_size entries."""
    who = "nn.adaptive_avg_pool1d"
    if output_size is not None:
        output_size = _single(who, "output_size", output_size)
    attrs = AdaptivePool1DAttrs(
        output_size=output_size,
        layout=_layout(who, "layout", layout, _LAYOUTS_1D),
        out_layout=_layout(who, "out_layout", out_layout or layout, _LAYOUTS_1D),
    )
    return call_op(who, [data], attrs)


def _infer_instance_norm(call, ctx):
    data = tensor_arg(call, 0, "data")
    a = call.attrs
    if data.ndim != -1:
        axis = normalize_axis("nn.instance_norm", a.channel_axis, data.ndim, "channel_axis")
        for k in a.axes:
            if normalize_axis("nn.instance_norm", k, data.ndim, "axes") == axis:
                raise ValueError("nn.instance_norm: axes must not hold the channel axis")
        channels = dims_of(data)[axis] if dims_of(data) is not None else None
        for index, name in ((1, "gamma"), (2, "beta")):
            param = tensor_arg(call, index, name)
            if param.ndim not in (-1, 1):
                raise ValueError(f"nn.instance_norm: {name} must be 1-D, got {fmt_shape(param)}")
            extent = dims_of(param)[0] if dims_of(param) is not None else None
            if None not in (static(extent), static(channels)) and static(extent) != static(
                channels
            ):
                raise ValueError(
                    f"nn.instance_norm: {name} has {static(extent)} entries but data has "
                    f"{static(channels)} channels"
                )
    return data


register("nn.instance_norm", _infer_instance_norm)


def instance_norm(
    data,
    gamma,
    beta,
    channel_axis: int,
    axes,
    epsilon: float = 1e-5,
    center: bool = True,
    scale: bool = True,
):
    """Each (instance, channel)'s values over axes normalised to mean 0 and variance 1, then
    scaled by gamma and shifted by beta per channel."""
    attrs = InstanceNormAttrs(
        channel_axis=int(channel_axis),
        axes=tuple(int(k) for k in ([axes] if isinstance(axes, int) else axes)),
        epsilon=float(epsilon),
        center=bool(center),
        scale=bool(scale),
    )
    return call_op("nn.instance_norm", [data, gamma, beta], attrs)


def _infer_batch_flatten(call, ctx):
    data = tensor_arg(call, 0, "data")
    d = dims_of(data)
    if d is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=2)
    if not d:
        raise ValueError("nn.batch_flatten: data must have at least one dimension")
    return tensor_sinfo([d[0], product(d[1:])], data.dtype, data.vdevice)


register("nn.batch_flatten", _infer_batch_flatten)


def batch_flatten(data):
    """data as (batch, everything else)."""
    return call_op("nn.batch_flatten", [data])


def _infer_pixel_shuffle(call, ctx):
    data = tensor_arg(call, 0, "data")
    r = call.attrs.upscale_factor
    d = dims_of(data)
    if d is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=data.ndim)
    if len(d) < 3:
        raise ValueError(f"nn.pixel_shuffle: data must have at least 3 dimensions, got {len(d)}")
    c = static(d[-3])
    if c is not None and c % (r * r):
        raise ValueError(
            f"nn.pixel_shuffle: the {c} channels of data do not divide by upscale_factor^2 = "
            f"{r * r}"
        )
    out = list(d[:-3]) + [d[-3] // (r * r), d[-2] * r, d[-1] * r]
    return tensor_sinfo(out, data.dtype, data.vdevice)


register("nn.pixel_shuffle", _infer_pixel_shuffle)


def pixel_shuffle(data, upscale_factor: int):
    """(..., C * r * r, H, W) rearranged to (..., C, H * r, W * r), r = upscale_factor."""
    if not isinstance(upscale_factor, int) or upscale_factor < 1:
        raise ValueError(
            f"nn.pixel_shuffle: upscale_factor must be a positive int, got {upscale_factor!r}"
        )
    return call_op("nn.pixel_shuffle", [data], PixelShuffleAttrs(upscale_factor=upscale_factor))


__all__ = [
    "adaptive_avg_pool1d",
    "avg_pool1d",
    "batch_flatten",
    "instance_norm",
    "max_pool1d",
    "pixel_shuffle",
]
