"""Neural-network ops: activations (relu, gelu, silu), softmax, log_softmax, layer_norm."""

from __future__ import annotations

from ...struct_info import TupleStructInfo
from .._utils import dims_of, fmt_shape, normalize_axes, normalize_axis, op_name, static, tensor_arg
from ..base import call_op, register
from ..op_attrs import Attrs, BatchNormAttrs, LayerNormAttrs, SoftmaxAttrs


class DropoutAttrs(Attrs):
    """dropout: rate."""


def _infer_float_unary(call, ctx):
    sinfo = tensor_arg(call, 0, "data")
    if sinfo.dtype != "void" and not sinfo.dtype.startswith(("float", "bfloat")):
        if op_name(call) != "nn.relu":
            raise TypeError(
                f"{op_name(call)}: argument 'data' must be a float tensor, got dtype {sinfo.dtype}"
            )
    if op_name(call) in ("nn.softmax", "nn.log_softmax") and sinfo.ndim != -1:
        normalize_axis(op_name(call), call.attrs.axis, sinfo.ndim)
    return sinfo


for _name in ("relu", "gelu", "gelu_tanh", "silu", "softmax", "log_softmax"):
    register(f"nn.{_name}", _infer_float_unary)


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


def softmax(data, axis: int = -1):
    """exp(data) / sum(exp(data)) along axis."""
    return call_op("nn.softmax", [data], SoftmaxAttrs(axis=axis))


def log_softmax(data, axis: int = -1):
    """log(softmax(data)) along axis, computed stably."""
    return call_op("nn.log_softmax", [data], SoftmaxAttrs(axis=axis))


def _infer_layer_norm(call, ctx):
    data = tensor_arg(call, 0, "data")
    gamma, beta = tensor_arg(call, 1, "gamma"), tensor_arg(call, 2, "beta")
    if data.ndim == -1:
        return data
    axes = normalize_axes("nn.layer_norm", call.attrs.axes, data.ndim, "axes")
    dims = dims_of(data)
    for sinfo, name in ((gamma, "gamma"), (beta, "beta")):
        if sinfo.ndim not in (-1, len(axes)):
            raise ValueError(
                f"nn.layer_norm: {name} of shape {fmt_shape(sinfo)} must have one dimension per "
                f"normalised axis ({len(axes)})"
            )
        pdims = dims_of(sinfo)
        if dims is None or pdims is None:
            continue
        for k, a in enumerate(axes):
            x, y = static(dims[a]), static(pdims[k])
            if x is not None and y is not None and x != y:
                raise ValueError(
                    f"nn.layer_norm: {name} of shape {fmt_shape(sinfo)} does not match data of "
                    f"shape {fmt_shape(data)} on axes {axes}"
                )
    return data


register("nn.layer_norm", _infer_layer_norm)


def layer_norm(data, gamma, beta, axes, epsilon: float = 1e-5, center=True, scale=True):
    """(data - mean) / sqrt(var + epsilon) * gamma + beta over axes."""
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    attrs = LayerNormAttrs(axes=axes, epsilon=float(epsilon), center=center, scale=scale)
    return call_op("nn.layer_norm", [data, gamma, beta], attrs)


def _infer_batch_norm(call, ctx):
    data = tensor_arg(call, 0, "data")
    axis = normalize_axis("nn.batch_norm", call.attrs.axis, data.ndim) if data.ndim != -1 else 0
    dims = dims_of(data)
    for index, name in enumerate(("gamma", "beta", "moving_mean", "moving_var"), start=1):
        sinfo = tensor_arg(call, index, name)
        if sinfo.ndim not in (-1, 1):
            raise ValueError(f"nn.batch_norm: {name} must be 1-D, got shape {fmt_shape(sinfo)}")
        pdims = dims_of(sinfo)
        if dims is not None and pdims is not None:
            x, y = static(dims[axis]), static(pdims[0])
            if x is not None and y is not None and x != y:
                raise ValueError(
                    f"nn.batch_norm: {name} of shape {fmt_shape(sinfo)} does not match the "
                    f"{x} channels of data (shape {fmt_shape(data)}, axis {axis})"
                )
    mean = tensor_arg(call, 3, "moving_mean")
    var = tensor_arg(call, 4, "moving_var")
    return TupleStructInfo([data, mean, var])


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


def linear(data, weight, bias=None, out_dtype=None):
    """data @ weight.T (+ bias)."""
    from ..linear_algebra import linear as _linear

    return _linear(data, weight, bias, out_dtype)


__all__ = [
    "batch_norm",
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
