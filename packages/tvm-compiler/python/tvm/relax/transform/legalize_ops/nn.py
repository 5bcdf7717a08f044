"""Legalisation of the nn ops: the activations, softmax, log_softmax, layer_norm."""

from __future__ import annotations

import math

from tvm import topi
from tvm.tir import expr as E
from tvm.tir import op as T

from .common import register_legalize, scalar
from .unary import unary_legalize


def _gelu(x):
    half, one = scalar(0.5, x.dtype), scalar(1, x.dtype)
    return half * x * (one + T.erf(x * scalar(1 / math.sqrt(2), x.dtype)))


def _gelu_tanh(x):
    c = scalar(math.sqrt(2 / math.pi), x.dtype)
    cubic = scalar(0.044715, x.dtype) * x * x * x
    half, one = scalar(0.5, x.dtype), scalar(1, x.dtype)
    return half * x * (one + T.tanh(c * (x + cubic)))


def _silu(x):
    return x * T.sigmoid(x)


register_legalize(
    "relax.nn.relu",
    lambda bb, call: bb.call_te(topi.nn.relu, call.args[0], primfunc_name_hint="relu"),
)


def _selu(x):
    alpha, scale = scalar(1.6732632423543772, x.dtype), scalar(1.0507009873554805, x.dtype)
    zero, one = scalar(0, x.dtype), scalar(1, x.dtype)
    return scale * E.Select(x > zero, x, alpha * (T.exp(x) - one))


for _name, _fop in (
    ("gelu", _gelu),
    ("gelu_tanh", _gelu_tanh),
    ("silu", _silu),
    ("selu", _selu),
):
    register_legalize(f"relax.nn.{_name}", unary_legalize(_name, _fop))


@register_legalize("relax.nn.leakyrelu")
def _leakyrelu(bb, call):
    alpha = call.attrs.alpha
    return bb.call_te(topi.nn.leaky_relu, call.args[0], alpha, primfunc_name_hint="leaky_relu")


@register_legalize("relax.nn.prelu")
def _prelu(bb, call):
    axis = call.attrs.axis
    return bb.call_te(topi.nn.prelu, call.args[0], call.args[1], axis, primfunc_name_hint="prelu")


@register_legalize("relax.nn.softplus")
def _softplus(bb, call):
    a = call.attrs
    return bb.call_te(
        topi.nn.softplus, call.args[0], a.beta, a.threshold, primfunc_name_hint="softplus"
    )


@register_legalize("relax.nn.softmax")
def _softmax(bb, call):
    return bb.call_te(topi.nn.softmax, call.args[0], call.attrs.axis, primfunc_name_hint="softmax")


@register_legalize("relax.nn.log_softmax")
def _log_softmax(bb, call):
    return bb.call_te(
        topi.nn.log_softmax, call.args[0], call.attrs.axis, primfunc_name_hint="log_softmax"
    )


@register_legalize("relax.nn.layer_norm")
def _layer_norm(bb, call):
    a = call.attrs
    return bb.call_te(
        lambda x, gamma, beta: topi.nn.layer_norm(
            x, gamma if a.scale else None, beta if a.center else None, list(a.axes), a.epsilon
        ),
        *call.args,
        primfunc_name_hint="layer_norm",
    )
