"""Neural-network ops: activations (relu, gelu, silu), softmax, log_softmax, layer_norm."""

from __future__ import annotations

from .._utils import dims_of, fmt_shape, normalize_axes, normalize_axis, op_name, static, tensor_arg
from ..base import call_op, register
from ..op_attrs import LayerNormAttrs, SoftmaxAttrs


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


def linear(data, weight, bias=None, out_dtype=None):
    """data @ weight.T (+ bias)."""
    from ..linear_algebra import linear as _linear

    return _linear(data, weight, bias, out_dtype)


__all__ = [
    "gelu",
    "gelu_tanh",
    "layer_norm",
    "linear",
    "log_softmax",
    "relu",
    "silu",
    "softmax",
]
