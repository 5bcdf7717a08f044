"""Neural-network ops: activations (relu, gelu, silu), softmax, log_softmax, layer_norm."""

from __future__ import annotations

from numbers import Integral

from ...analysis.struct_info_analysis import _prove_equal
from ...struct_info import TensorStructInfo, TupleStructInfo
from .._utils import (
    dim_text,
    dims_of,
    fmt_shape,
    normalize_axes,
    normalize_axis,
    op_name,
    provably_unequal,
    static,
    tensor_arg,
)
from ..base import call_op, register
from ..op_attrs import (
    Attrs,
    BatchNormAttrs,
    LayerNormAttrs,
    LeakyReluAttrs,
    PReluAttrs,
    SoftmaxAttrs,
    SoftplusAttrs,
)


class DropoutAttrs(Attrs):
    """dropout: rate."""


def _infer_float_unary(call, ctx):
    sinfo = tensor_arg(call, 0, "data")
    if sinfo.dtype != "void" and not sinfo.dtype.startswith(("float", "bfloat")):
        if op_name(call) not in ("nn.relu", "nn.leakyrelu", "nn.prelu"):
            raise TypeError(
                f"{op_name(call)}: argument 'data' must be a float tensor, got dtype {sinfo.dtype}"
            )
    if op_name(call) in ("nn.softmax", "nn.log_softmax") and sinfo.ndim != -1:
        normalize_axis(op_name(call), call.attrs.axis, sinfo.ndim)
    return sinfo


for _name in (
    "relu", "gelu", "gelu_tanh", "silu", "softmax", "log_softmax",
    "leakyrelu", "selu", "softplus",
):  # fmt: skip
    register(f"nn.{_name}", _infer_float_unary)


def _infer_prelu(call, ctx):
    sinfo = _infer_float_unary(call, ctx)
    alpha = tensor_arg(call, 1, "alpha")
    if alpha.ndim not in (-1, 1):
        raise ValueError(f"nn.prelu: argument 'alpha' must be 1-D, got ndim {alpha.ndim}")
    if sinfo.ndim != -1:
        axis = normalize_axis("nn.prelu", call.attrs.axis, sinfo.ndim)
        channels, slopes = static(dims_of(sinfo)[axis]), static(dims_of(alpha)[0])
        if None not in (channels, slopes) and slopes not in (1, channels):
            raise ValueError(
                f"nn.prelu: alpha has {slopes} slopes but data has {channels} channels on axis "
                f"{axis} (expected 1 or {channels})"
            )
    return sinfo


register("nn.prelu", _infer_prelu)


def relu(data):
    """max(data, 0), elementwise."""
    return call_op("nn.relu", [data])


def gelu(data):
    """The Gaussian error linear unit, data * Phi(data) (erf form)."""
    return call_op("nn.gelu", [data])


def gelu_tanh(data):
    """GELU through its tanh approximation."""
    return call_op("nn.gelu_tanh", [data])


def silu(data):
    """data * sigmoid(data)."""
    return call_op("nn.silu", [data])


def leakyrelu(data, alpha: float = 0.01):
    """data where positive, alpha * data elsewhere."""
    return call_op("nn.leakyrelu", [data], LeakyReluAttrs(alpha=float(alpha)))


def prelu(data, alpha, axis: int = 1):
    """leakyrelu with a learned slope per channel: alpha (1-D) along data's axis."""
    return call_op("nn.prelu", [data, alpha], PReluAttrs(axis=int(axis)))


def selu(data):
    """The scaled exponential linear unit (scale 1.0507..., alpha 1.6732...)."""
    return call_op("nn.selu", [data])


def softplus(data, beta: float = 1.0, threshold: float = 20.0):
    """log(1 + exp(beta * data)) / beta, and data itself where beta * data > threshold."""
    attrs = SoftplusAttrs(beta=float(beta), threshold=float(threshold))
    return call_op("nn.softplus", [data], attrs)


def relu6(data):
    """min(max(data, 0), 6), elementwise: a clip, as upstream builds it."""
    from ..unary import clip

    return clip(data, 0, 6)


def _int_axis(who: str, axis) -> int:
    """softmax's single axis; a list is a TypeError at construction, as upstream's FFI
    signature (int axis) makes it."""
    if not isinstance(axis, Integral) or isinstance(axis, bool):
        raise TypeError(f"{who}: axis must be a single int, got {axis!r}")
    return int(axis)


def softmax(data, axis: int = -1):
    """exp(data) / sum(exp(data)) along axis."""
    return call_op("nn.softmax", [data], SoftmaxAttrs(axis=_int_axis("nn.softmax", axis)))


def log_softmax(data, axis: int = -1):
    """log(softmax(data)) along axis, computed stably."""
    return call_op("nn.log_softmax", [data], SoftmaxAttrs(axis=_int_axis("nn.log_softmax", axis)))


def _norm_check(call, names, axes) -> bool:
    """Upstream's NormCheckDtypeAndShape: float data; gamma/beta/... of data's dtype with one
    dimension per normalised axis, their extents not provably different from data's on those
    axes. True when some extent cannot be proven equal (the result's shape is then unknown)."""
    who = op_name(call)
    params = [tensor_arg(call, i, n) for i, n in enumerate(names)]
    data = params[0]
    axes = [axes] if isinstance(axes, int) else list(axes)
    if data.ndim != -1:
        axes = normalize_axes(who, axes, data.ndim, "axes")
    if data.dtype != "void" and not data.dtype.startswith(("float", "bfloat")):
        raise TypeError(f"{who}: argument 'data' must be a float tensor, got dtype {data.dtype}")
    for name, sinfo in zip(names[1:], params[1:]):
        if sinfo.dtype != data.dtype:
            raise TypeError(
                f"{who}: argument {name!r} has dtype {sinfo.dtype or 'unknown'}, but data has "
                f"dtype {data.dtype}; all inputs must share one dtype"
            )
        if sinfo.ndim != len(axes):
            raise ValueError(
                f"{who}: {name} of shape {fmt_shape(sinfo)} must have one dimension per "
                f"normalised axis ({len(axes)})"
            )
    lengths = []
    dims = dims_of(data)
    if dims is not None:
        lengths.append(("data", [dims[a] for a in axes]))
    lengths += [(n, dims_of(p)) for n, p in zip(names[1:], params[1:]) if dims_of(p) is not None]
    for name, extents in lengths[1:]:
        for a, b in zip(lengths[0][1], extents):
            if provably_unequal(a, b):
                ref = f"data of shape {fmt_shape(data)} on axes {axes}"
                if lengths[0][0] != "data":
                    ref = f"{lengths[0][0]} of shape {fmt_shape(lengths[0][1])}"
                raise ValueError(
                    f"{who}: {name} of shape {fmt_shape(extents)} does not match {ref}"
                )
            if not _prove_equal(a, b):
                return True
    return False


def _infer_layer_norm(call, ctx):
    data = tensor_arg(call, 0, "data")
    if _norm_check(call, ("data", "gamma", "beta"), call.attrs.axes):
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=data.ndim)
    return data


register("nn.layer_norm", _infer_layer_norm)


def layer_norm(data, gamma, beta, axes, epsilon: float = 1e-5, center=True, scale=True):
    """(data - mean) / sqrt(var + epsilon) * gamma + beta over axes."""
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    attrs = LayerNormAttrs(axes=axes, epsilon=float(epsilon), center=center, scale=scale)
    return call_op("nn.layer_norm", [data, gamma, beta], attrs)


def _infer_batch_norm(call, ctx):
    names = ("data", "gamma", "beta", "moving_mean", "moving_var")
    data = tensor_arg(call, 0, "data")
    if _norm_check(call, names, [call.attrs.axis]):
        vdev = data.vdevice
        return TupleStructInfo(
            [
                TensorStructInfo(dtype=data.dtype, vdevice=vdev, ndim=data.ndim),
                TensorStructInfo(dtype=data.dtype, vdevice=vdev, ndim=1),
                TensorStructInfo(dtype=data.dtype, vdevice=vdev, ndim=1),
            ]
        )
    return TupleStructInfo([data, tensor_arg(call, 3, names[3]), tensor_arg(call, 4, names[4])])


register("nn.batch_norm", _infer_batch_norm)


def batch_norm(
    data,
    gamma,
    beta,
    moving_mean,
    moving_var,
    axis: int = 1,
    epsilon=1e-5,
    center=True,
    scale=True,
    momentum=0.1,
):
    """Batch normalisation with the moving statistics (inference); returns the tuple
    (normalised data, moving_mean, moving_var) as upstream does."""
    attrs = BatchNormAttrs(
        axis=axis, epsilon=float(epsilon), center=center, scale=scale, momentum=float(momentum)
    )
    return call_op("nn.batch_norm", [data, gamma, beta, moving_mean, moving_var], attrs)


def dropout(data, rate: float = 0.5):
    """Dropout; at inference it is the identity, returned with an all-ones mask as upstream's
    (data, mask) tuple."""
    if not 0 <= rate < 1:
        raise ValueError(f"nn.dropout: rate must be in [0, 1), got {rate!r}")
    return call_op("nn.dropout", [data], DropoutAttrs(rate=float(rate)))


register("nn.dropout", lambda call, ctx: TupleStructInfo([tensor_arg(call, 0, "data")] * 2))


class RMSNormAttrs(Attrs):
    """rms_norm: axes, epsilon."""


class GroupNormAttrs(Attrs):
    """group_norm: num_groups, channel_axis, axes, epsilon, center, scale."""


class PadAttrs(Attrs):
    """pad: pad_width, pad_value, pad_mode."""


class AttentionAttrs(Attrs):
    """attention: scale, causal_mask."""


def _infer_rms_norm(call, ctx):
    data = tensor_arg(call, 0, "data")
    if _norm_check(call, ("data", "weight"), call.attrs.axes):
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=data.ndim)
    return data


register("nn.rms_norm", _infer_rms_norm)


def rms_norm(data, weight, axes=-1, epsilon: float = 1e-5):
    """data / sqrt(mean(data**2 over axes) + epsilon) * weight."""
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    return call_op("nn.rms_norm", [data, weight], RMSNormAttrs(axes=axes, epsilon=float(epsilon)))


def _infer_group_norm(call, ctx):
    data = tensor_arg(call, 0, "data")
    a = call.attrs
    if a.num_groups <= 0:  # the channel count modulo it was a ZeroDivisionError
        raise ValueError(f"nn.group_norm: num_groups must be a positive int, got {a.num_groups}")
    axis = None
    if data.ndim != -1:
        axis = normalize_axis("nn.group_norm", a.channel_axis, data.ndim, "channel_axis")
        if axis in normalize_axes("nn.group_norm", a.axes, data.ndim, "axes"):
            raise ValueError(
                f"nn.group_norm: channel_axis {a.channel_axis} must not be one of the axes "
                f"{list(a.axes)}"
            )
    if data.dtype != "void" and not data.dtype.startswith(("float", "bfloat")):
        raise TypeError(f"nn.group_norm: argument 'data' must be a float tensor, got {data.dtype}")
    dims = dims_of(data)
    if dims is not None and axis is not None:
        from tvm.tir import floormod

        if provably_unequal(floormod(dims[axis], a.num_groups), 0):
            raise ValueError(
                f"nn.group_norm: the {dim_text(dims[axis])} channels of data (shape "
                f"{fmt_shape(data)}) do not divide into {a.num_groups} groups"
            )
    for index, name in ((1, "gamma"), (2, "beta")):
        sinfo = tensor_arg(call, index, name)
        if sinfo.dtype != data.dtype:
            raise TypeError(
                f"nn.group_norm: argument {name!r} has dtype {sinfo.dtype}, but data has dtype "
                f"{data.dtype}; all inputs must share one dtype"
            )
        if sinfo.ndim != 1:
            raise ValueError(f"nn.group_norm: {name} must be 1-D, got shape {fmt_shape(sinfo)}")
        pdims = dims_of(sinfo)
        if axis is not None and dims is not None and pdims is not None:
            if provably_unequal(dims[axis], pdims[0]):
                raise ValueError(
                    f"nn.group_norm: {name} of shape {fmt_shape(sinfo)} does not match the "
                    f"{dim_text(dims[axis])} channels of data (shape {fmt_shape(data)})"
                )
    return data


register("nn.group_norm", _infer_group_norm)


def group_norm(
    data,
    gamma,
    beta,
    num_groups: int,
    channel_axis: int,
    axes,
    epsilon=1e-5,
    center=True,
    scale=True,
):
    """Normalisation over each group of channels (and axes)."""
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    if isinstance(num_groups, bool) or not hasattr(num_groups, "__index__"):
        raise TypeError(
            f"nn.group_norm: num_groups must be a positive int, got {type(num_groups).__name__}"
        )
    attrs = GroupNormAttrs(
        num_groups=int(num_groups),
        channel_axis=channel_axis,
        axes=axes,
        epsilon=float(epsilon),
        center=center,
        scale=scale,
    )
    return call_op("nn.group_norm", [data, gamma, beta], attrs)


def _infer_pad(call, ctx):
    data = tensor_arg(call, 0, "data")
    width = call.attrs.pad_width
    dims = dims_of(data)
    if data.ndim != -1 and len(width) != 2 * data.ndim:
        raise ValueError(
            f"nn.pad: pad_width must hold (before, after) for each of the {data.ndim} axes, "
            f"got {len(width)} values"
        )
    if dims is None:
        return data
    out = [d + width[2 * k] + width[2 * k + 1] for k, d in enumerate(dims)]
    from .._utils import tensor_sinfo

    return tensor_sinfo(out, data.dtype, data.vdevice)


register("nn.pad", _infer_pad)


def pad(data, pad_width, pad_value: float = 0.0, pad_mode: str = "constant"):
    """data with pad_width = [before_0, after_0, before_1, ...] elements added per axis."""
    if pad_mode not in ("constant", "edge", "reflect"):
        raise ValueError(f"nn.pad: pad_mode must be constant, edge or reflect, got {pad_mode!r}")
    width = tuple(int(w) for w in pad_width)
    attrs = PadAttrs(pad_width=width, pad_value=float(pad_value), pad_mode=pad_mode)
    return call_op("nn.pad", [data], attrs)


def _infer_attention(call, ctx):
    q, k, v = (tensor_arg(call, i, n) for i, n in enumerate(("query", "key", "value")))
    for sinfo, name in ((q, "query"), (k, "key"), (v, "value")):
        if sinfo.ndim not in (-1, 4):
            raise ValueError(
                f"nn.attention: {name} must be 4-D (batch, seq, heads, dim), got shape "
                f"{fmt_shape(sinfo)}"
            )
    dq, dk, dv = dims_of(q), dims_of(k), dims_of(v)
    if dq is None or dv is None:
        return TensorStructInfo(dtype=q.dtype, vdevice=q.vdevice, ndim=4)
    if dk is not None:
        a, b = static(dq[3]), static(dk[3])
        if a is not None and b is not None and a != b:
            raise ValueError(
                f"nn.attention: query of shape {fmt_shape(q)} and key of shape {fmt_shape(k)} "
                "disagree on the head dimension"
            )
    from .._utils import tensor_sinfo

    return tensor_sinfo([dq[0], dq[1], dq[2], dv[3]], q.dtype, q.vdevice)


register("nn.attention", _infer_attention)


def attention(query, key, value, bias=None, scale=None, causal_mask=None, window_size=None):
    """Scaled dot-product attention over (batch, seq, heads, dim) tensors; bias is added to
    the (batch, heads, seq, seq_kv) scores; causal_mask "TopLeft" or "BottomRight"."""
    if causal_mask not in (None, "TopLeft", "BottomRight"):
        raise ValueError(
            f"nn.attention: causal_mask must be None, 'TopLeft' or 'BottomRight', got "
            f"{causal_mask!r}"
        )
    if window_size is not None:
        raise NotImplementedError("nn.attention: window_size is not supported")
    args = [query, key, value] + ([bias] if bias is not None else [])
    attrs = AttentionAttrs(scale=None if scale is None else float(scale), causal_mask=causal_mask)
    return call_op("nn.attention", args, attrs)


def linear(data, weight, bias=None, out_dtype=None):
    """data @ weight.T (+ bias)."""
    from ..linear_algebra import linear as _linear

    return _linear(data, weight, bias, out_dtype)


__all__ = [
    "attention",
    "batch_norm",
    "group_norm",
    "pad",
    "rms_norm",
    "dropout",
    "gelu",
    "gelu_tanh",
    "layer_norm",
    "linear",
    "log_softmax",
    "relu",
    "silu",
    "softmax",
]
