"""conv: an N-d grouped convolution in any data/kernel layout (N, C and spatial letters;
O, I and the same spatial letters), and the layouts upstream names on top of it:
conv3d_ncdhw, conv3d_ndhwc, conv2d_hwcn, group_conv2d_nhwc, depthwise_conv2d_nhwc,
group_conv1d_nwc."""

from __future__ import annotations

from tvm import te
from tvm.arith import Analyzer
from tvm.tir import expr as E

from .pad import pad


def get_pad_tuple_generic(padding, kernel):
    """(pad_begin, pad_end) lists, one entry per spatial axis, for padding: an int, one int
    per axis, begin then end for each axis, "VALID" or "SAME" (kernel: the dilated taps)."""
    dims = len(kernel)
    if isinstance(padding, str):
        if padding == "VALID":
            return [0] * dims, [0] * dims
        if padding == "SAME":
            begin = [(k - 1 + 1) // 2 for k in kernel]
            return begin, [k - 1 - b for k, b in zip(kernel, begin)]
        raise ValueError(
            f"get_pad_tuple_generic: padding must be 'SAME' or 'VALID', got {padding!r}"
        )
    if isinstance(padding, int):
        return [padding] * dims, [padding] * dims
    padding = list(padding)
    if len(padding) == dims:
        return padding, list(padding)
    if len(padding) == 2 * dims:
        return padding[:dims], padding[dims:]
    raise ValueError(
        f"get_pad_tuple_generic: padding must have {dims} or {2 * dims} entries, got {padding!r}"
    )


def get_pad_tuple3d(padding, kernel):
    """(front, top, left, back, bottom, right) for a 3-D kernel (kernel: its 3 taps)."""
    begin, end = get_pad_tuple_generic(padding, kernel)
    return (*begin, *end)


def _ints(who, name, value, dims):
    values = [value] * dims if isinstance(value, int) else list(value)
    if len(values) != dims or not all(isinstance(v, int) and v >= 1 for v in values):
        raise ValueError(
            f"topi.nn.{who}: argument {name!r} must be an int or {dims} ints >= 1, got {value!r}"
        )
    return values


def _static(value):
    return value.value if isinstance(value, E.IntImm) else None


def _layouts(who, data_layout, kernel_layout, ndim):
    if (
        not isinstance(data_layout, str)
        or len(data_layout) != ndim
        or "N" not in data_layout
        or "C" not in data_layout
        or len(set(data_layout)) != ndim
    ):
        raise ValueError(
            f"topi.nn.{who}: argument 'data_layout' {data_layout!r} does not fit the data"
        )
    spatial = [a for a in data_layout if a not in "NC"]
    if not kernel_layout:
        kernel_layout = (
            "OI" + "".join(spatial)
            if data_layout.index("C") < data_layout.index(spatial[0] if spatial else "C")
            else "".join(spatial) + "IO"
        )
    if sorted(kernel_layout) != sorted(["O", "I", *spatial]):
        raise ValueError(
            f"topi.nn.{who}: argument 'kernel_layout' {kernel_layout!r} must hold O, I and "
            f"{''.join(spatial)}"
        )
    return spatial, kernel_layout


def conv(
    inp,
    filt,
    stride,
    padding,
    dilation,
    groups,
    data_layout,
    kernel_layout="",
    out_dtype=None,
    auto_scheduler_rewritten_layout=None,
    meta_schedule_original_shape=None,
    auto_scheduler_should_rewrite_layout=False,
):
    """The grouped convolution of inp (data_layout) with filt (kernel_layout; default OI+
    spatial for channels-first data, spatial+IO otherwise): output channel o of group
    g = o // (O / groups) sums input channels g * I .. g * I + I - 1."""
    who = "conv"
    for name, t in (("inp", inp), ("filt", filt)):
        if not isinstance(t, te.Tensor):
            raise TypeError(f"topi.nn.{who}: argument {name!r} must be a te.Tensor, got {t!r}")
    if filt.ndim != inp.ndim:
        raise ValueError(f"topi.nn.{who}: inp and filt must have the same rank")
    spatial, kernel_layout = _layouts(who, data_layout, kernel_layout, inp.ndim)
    dims = len(spatial)
    strides = _ints(who, "stride", stride, dims)
    dilations = _ints(who, "dilation", dilation, dims)
    if not isinstance(groups, int) or groups < 1:
        raise ValueError(f"topi.nn.{who}: argument 'groups' must be an int >= 1, got {groups!r}")
    dshape = dict(zip(data_layout, inp.shape))
    kshape = dict(zip(kernel_layout, filt.shape))
    channels, per_group, filters = dshape["C"], kshape["I"], kshape["O"]
    for label, extent in (("channels", channels), ("filters", filters)):
        if _static(extent) is not None and _static(extent) % groups:
            raise ValueError(
                f"topi.nn.{who}: {_static(extent)} {label} do not split into {groups} groups"
            )
    if (
        None not in (_static(channels), _static(per_group))
        and _static(channels) != _static(per_group) * groups
    ):
        raise ValueError(
            f"topi.nn.{who}: filt takes {_static(per_group)} channels per group, inp has "
            f"{_static(channels)} for {groups} groups"
        )
    taps = []
    for a, d in zip(spatial, dilations):
        k = _static(kshape[a])
        if k is None:
            raise ValueError(f"topi.nn.{who}: the kernel's spatial extents must be static")
        taps.append((k - 1) * d + 1)
    begin, end = get_pad_tuple_generic(padding, taps)
    before = [begin[spatial.index(a)] if a in spatial else 0 for a in data_layout]
    after = [end[spatial.index(a)] if a in spatial else 0 for a in data_layout]
    padded = pad(inp, before, after, name="pad_temp")
    out_extent = {
        a: Analyzer().simplify(E.FloorDiv(dshape[a] + b + e - t, s) + 1)
        for a, b, e, t, s in zip(spatial, begin, end, taps, strides)
    }
    out_shape = [
        dshape["N"] if a == "N" else filters if a == "C" else out_extent[a] for a in data_layout
    ]
    out_dtype = out_dtype or inp.dtype
    rc = te.reduce_axis((0, per_group), name="rc")
    rk = {a: te.reduce_axis((0, kshape[a]), name=f"r{a.lower()}") for a in spatial}
    per_filter_group = E.FloorDiv(filters, groups) if groups != 1 else None

    def body(*i):
        at = dict(zip(data_layout, i))
        o = at["C"]
        channel = (
            rc.var
            if per_filter_group is None
            else E.FloorDiv(o, per_filter_group) * per_group + rc.var
        )
        src = {"N": at["N"], "C": channel}
        for a, s, d in zip(spatial, strides, dilations):
            src[a] = at[a] * s + rk[a].var * d
        weight = {"O": o, "I": rc.var, **{a: rk[a].var for a in spatial}}
        value = padded[tuple(src[a] for a in data_layout)].astype(out_dtype)
        w = filt[tuple(weight[a] for a in kernel_layout)].astype(out_dtype)
        return te.sum(value * w, axis=[rc, *rk.values()])

    return te.compute(out_shape, body, name="conv")


def conv3d_ncdhw(Input, Filter, stride, padding, dilation, groups, out_dtype=None):  # noqa: N803
    """3-D convolution of NCDHW Input with an OIDHW Filter."""
    return conv(Input, Filter, stride, padding, dilation, groups, "NCDHW", "OIDHW", out_dtype)


def conv3d_ndhwc(
    Input,  # noqa: N803
    Filter,  # noqa: N803
    stride,
    padding,
    dilation,
    groups,
    out_dtype="float32",
    auto_scheduler_rewritten_layout="",
    meta_schedule_original_shape=None,
):
    """3-D convolution of NDHWC Input with a DHWIO Filter (the scheduler arguments are
    accepted and unused)."""
    return conv(Input, Filter, stride, padding, dilation, groups, "NDHWC", "DHWIO", out_dtype)


def conv2d_hwcn(Input, Filter, stride, padding, dilation, out_dtype=None):  # noqa: N803
    """2-D convolution of HWCN Input with an HWIO Filter."""
    return conv(Input, Filter, stride, padding, dilation, 1, "HWCN", "HWIO", out_dtype)


def group_conv2d_nhwc(Input, Filter, stride, padding, dilation, groups, out_dtype=None):  # noqa: N803
    """Grouped 2-D convolution of NHWC Input with an HWIO Filter (I = channels / groups)."""
    return conv(Input, Filter, stride, padding, dilation, groups, "NHWC", "HWIO", out_dtype)


def group_conv1d_nwc(
    data, kernel, strides=1, padding="VALID", dilation=1, groups=1, out_dtype=None
):
    """Grouped 1-D convolution of NWC data with a WIO kernel."""
    return conv(data, kernel, strides, padding, dilation, groups, "NWC", "WIO", out_dtype)


def depthwise_conv2d_nhwc(
    Input,  # noqa: N803
    Filter,  # noqa: N803
    stride,
    padding,
    dilation,
    kernel_layout="HWOI",
    out_dtype=None,
):
    """Depthwise 2-D convolution of NHWC Input: Filter (kh, kw, C, M) in HWOI gives each
    channel c the outputs c * M .. c * M + M - 1."""
    if kernel_layout != "HWOI":
        raise ValueError(
            f"topi.nn.depthwise_conv2d_nhwc: argument 'kernel_layout' must be 'HWOI', got "
            f"{kernel_layout!r}"
        )
    if not isinstance(Filter, te.Tensor) or Filter.ndim != 4:
        raise ValueError("topi.nn.depthwise_conv2d_nhwc: argument 'Filter' must be a 4-D te.Tensor")
    kh, kw, c, m = Filter.shape
    groups = _static(c)
    if groups is None:
        raise ValueError("topi.nn.depthwise_conv2d_nhwc: the channel extent must be static")
    hwio = te.compute(
        (kh, kw, 1, c * m),
        lambda y, x, _, o: Filter[y, x, E.FloorDiv(o, m), E.FloorMod(o, m)],
        name="depthwise_kernel",
    )
    return conv(Input, hwio, stride, padding, dilation, groups, "NHWC", "HWIO", out_dtype)
