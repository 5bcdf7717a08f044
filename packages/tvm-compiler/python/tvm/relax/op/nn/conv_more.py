"""conv1d (NCW/NWC data, OIW/WIO weight), conv1d_transpose (NCW data, IOW weight) and
conv2d_transpose (NCHW data, IOHW weight): the convolutions beside conv2d, with their shapes
inferred on symbolic extents."""

from __future__ import annotations

from ...struct_info import TensorStructInfo
from .._utils import dims_of, fmt_shape, static, tensor_arg, tensor_sinfo
from ..base import call_op, register
from ..op_attrs import Attrs
from .conv import _layout, _out_extent, _padding, _pair


class Conv1DAttrs(Attrs):
    """conv1d: strides, padding, dilation, groups, data_layout, kernel_layout, out_layout,
    out_dtype."""


class Conv1DTransposeAttrs(Attrs):
    """conv1d_transpose: strides, padding, output_padding, dilation, groups, data_layout,
    kernel_layout, out_layout, out_dtype."""


class Conv2DTransposeAttrs(Attrs):
    """conv2d_transpose: strides, padding, output_padding, dilation, groups, data_layout,
    kernel_layout, out_layout, out_dtype."""


def _one(who, name, value):
    one = (value,) if isinstance(value, int) else tuple(value)
    if len(one) != 1 or not all(isinstance(v, int) and v > 0 for v in one):
        raise ValueError(f"{who}: {name} must be a positive int or a 1-tuple, got {value!r}")
    return one


def _pads_1d(who, value):
    pads = (value, value) if isinstance(value, int) else tuple(value)
    if len(pads) == 1:
        pads = pads * 2
    if len(pads) != 2 or not all(isinstance(p, int) and p >= 0 for p in pads):
        raise ValueError(f"{who}: padding must be an int or (left, right), got {value!r}")
    return pads


def _check_ndim(who, ndim, *named):
    for sinfo, name in named:
        if sinfo.ndim not in (-1, ndim):
            raise ValueError(f"{who}: {name} must be {ndim}-D, got shape {fmt_shape(sinfo)}")


def _operands(call, who, ndim):
    """data, weight, the result dtype and both dims (None where unknown), rank-checked."""
    data, weight = tensor_arg(call, 0, "data"), tensor_arg(call, 1, "weight")
    dtype = call.attrs.out_dtype if call.attrs.out_dtype != "void" else data.dtype
    _check_ndim(who, ndim, (data, "data"), (weight, "weight"))
    return data, weight, dtype, dims_of(data), dims_of(weight)


def _check_channels(who, data, weight, channels, per_group, groups, layout, kernel_layout):
    if static(channels) is not None and static(per_group) is not None:
        if static(channels) != static(per_group) * groups:
            raise ValueError(
                f"{who}: data of shape {fmt_shape(data)} ({layout}) has {static(channels)} "
                f"channels but weight of shape {fmt_shape(weight)} ({kernel_layout}) expects "
                f"{static(per_group)} x groups {groups}"
            )


def _infer_conv1d(call, ctx):
    who = "nn.conv1d"
    a = call.attrs
    data, weight, dtype, d, w = _operands(call, who, 3)
    if d is None or w is None:
        return TensorStructInfo(dtype=dtype, vdevice=data.vdevice, ndim=3)
    n, c, width = (d[0], d[1], d[2]) if a.data_layout == "NCW" else (d[0], d[2], d[1])
    o, i, k = (w[0], w[1], w[2]) if a.kernel_layout == "OIW" else (w[2], w[1], w[0])
    _check_channels(who, data, weight, c, i, a.groups, a.data_layout, a.kernel_layout)
    ow = _out_extent(width, a.padding[0], a.padding[1], k, a.strides[0], a.dilation[0])
    out = [n, o, ow] if a.out_layout == "NCW" else [n, ow, o]
    return tensor_sinfo(out, dtype, data.vdevice)


def _infer_conv2d_transpose(call, ctx):
    who = "nn.conv2d_transpose"
    a = call.attrs
    data, weight, dtype, d, w = _operands(call, who, 4)
    if d is None or w is None:
        return TensorStructInfo(dtype=dtype, vdevice=data.vdevice, ndim=4)
    n, c, h, wd = d
    i, o, kh, kw = w
    if static(c) is not None and static(i) is not None and static(c) != static(i):
        raise ValueError(
            f"{who}: data of shape {fmt_shape(data)} (NCHW) has {static(c)} channels but "
            f"weight of shape {fmt_shape(weight)} (IOHW) expects {static(i)}"
        )
    top, left, bottom, right = a.padding
    sh, sw = a.strides
    dh, dw = a.dilation
    oph, opw = a.output_padding
    oh = (h - 1) * sh - top - bottom + dh * (kh - 1) + oph + 1
    ow = (wd - 1) * sw - left - right + dw * (kw - 1) + opw + 1
    return tensor_sinfo([n, o * a.groups, oh, ow], dtype, data.vdevice)


def _infer_conv1d_transpose(call, ctx):
    who = "nn.conv1d_transpose"
    a = call.attrs
    data, weight, dtype, d, w = _operands(call, who, 3)
    if d is None or w is None:
        return TensorStructInfo(dtype=dtype, vdevice=data.vdevice, ndim=3)
    n, c, width = d
    i, o, k = w
    if static(c) is not None and static(i) is not None and static(c) != static(i):
        raise ValueError(
            f"{who}: data of shape {fmt_shape(data)} (NCW) has {static(c)} channels but "
            f"weight of shape {fmt_shape(weight)} (IOW) expects {static(i)}"
        )
    left, right = a.padding
    ow = (
        (width - 1) * a.strides[0] - left - right + a.dilation[0] * (k - 1)
        + a.output_padding[0] + 1
    )  # fmt: skip
    return tensor_sinfo([n, o * a.groups, ow], dtype, data.vdevice)


register("nn.conv1d", _infer_conv1d)
register("nn.conv1d_transpose", _infer_conv1d_transpose)
register("nn.conv2d_transpose", _infer_conv2d_transpose)


def _groups(who, groups):
    if not isinstance(groups, int) or groups < 1:
        raise ValueError(f"{who}: groups must be a positive int, got {groups!r}")
    return groups


def conv1d(
    data,
    weight,
    strides=1,
    padding=0,
    dilation=1,
    groups: int = 1,
    data_layout: str = "NCW",
    kernel_layout: str = "OIW",
    out_layout: str | None = None,
    out_dtype=None,
):
    """1-D convolution of data by weight."""
    who = "nn.conv1d"
    attrs = Conv1DAttrs(
        strides=_one(who, "strides", strides),
        padding=_pads_1d(who, padding),
        dilation=_one(who, "dilation", dilation),
        groups=_groups(who, groups),
        data_layout=_layout(who, "data_layout", data_layout, {"NCW", "NWC"}),
        kernel_layout=_layout(who, "kernel_layout", kernel_layout, {"OIW", "WIO"}),
        out_layout=_layout(who, "out_layout", out_layout or data_layout, {"NCW", "NWC"}),
        out_dtype=str(out_dtype or "void"),
    )
    return call_op(who, [data, weight], attrs)


def _output_padding(who, output_padding, strides, dilation):
    """output_padding as a tuple of one int per spatial axis (len(strides) of them), each
    smaller than its axis' stride or dilation."""
    rank = len(strides)
    out_pad = (output_padding,) * rank if isinstance(output_padding, int) else tuple(output_padding)
    if len(out_pad) != rank or not all(
        isinstance(p, int) and 0 <= p < max(s, d) for p, s, d in zip(out_pad, strides, dilation)
    ):
        what = (
            "an int smaller than the stride or dilation"
            if rank == 1
            else "a pair of ints each smaller than its stride or dilation"
        )
        raise ValueError(f"{who}: output_padding must be {what}, got {output_padding!r}")
    return out_pad


def conv1d_transpose(
    data,
    weight,
    strides=1,
    padding=0,
    output_padding=0,
    dilation=1,
    groups: int = 1,
    data_layout: str = "NCW",
    kernel_layout: str = "IOW",
    out_layout: str | None = None,
    out_dtype=None,
):
    """The transposed 1-D convolution: weight is (in channels, out channels / groups, k)."""
    who = "nn.conv1d_transpose"
    strides, dilation = _one(who, "strides", strides), _one(who, "dilation", dilation)
    out_pad = _output_padding(who, output_padding, strides, dilation)
    attrs = Conv1DTransposeAttrs(
        strides=strides,
        padding=_pads_1d(who, padding),
        output_padding=out_pad,
        dilation=dilation,
        groups=_groups(who, groups),
        data_layout=_layout(who, "data_layout", data_layout, {"NCW"}),
        kernel_layout=_layout(who, "kernel_layout", kernel_layout, {"IOW"}),
        out_layout=_layout(who, "out_layout", out_layout or data_layout, {"NCW"}),
        out_dtype=str(out_dtype or "void"),
    )
    return call_op(who, [data, weight], attrs)


def conv2d_transpose(
    data,
    weight,
    strides=(1, 1),
    padding=(0, 0),
    output_padding=(0, 0),
    dilation=(1, 1),
    groups: int = 1,
    data_layout: str = "NCHW",
    kernel_layout: str = "IOHW",
    out_layout: str | None = None,
    out_dtype=None,
):
    """The transposed 2-D convolution (the gradient of conv2d with respect to its data):
    weight is (in channels, out channels / groups, kh, kw)."""
    who = "nn.conv2d_transpose"
    strides, dilation = _pair(who, "strides", strides), _pair(who, "dilation", dilation)
    out_pad = _output_padding(who, output_padding, strides, dilation)
    attrs = Conv2DTransposeAttrs(
        strides=strides,
        padding=_padding(who, padding),
        output_padding=out_pad,
        dilation=dilation,
        groups=_groups(who, groups),
        data_layout=_layout(who, "data_layout", data_layout, {"NCHW"}),
        kernel_layout=_layout(who, "kernel_layout", kernel_layout, {"IOHW"}),
        out_layout=_layout(who, "out_layout", out_layout or data_layout, {"NCHW"}),
        out_dtype=str(out_dtype or "void"),
    )
    return call_op(who, [data, weight], attrs)


__all__ = ["conv1d", "conv1d_transpose", "conv2d_transpose"]
