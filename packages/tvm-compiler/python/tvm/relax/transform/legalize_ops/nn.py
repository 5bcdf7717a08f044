"""Legalisation of the nn ops: the activations, softmax, log_softmax, layer_norm."""

from __future__ import annotations

import math

from tvm import te, topi
from tvm.tir import expr as E
from tvm.tir import op as T

from .common import register_legalize, scalar, scale_shift
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
    beta, threshold = call.attrs.beta, call.attrs.threshold

    def softplus(x):
        b, limit = scalar(beta, x.dtype), scalar(threshold, x.dtype)

        def element(*i):
            scaled = x[i] * b
            # log(1 + e^s) as max(s, 0) + log1p(e^-|s|): e^s itself overflows float16 from
            # s = 11.1, below the default threshold of 20.
            zero = scalar(0, x.dtype)
            stable = T.max(scaled, zero) + T.log1p(T.exp(zero - T.abs(scaled)))
            return E.Select(scaled > limit, x[i], stable / b)

        return te.compute(x.shape, element, name="T_softplus")

    return bb.call_te(softplus, call.args[0], primfunc_name_hint="softplus")


@register_legalize("relax.nn.softmax")
def _softmax(bb, call):
    return bb.call_te(topi.nn.softmax, call.args[0], call.attrs.axis, primfunc_name_hint="softmax")


def log_softmax_te(x, axis):
    ndim = len(x.shape)
    axis %= ndim
    outer = [s for k, s in enumerate(x.shape) if k != axis]

    def at(i, j):
        return tuple(list(i[:axis]) + [j] + list(i[axis:]))

    k1 = te.reduce_axis((0, x.shape[axis]), name="k1")
    maxelem = te.compute(outer, lambda *i: te.max(x[at(i, k1)], axis=k1), name="maxelem")
    k2 = te.reduce_axis((0, x.shape[axis]), name="k2")
    expsum = te.compute(
        outer, lambda *i: te.sum(T.exp(x[at(i, k2)] - maxelem[i]), axis=k2), name="expsum"
    )

    def body(*i):
        rest = i[:axis] + i[axis + 1 :]
        return x[i] - maxelem[rest] - T.log(expsum[rest])

    return te.compute(x.shape, body, name="log_softmax")


@register_legalize("relax.nn.log_softmax")
def _log_softmax(bb, call):
    return bb.call_te(
        log_softmax_te, call.args[0], call.attrs.axis, primfunc_name_hint="log_softmax"
    )


def layer_norm_te(x, gamma, beta, axes, epsilon, center, scale):
    ndim = len(x.shape)
    axes = sorted(a % ndim for a in axes)
    count = 1
    for a in axes:
        count = count * x.shape[a]
    kept = [k for k in range(ndim) if k not in axes]
    outer = [x.shape[k] for k in kept]

    def full_index(i, red):
        pos = dict(zip(kept, i))
        pos.update(dict(zip(axes, red)))
        return tuple(pos[k] for k in range(ndim))

    def as_float(n):
        return scalar(n, x.dtype) if isinstance(n, int) else n.astype(x.dtype)

    r1 = [te.reduce_axis((0, x.shape[a]), name=f"r{a}") for a in axes]
    total = te.compute(
        outer, lambda *i: te.sum(x[full_index(i, [r.var for r in r1])], axis=r1), name="total"
    )
    mean = te.compute(outer, lambda *i: total[i] / as_float(count), name="mean")
    r2 = [te.reduce_axis((0, x.shape[a]), name=f"s{a}") for a in axes]

    def sq(*i):
        d = x[full_index(i, [r.var for r in r2])] - mean[i]
        return te.sum(d * d, axis=r2)

    sqsum = te.compute(outer, sq, name="sqsum")
    var = te.compute(outer, lambda *i: sqsum[i] / as_float(count), name="var")

    def body(*i):
        o = tuple(i[k] for k in kept)
        p = tuple(i[a] for a in axes)
        value = (x[i] - mean[o]) / T.sqrt(var[o] + scalar(epsilon, x.dtype))
        return scale_shift(value, gamma, beta, p, scale, center)

    return te.compute(x.shape, body, name="layer_norm")


@register_legalize("relax.nn.layer_norm")
def _layer_norm(bb, call):
    a = call.attrs
    return bb.call_te(
        layer_norm_te,
        *call.args,
        list(a.axes),
        a.epsilon,
        a.center,
        a.scale,
        primfunc_name_hint="layer_norm",
    )
