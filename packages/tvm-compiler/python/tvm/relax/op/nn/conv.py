"""conv2d and the 2-D pools (max, avg, adaptive avg): NCHW or NHWC data, strides, padding,
dilation, groups; shapes inferred with symbolic extents."""

from __future__ import annotations

from itertools import permutations

from tvm.tir import expr as E

from ...struct_info import TensorStructInfo
from .._utils import dims_of, fmt_shape, int64, simplify, static, tensor_arg, tensor_sinfo
from ..base import call_op, register
from ..op_attrs import Attrs, Conv2DAttrs, Pool2DAttrs


class AdaptivePool2DAttrs(Attrs):
    """adaptive_avg_pool2d: output_size, layout, out_layout."""


_LAYOUTS = {"NCHW": (0, 1, 2, 3), "NHWC": (0, 3, 1, 2)}  # positions of N, C, H, W
# A conv2d weight may be laid out in any order of its four axes (OIHW, HWIO, OHWI, ...).
_KERNEL_LAYOUTS = {"".join(p) for p in permutations("OIHW")}


def kernel_oihw(dims, layout: str) -> list:
    """A conv2d weight's dims (or axes) in O, I, H, W order, from its layout."""
    return [dims[layout.index(axis)] for axis in "OIHW"]


def _pair(who, name, value):
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, int) and v > 0 for v in pair):
        raise ValueError(f"{who}: {name} must be a positive int or a pair of them, got {value!r}")
    return pair


def _padding(who, value):
    pads = (value,) * 4 if isinstance(value, int) else tuple(value)
    if len(pads) == 2:
        pads = (pads[0], pads[1], pads[0], pads[1])
    if len(pads) != 4 or not all(isinstance(p, int) and p >= 0 for p in pads):
        raise ValueError(
            f"{who}: padding must be an int, a pair or (top, left, bottom, right), got {value!r}"
        )
    return pads


def _layout(who, name, layout, allowed):
    if layout not in allowed:
        raise ValueError(f"{who}: {name} must be one of {sorted(allowed)}, got {layout!r}")
    return layout


def _nchw(dims, layout):
    return [dims[k] for k in _LAYOUTS[layout]]


def _from_nchw(nchw, layout):
    out = [None] * 4
    for value, pos in zip(nchw, _LAYOUTS[layout]):
        out[pos] = value
    return out


def _out_extent(size, pad_lo, pad_hi, kernel, stride, dilation, ceil_mode=False):
    span = size + (pad_lo + pad_hi) - (kernel - 1) * dilation - 1
    if ceil_mode:
        span = span + (stride - 1)
    return simplify(E.FloorDiv(int64(span), int64(stride)) + 1)


def _infer_conv2d(call, ctx):
    who = "nn.conv2d"
    a = call.attrs
    data, weight = tensor_arg(call, 0, "data"), tensor_arg(call, 1, "weight")
    dtype = a.out_dtype if a.out_dtype != "void" else data.dtype
    for sinfo, name in ((data, "data"), (weight, "weight")):
        if sinfo.ndim not in (-1, 4):
            raise ValueError(f"{who}: {name} must be 4-D, got shape {fmt_shape(sinfo)}")
    d, w = dims_of(data), dims_of(weight)
    if d is None or w is None:
        return TensorStructInfo(dtype=dtype, vdevice=data.vdevice, ndim=4)
    n, c, h, wd = _nchw(d, a.data_layout)
    o, i, kh, kw = kernel_oihw(w, a.kernel_layout)
    if static(c) is not None and static(i) is not None and static(c) != static(i) * a.groups:
        raise ValueError(
            f"{who}: data of shape {fmt_shape(data)} ({a.data_layout}) has {static(c)} channels "
            f"but weight of shape {fmt_shape(weight)} ({a.kernel_layout}) expects "
            f"{static(i)} x groups {a.groups}"
        )
    if static(o) is not None and static(o) % a.groups:
        raise ValueError(f"{who}: {static(o)} output channels do not divide into {a.groups} groups")
    top, left, bottom, right = a.padding
    oh = _out_extent(h, top, bottom, kh, a.strides[0], a.dilation[0])
    ow = _out_extent(wd, left, right, kw, a.strides[1], a.dilation[1])
    return tensor_sinfo(_from_nchw([n, o, oh, ow], a.out_layout), dtype, data.vdevice)


register("nn.conv2d", _infer_conv2d)


def conv2d(
    data,
    weight,
    strides=(1, 1),
    padding=(0, 0),
    dilation=(1, 1),
    groups: int = 1,
    data_layout: str = "NCHW",
    kernel_layout: str = "OIHW",
    out_layout: str | None = None,
    out_dtype=None,
):
    """2-D convolution of data by weight."""
    who = "nn.conv2d"
    if not isinstance(groups, int) or groups < 1:
        raise ValueError(f"{who}: groups must be a positive int, got {groups!r}")
    attrs = Conv2DAttrs(
        strides=_pair(who, "strides", strides),
        padding=_padding(who, padding),
        dilation=_pair(who, "dilation", dilation),
        groups=groups,
        data_layout=_layout(who, "data_layout", data_layout, _LAYOUTS),
        kernel_layout=_layout(who, "kernel_layout", kernel_layout, _KERNEL_LAYOUTS),
        out_layout=_layout(who, "out_layout", out_layout or data_layout, _LAYOUTS),
        out_dtype=str(out_dtype or "void"),
    )
    return call_op("nn.conv2d", [data, weight], attrs)


def _infer_pool2d(call, ctx):
    a = call.attrs
    data = tensor_arg(call, 0, "data")
    if data.ndim not in (-1, 4):
        raise ValueError(f"{call.op.name}: data must be 4-D, got shape {fmt_shape(data)}")
    d = dims_of(data)
    if d is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=4)
    n, c, h, w = _nchw(d, a.layout)
    top, left, bottom, right = a.padding
    kh, kw = a.pool_size
    oh = _out_extent(h, top, bottom, kh, a.strides[0], a.dilation[0], a.ceil_mode)
    ow = _out_extent(w, left, right, kw, a.strides[1], a.dilation[1], a.ceil_mode)
    return tensor_sinfo(_from_nchw([n, c, oh, ow], a.out_layout), data.dtype, data.vdevice)


register("nn.max_pool2d", _infer_pool2d)
register("nn.avg_pool2d", _infer_pool2d)


def _pool_op(name: str, doc: str):
    """The constructor of nn.<name> (max_pool2d / avg_pool2d share their signature)."""
    who = f"nn.{name}"

    def constructor(
        data,
        pool_size=(1, 1),
        strides=(1, 1),
        padding=(0, 0),
        dilation=(1, 1),
        ceil_mode=False,
        count_include_pad=False,
        layout="NCHW",
        out_layout=None,
    ):
        attrs = Pool2DAttrs(
            pool_size=_pair(who, "pool_size", pool_size),
            strides=_pair(who, "strides", strides),
            padding=_padding(who, padding),
            dilation=_pair(who, "dilation", dilation),
            ceil_mode=bool(ceil_mode),
            count_include_pad=bool(count_include_pad),
            layout=_layout(who, "layout", layout, _LAYOUTS),
            out_layout=_layout(who, "out_layout", out_layout or layout, _LAYOUTS),
        )
        return call_op(who, [data], attrs)

    constructor.__name__ = constructor.__qualname__ = name
    constructor.__doc__ = doc
    return constructor


max_pool2d = _pool_op("max_pool2d", "The maximum over each pool_size window.")
avg_pool2d = _pool_op(
    "avg_pool2d", "The mean over each pool_size window (padding counted when count_include_pad)."
)


def _infer_adaptive(call, ctx):
    a = call.attrs
    data = tensor_arg(call, 0, "data")
    d = dims_of(data)
    if d is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=4)
    n, c, h, w = _nchw(d, a.layout)
    oh, ow = (h, w) if a.output_size is None else a.output_size
    return tensor_sinfo(_from_nchw([n, c, oh, ow], a.out_layout), data.dtype, data.vdevice)


register("nn.adaptive_avg_pool2d", _infer_adaptive)


def adaptive_avg_pool2d(data, output_size=None, layout="NCHW", out_layout=None):
    """The mean over windows chosen so that the result has output_size."""
    who = "nn.adaptive_avg_pool2d"
    if output_size is not None:
        output_size = _pair(who, "output_size", output_size)
    attrs = AdaptivePool2DAttrs(
        output_size=output_size,
        layout=_layout(who, "layout", layout, _LAYOUTS),
        out_layout=_layout(who, "out_layout", out_layout or layout, _LAYOUTS),
    )
    return call_op(who, [data], attrs)


__all__ = ["adaptive_avg_pool2d", "avg_pool2d", "conv2d", "max_pool2d"]
