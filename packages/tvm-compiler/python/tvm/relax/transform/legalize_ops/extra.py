"""Legalisation of stack, tile, repeat, flip, gather_elements, gather_nd, einsum, one_hot,
tril/triu, cumsum/cumprod, nn.pad, nn.rms_norm, nn.group_norm and nn.attention."""

from __future__ import annotations

from tvm import te, topi
from tvm.tir import op as T

from ...op._utils import dims_of
from .common import register_legalize, scalar


def _out(call):
    return dims_of(call.struct_info)


def _te(name, build):
    """A legalisation calling build(call) -> te function, on the call's tensor arguments."""

    def legalize(bb, call):
        return bb.call_te(
            build(call),
            *call.args[: _TENSOR_ARGS.get(name, 1)],
            primfunc_name_hint=name.split(".")[-1],
        )

    register_legalize(f"relax.{name}", legalize)


_TENSOR_ARGS = {"gather_elements": 2, "one_hot": 1, "nn.rms_norm": 2, "nn.group_norm": 3}


def _int(value):
    return value if isinstance(value, int) else int(value.value)


def _stack(call):
    axis = call.attrs.axis

    def stack(tensors):
        return topi.stack(tensors, axis)

    return stack


def _tile(call):
    return lambda x: topi.tile(x, [_int(r) for r in call.attrs.repeats])


def _repeat(call):
    return lambda x: topi.repeat(x, _int(call.attrs.repeats), call.attrs.axis)


def _flip(call):
    return lambda x: topi.flip(x, call.attrs.axis)


def _gather_elements(call):
    return lambda x, indices: topi.gather(x, call.attrs.axis, indices)


def _one_hot(call):
    on, off = call.args[1].value, call.args[2].value
    axis, depth = call.attrs.axis, _int(call.attrs.depth)
    dtype = call.struct_info.dtype
    return lambda indices: topi.one_hot(indices, on, off, depth, axis, dtype)


def _tri(lower):
    def build(call):
        return lambda x: topi.trilu(x, call.attrs.k, not lower)

    return build


def _scan(topi_fn):
    def build(call):
        a = call.attrs
        dtype = call.struct_info.dtype

        def scan(x):
            return topi_fn(x, a.axis, dtype, a.exclusive)

        scan.__name__ = topi_fn.__name__
        return scan

    return build


def _pad(call):
    a = call.attrs
    width = a.pad_width
    before, after = width[0::2], width[1::2]
    if a.pad_mode == "constant":
        return lambda x: topi.nn.pad(x, before, after, a.pad_value, name="pad")
    pad = topi.nn.replicate_pad if a.pad_mode == "edge" else topi.nn.reflect_pad
    return lambda x: pad(x, before, after, name="pad")


def _rms_norm(call):
    a = call.attrs
    return lambda x, weight: topi.nn.rms_norm(x, weight, list(a.axes), a.epsilon)


def _group_norm(call):
    """The group_norm te function for call's attributes."""
    a = call.attrs

    def group_norm(x, gamma, beta):
        return topi.nn.group_norm(
            x,
            gamma if a.scale else None,
            beta if a.center else None,
            a.num_groups,
            a.channel_axis,
            list(a.axes),
            a.epsilon,
        )

    return group_norm


def attention_te(q, k, v, *bias, scale=None, causal_mask=None):
    b, s, n, h = q.shape
    t = k.shape[1]
    hv = v.shape[3]
    factor = (
        scalar(scale, q.dtype)
        if scale is not None
        else (scalar(1, q.dtype) / T.sqrt(h.astype(q.dtype)))
    )
    rh = te.reduce_axis((0, h), name="rh")
    scores = te.compute(
        (b, n, s, t),
        lambda bb, nn, i, j: te.sum(q[bb, i, nn, rh] * k[bb, j, nn, rh], axis=rh),
        name="scores",
    )

    def masked(bb, nn, i, j):
        value = scores[bb, nn, i, j] * factor
        if bias:
            value = value + _bias_at(bias[0], (bb, nn, i, j))
        if causal_mask is not None:
            limit = i if causal_mask == "TopLeft" else i + (t - s)
            value = T.if_then_else(j <= limit, value, T.min_value(q.dtype))
        return value

    logits = te.compute((b, n, s, t), masked, name="logits")
    probs = topi.nn.softmax(logits, axis=-1)
    rt = te.reduce_axis((0, t), name="rt")
    return te.compute(
        (b, s, n, hv),
        lambda bb, i, nn, d: te.sum(probs[bb, nn, i, rt] * v[bb, rt, nn, d], axis=rt),
        name="attention",
    )


def _bias_at(bias, index):
    from .common import index_at

    return index_at(bias, index)


@register_legalize("relax.nn.attention")
def _attention(bb, call):
    a = call.attrs
    return bb.call_te(
        attention_te,
        *call.args,
        scale=a.scale,
        causal_mask=a.causal_mask,
        primfunc_name_hint="attention",
    )


for _name, _build in (
    ("stack", _stack),
    ("tile", _tile),
    ("repeat", _repeat),
    ("flip", _flip),
    ("gather_elements", _gather_elements),
    ("one_hot", _one_hot),
    ("tril", _tri(True)),
    ("triu", _tri(False)),
    ("cumsum", _scan(topi.cumsum)),
    ("cumprod", _scan(topi.cumprod)),
    ("nn.pad", _pad),
    ("nn.rms_norm", _rms_norm),
    ("nn.group_norm", _group_norm),
):
    _te(_name, _build)


@register_legalize("relax.gather_nd")
def _gather_nd(bb, call):
    batch_dims = call.attrs.batch_dims
    return bb.call_te(topi.gather_nd, *call.args, batch_dims, primfunc_name_hint="gather_nd")


@register_legalize("relax.einsum")
def _einsum(bb, call):
    subscripts = call.attrs.subscripts

    def einsum(operands):
        return topi.einsum(subscripts, *operands)

    return bb.call_te(einsum, call.args[0], primfunc_name_hint="einsum")
