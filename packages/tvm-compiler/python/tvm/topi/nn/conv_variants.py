"""Convolutions by layout and grouping as upstream names them: conv2d_nchw, conv2d_nhwc,
group_conv2d_nchw, depthwise_conv2d_nchw, conv1d, conv1d_ncw, conv1d_nwc, group_conv1d_ncw
(one grouped 2-D core)."""

from __future__ import annotations

from tvm import te
from tvm.arith import Analyzer
from tvm.tir import expr as E

from .pad import pad


def _pair(who, name, value):
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, int) for v in pair):
        raise ValueError(
            f"topi.nn.{who}: argument {name!r} must be an int or a pair, got {value!r}"
        )
    return pair


def get_pad_tuple(padding, kernel):
    """(top, left, bottom, right) for padding: an int, (h, w), (top, left, bottom, right),
    "VALID" (none) or "SAME" (the output keeps the input's extent at stride 1)."""
    kh, kw = kernel
    if isinstance(padding, str):
        if padding == "VALID":
            return 0, 0, 0, 0
        if padding == "SAME":
            pad_h, pad_w = kh - 1, kw - 1
            top, left = (pad_h + 1) // 2, (pad_w + 1) // 2
            return top, left, pad_h - top, pad_w - left
        raise ValueError(f"get_pad_tuple: padding must be 'SAME' or 'VALID', got {padding!r}")
    if isinstance(padding, int):
        return (padding,) * 4
    padding = tuple(padding)
    if len(padding) == 2:
        return padding[0], padding[1], padding[0], padding[1]
    if len(padding) == 4:
        return padding
    raise ValueError(f"get_pad_tuple: padding must have 2 or 4 entries, got {padding!r}")


def _tensor4(who, **tensors):
    for name, t in tensors.items():
        if not isinstance(t, te.Tensor) or t.ndim != 4:
            raise ValueError(f"topi.nn.{who}: argument {name!r} must be a 4-D te.Tensor, got {t!r}")


def _static(value):
    return value.value if isinstance(value, E.IntImm) else None


def _grouped_nchw(who, data, kernel, stride, padding, dilation, groups, out_dtype, name):
    """out[n, f, y, x] = sum over the channels c of f's group and the taps of the padded data
    times kernel[f, c, ry, rx] (kernel OIHW with I = channels / groups)."""
    sh, sw = _pair(who, "stride", stride)
    dh, dw = _pair(who, "dilation", dilation)
    n, c, h, w = data.shape
    f, cg, kh, kw = kernel.shape
    if not isinstance(groups, int) or groups < 1:
        raise ValueError(f"topi.nn.{who}: argument 'groups' must be an int >= 1, got {groups!r}")
    for label, extent in (("channels", c), ("filters", f)):
        if _static(extent) is not None and _static(extent) % groups:
            raise ValueError(
                f"topi.nn.{who}: {_static(extent)} {label} do not split into {groups} groups"
            )
    if None not in (_static(c), _static(cg)) and _static(c) != _static(cg) * groups:
        raise ValueError(
            f"topi.nn.{who}: kernel takes {_static(cg)} channels per group, data has "
            f"{_static(c)} for {groups} groups"
        )
    dkh = (kh - 1) * dh + 1 if _static(kh) is None else (_static(kh) - 1) * dh + 1
    dkw = (kw - 1) * dw + 1 if _static(kw) is None else (_static(kw) - 1) * dw + 1
    top, left, bottom, right = get_pad_tuple(padding, (dkh, dkw))
    out_dtype = out_dtype or data.dtype
    padded = pad(data, (0, 0, top, left), (0, 0, bottom, right), name="pad_temp")
    oh = Analyzer().simplify(E.FloorDiv(h + top + bottom - dkh, sh) + 1)
    ow = Analyzer().simplify(E.FloorDiv(w + left + right - dkw, sw) + 1)
    per_group = E.FloorDiv(f, groups) if groups != 1 else None
    rc = te.reduce_axis((0, cg), name="rc")
    ry = te.reduce_axis((0, kh), name="ry")
    rx = te.reduce_axis((0, kw), name="rx")

    def body(b, o, y, x):
        channel = rc if per_group is None else E.FloorDiv(o, per_group) * cg + rc
        value = padded[b, channel, y * sh + ry * dh, x * sw + rx * dw].astype(out_dtype)
        return te.sum(value * kernel[o, rc, ry, rx].astype(out_dtype), axis=[rc, ry, rx])

    return te.compute((n, f, oh, ow), body, name=name)


def conv2d_nchw(Input, Filter, stride, padding, dilation, out_dtype=None):  # noqa: N803
    """2-D convolution of NCHW Input with an OIHW Filter."""
    _tensor4("conv2d_nchw", Input=Input, Filter=Filter)
    return _grouped_nchw(
        "conv2d_nchw", Input, Filter, stride, padding, dilation, 1, out_dtype, "conv2d_nchw"
    )


def group_conv2d_nchw(Input, Filter, stride, padding, dilation, groups, out_dtype=None):  # noqa: N803
    """Grouped 2-D convolution of NCHW Input with an OIHW Filter (I = channels / groups)."""
    _tensor4("group_conv2d_nchw", Input=Input, Filter=Filter)
    return _grouped_nchw(
        "group_conv2d_nchw",
        Input,
        Filter,
        stride,
        padding,
        dilation,
        groups,
        out_dtype,
        "group_conv2d_nchw",
    )


def depthwise_conv2d_nchw(Input, Filter, stride, padding, dilation, out_dtype=None):  # noqa: N803
    """Depthwise 2-D convolution: Filter (C, M, kh, kw) gives each channel M outputs."""
    _tensor4("depthwise_conv2d_nchw", Input=Input, Filter=Filter)
    c, m, kh, kw = Filter.shape
    # Output channel o reads input channel o // M through Filter[o // M, o % M]: a grouped
    # convolution with one group per input channel and an (C * M, 1, kh, kw) kernel.
    as_oihw = te.compute(
        (c * m, 1, kh, kw),
        lambda o, _, y, x: Filter[E.FloorDiv(o, m), E.FloorMod(o, m), y, x],
        name="depthwise_kernel",
    )
    groups = _static(c)
    if groups is None:
        raise ValueError("topi.nn.depthwise_conv2d_nchw: the channel extent must be static")
    return _grouped_nchw(
        "depthwise_conv2d_nchw",
        Input,
        as_oihw,
        stride,
        padding,
        dilation,
        groups,
        out_dtype,
        "DepthwiseConv2d",
    )


def conv2d_nhwc(  # noqa: N803
    Input,  # noqa: N803
    Filter,  # noqa: N803
    stride,
    padding,
    dilation,
    out_dtype="float32",
    auto_scheduler_rewritten_layout="",
    meta_schedule_original_shape=None,
):
    """2-D convolution of NHWC Input with an HWIO Filter (the scheduler arguments are
    accepted and unused: no auto-scheduler here)."""
    who = "conv2d_nhwc"
    _tensor4(who, Input=Input, Filter=Filter)
    sh, sw = _pair(who, "stride", stride)
    dh, dw = _pair(who, "dilation", dilation)
    n, h, w, c = Input.shape
    kh, kw, _, f = Filter.shape
    dkh = (_static(kh) - 1) * dh + 1 if _static(kh) is not None else (kh - 1) * dh + 1
    dkw = (_static(kw) - 1) * dw + 1 if _static(kw) is not None else (kw - 1) * dw + 1
    top, left, bottom, right = get_pad_tuple(padding, (dkh, dkw))
    out_dtype = out_dtype or Input.dtype
    padded = pad(Input, (0, top, left, 0), (0, bottom, right, 0), name="pad_temp")
    oh = Analyzer().simplify(E.FloorDiv(h + top + bottom - dkh, sh) + 1)
    ow = Analyzer().simplify(E.FloorDiv(w + left + right - dkw, sw) + 1)
    rc = te.reduce_axis((0, c), name="rc")
    ry = te.reduce_axis((0, kh), name="ry")
    rx = te.reduce_axis((0, kw), name="rx")
    return te.compute(
        (n, oh, ow, f),
        lambda b, y, x, o: te.sum(
            padded[b, y * sh + ry * dh, x * sw + rx * dw, rc].astype(out_dtype)
            * Filter[ry, rx, rc, o].astype(out_dtype),
            axis=[ry, rx, rc],
        ),
        name="Conv2dOutput",
    )


def get_pad_tuple1d(padding, kernel):
    """(left, right) for padding: an int, (left, right), "VALID" or "SAME" (kernel is
    (taps,) or taps)."""
    k = kernel[0] if isinstance(kernel, (list, tuple)) else kernel
    if isinstance(padding, str):
        if padding == "VALID":
            return 0, 0
        if padding == "SAME":
            return (k - 1 + 1) // 2, (k - 1) - (k - 1 + 1) // 2
        raise ValueError(f"get_pad_tuple1d: padding must be 'SAME' or 'VALID', got {padding!r}")
    if isinstance(padding, int):
        return padding, padding
    padding = tuple(padding)
    if len(padding) == 1:
        return padding[0], padding[0]
    if len(padding) == 2:
        return padding
    raise ValueError(f"get_pad_tuple1d: padding must have 1 or 2 entries, got {padding!r}")


def _conv1d_ncw(who, data, kernel, strides, padding, dilation, groups, out_dtype):
    for name, t in (("data", data), ("kernel", kernel)):
        if not isinstance(t, te.Tensor) or t.ndim != 3:
            raise ValueError(f"topi.nn.{who}: argument {name!r} must be a 3-D te.Tensor, got {t!r}")
    stride = strides if isinstance(strides, int) else strides[0]
    dil = dilation if isinstance(dilation, int) else dilation[0]
    taps = _static(kernel.shape[2])
    if taps is None:
        raise ValueError(f"topi.nn.{who}: the kernel's width must be static")
    left, right = get_pad_tuple1d(padding, (taps - 1) * dil + 1)
    data4 = te.compute(
        (data.shape[0], data.shape[1], 1, data.shape[2]),
        lambda b, c, _, x: data[b, c, x],
        name="data_nchw",
    )
    kernel4 = te.compute(
        (kernel.shape[0], kernel.shape[1], 1, kernel.shape[2]),
        lambda o, c, _, x: kernel[o, c, x],
        name="kernel_oihw",
    )
    out = _grouped_nchw(
        who, data4, kernel4, (1, stride), (0, left, 0, right), (1, dil), groups, out_dtype, "conv1d"
    )
    return te.compute(
        (out.shape[0], out.shape[1], out.shape[3]),
        lambda b, o, x: out[b, o, 0, x],
        name="conv1d_ncw",
    )


def conv1d_ncw(data, kernel, strides=1, padding="VALID", dilation=1, out_dtype=None):
    """1-D convolution of NCW data with an OIW kernel (through the 2-D core, H = 1)."""
    return _conv1d_ncw("conv1d_ncw", data, kernel, strides, padding, dilation, 1, out_dtype)


def group_conv1d_ncw(
    data, kernel, strides=1, padding="VALID", dilation=1, groups=1, out_dtype=None
):
    """Grouped 1-D convolution of NCW data with an OIW kernel (I = channels / groups)."""
    return _conv1d_ncw(
        "group_conv1d_ncw", data, kernel, strides, padding, dilation, groups, out_dtype
    )


def conv1d(
    data,
    kernel,
    strides=1,
    padding="VALID",
    dilation=1,
    groups=1,
    data_layout="NCW",
    kernel_layout="",
    out_dtype=None,
):
    """1-D convolution: NCW data with an OIW kernel, or NWC data with a WIO kernel."""
    if data_layout == "NCW" and kernel_layout in ("", "OIW"):
        return group_conv1d_ncw(data, kernel, strides, padding, dilation, groups, out_dtype)
    if data_layout == "NWC" and kernel_layout in ("", "WIO"):
        if groups != 1:
            raise ValueError("topi.nn.conv1d: NWC data takes groups = 1 only")
        return conv1d_nwc(data, kernel, strides, padding, dilation, out_dtype)
    raise ValueError(
        f"topi.nn.conv1d: layouts NCW/OIW or NWC/WIO are supported, got {data_layout!r}/"
        f"{kernel_layout!r}"
    )


def conv1d_nwc(data, kernel, strides=1, padding="VALID", dilation=1, out_dtype=None):
    """1-D convolution of NWC data with a WIO kernel."""
    for name, t in (("data", data), ("kernel", kernel)):
        if not isinstance(t, te.Tensor) or t.ndim != 3:
            raise ValueError(
                f"topi.nn.conv1d_nwc: argument {name!r} must be a 3-D te.Tensor, got {t!r}"
            )
    ncw = te.compute(
        (data.shape[0], data.shape[2], data.shape[1]), lambda b, c, x: data[b, x, c], name="ncw"
    )
    oiw = te.compute(
        (kernel.shape[2], kernel.shape[1], kernel.shape[0]),
        lambda o, c, x: kernel[x, c, o],
        name="oiw",
    )
    out = conv1d_ncw(ncw, oiw, strides, padding, dilation, out_dtype)
    return te.compute(
        (out.shape[0], out.shape[2], out.shape[1]),
        lambda b, x, o: out[b, o, x],
        name="conv1d_nwc",
    )
