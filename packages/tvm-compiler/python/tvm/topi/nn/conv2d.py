"""conv2d in NCHW (OIHW kernel) with strides, symmetric or per-side padding and dilation."""

from tvm import te
from tvm.arith import Analyzer
from tvm.tir import expr as E

from .pad import pad


def _pair(who, name, value):
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2:
        raise ValueError(f"{who}: argument {name!r} must be an int or a pair, got {value!r}")
    return pair


def conv2d(  # noqa: A001
    input,  # noqa: A002
    filter,  # noqa: A002
    strides,
    padding,
    dilation,
    data_layout="NCHW",
    kernel_layout="",
    out_dtype=None,
):
    """out[n, f, y, x] = sum over c, ry, rx of input (padded) times filter[f, c, ry, rx]."""
    who = "topi.nn.conv2d"
    if data_layout != "NCHW":
        raise ValueError(f"{who}: argument 'data_layout' must be 'NCHW', got {data_layout!r}")
    if kernel_layout not in ("", "OIHW"):
        raise ValueError(
            f"{who}: argument 'kernel_layout' must be 'OIHW' (or '' for it), got {kernel_layout!r}"
        )
    for arg, t in (("input", input), ("filter", filter)):
        if not isinstance(t, te.Tensor) or t.ndim != 4:
            raise ValueError(f"{who}: argument {arg!r} must be a 4-D te.Tensor, got {t!r}")
    sh, sw = _pair(who, "strides", strides)
    dh, dw = _pair(who, "dilation", dilation)
    pads = (padding,) * 4 if isinstance(padding, int) else tuple(padding)
    if len(pads) == 2:
        pads = (pads[0], pads[1], pads[0], pads[1])
    top, left, bottom, right = pads
    out_dtype = out_dtype or input.dtype
    n, c, h, w = input.shape
    f, _, kh, kw = filter.shape
    padded = pad(input, (0, 0, top, left), (0, 0, bottom, right), name="pad_temp")
    oh = Analyzer().simplify(E.FloorDiv(h + top + bottom - (kh - 1) * dh - 1, sh) + 1)
    ow = Analyzer().simplify(E.FloorDiv(w + left + right - (kw - 1) * dw - 1, sw) + 1)
    rc = te.reduce_axis((0, c), name="rc")
    ry = te.reduce_axis((0, kh), name="ry")
    rx = te.reduce_axis((0, kw), name="rx")
    return te.compute(
        (n, f, oh, ow),
        lambda b, o, y, x: te.sum(
            padded[b, rc, y * sh + ry * dh, x * sw + rx * dw].astype(out_dtype)
            * filter[o, rc, ry, rx].astype(out_dtype),
            axis=[rc, ry, rx],
        ),
        name="conv2d_nchw",
    )
