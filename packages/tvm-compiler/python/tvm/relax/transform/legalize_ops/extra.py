"""Legalisation of stack, tile, repeat, flip, gather_elements, gather_nd, einsum, one_hot,
tril/triu, cumsum/cumprod, nn.pad, nn.rms_norm, nn.group_norm and nn.attention."""

from __future__ import annotations

from tvm import te, topi
from tvm.tir import expr as E
from tvm.tir import op as T
from tvm.topi.transform import read_if_nonempty, wrapped_index

from ...op._utils import dims_of
from .common import register_legalize, scalar, scale_shift
from .manipulate import reshape_te


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


def _stack(call):
    axis = call.attrs.axis

    def stack(tensors):
        ndim = len(tensors[0].shape) + 1
        ax = axis % ndim

        def body(*i):
            rest = i[:ax] + i[ax + 1 :]
            value = tensors[-1][rest]
            for k in range(len(tensors) - 2, -1, -1):
                value = T.if_then_else(i[ax] == k, tensors[k][rest], value)
            return value

        return te.compute(_out(call), body, name="stack")

    return stack


def _tile(call):
    def tile(x):
        out = _out(call)
        offset = len(out) - len(x.shape)
        return te.compute(
            out,
            lambda *i: x[tuple(T.floormod(i[offset + k], d) for k, d in enumerate(x.shape))],
            name="tile",
        )

    return tile


def _repeat(call):
    axis, n = call.attrs.axis, call.attrs.repeats

    def repeat(x):
        if axis is None:
            count = 1
            for d in x.shape:
                count = count * d
            flat = reshape_te(x, [count])
            return te.compute(_out(call), lambda i: flat[T.floordiv(i, n)], name="repeat")
        ax = axis % len(x.shape)
        return te.compute(
            _out(call),
            lambda *i: x[i[:ax] + (T.floordiv(i[ax], n),) + i[ax + 1 :]],
            name="repeat",
        )

    return repeat


def _flip(call):
    axis = call.attrs.axis

    def flip(x):
        ax = axis % len(x.shape)
        last = x.shape[ax] - 1
        return te.compute(
            x.shape, lambda *i: x[i[:ax] + (last - i[ax],) + i[ax + 1 :]], name="flip"
        )

    return flip


def _gather_elements(call):
    axis = call.attrs.axis

    def gather_elements(x, indices):
        ax = axis % len(x.shape)

        def body(*i):
            at = i[:ax] + (wrapped_index(indices[i], x.shape[ax]),) + i[ax + 1 :]
            return read_if_nonempty([x.shape[ax]], lambda: x[at])

        return te.compute(indices.shape, body, name="gather_elements")

    return gather_elements


def _one_hot(call):
    on, off = call.args[1].value, call.args[2].value
    axis = call.attrs.axis
    dtype = call.struct_info.dtype

    def one_hot(indices):
        ax = axis % (len(indices.shape) + 1)

        def body(*i):
            idx = indices[i[:ax] + i[ax + 1 :]]
            pos = i[ax] if str(i[ax].dtype) == str(idx.dtype) else i[ax].astype(idx.dtype)
            return T.if_then_else(idx == pos, on.astype(dtype), off.astype(dtype))

        return te.compute(_out(call), body, name="one_hot")

    return one_hot


def _tri(lower):
    def build(call):
        k = call.attrs.k

        def tri(x):
            def body(*i):
                row, col = i[-2], i[-1]
                keep = col - row <= k if lower else col - row >= k
                return T.if_then_else(keep, x[i], scalar(0, x.dtype))

            return te.compute(x.shape, body, name="tril" if lower else "triu")

        return tri

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

    def pad(x):
        before, after = width[0::2], width[1::2]
        if a.pad_mode == "constant":
            return topi.nn.pad(x, before, after, a.pad_value, name="pad")

        def source(k, i):
            n = x.shape[k]
            j = i - before[k]
            if a.pad_mode == "edge":
                return E.Max(E.Min(j, n - 1), 0)
            j = T.if_then_else(j < 0, 0 - j, j)  # reflect (without the edge)
            return T.if_then_else(j >= n, 2 * (n - 1) - j, j)

        return te.compute(
            _out(call), lambda *i: x[tuple(source(k, v) for k, v in enumerate(i))], name="pad"
        )

    return pad


def _rms_norm(call):
    a = call.attrs

    def rms_norm(x, weight):
        ndim = len(x.shape)
        axes = sorted(k % ndim for k in a.axes)
        kept = [k for k in range(ndim) if k not in axes]
        red = [te.reduce_axis((0, x.shape[k]), name=f"r{k}") for k in axes]

        def full(i, rv):
            pos = dict(zip(kept, i))
            pos.update(dict(zip(axes, rv)))
            return tuple(pos[k] for k in range(ndim))

        count = 1
        for k in axes:
            count = count * x.shape[k]

        def sq(*i):
            v = x[full(i, [r.var for r in red])]
            return te.sum(v * v, axis=red)

        sqsum = te.compute([x.shape[k] for k in kept], sq, name="sqsum")
        denom = count.astype(x.dtype) if not isinstance(count, int) else scalar(count, x.dtype)

        def body(*i):
            o = tuple(i[k] for k in kept)
            rms = T.sqrt(sqsum[o] / denom + scalar(a.epsilon, x.dtype))
            return x[i] / rms * weight[tuple(i[k] for k in axes)]

        return te.compute(x.shape, body, name="rms_norm")

    return rms_norm


def _group_norm(call):
    a = call.attrs

    def group_norm(x, gamma, beta):
        ndim = len(x.shape)
        c_ax = a.channel_axis % ndim
        channels = x.shape[c_ax]
        per = T.floordiv(channels, a.num_groups)
        axes = sorted(k % ndim for k in a.axes)
        others = [k for k in range(ndim) if k != c_ax and k not in axes]
        stat_shape = [x.shape[k] for k in others] + [a.num_groups]
        rc = te.reduce_axis((0, per), name="rc")
        red = [te.reduce_axis((0, x.shape[k]), name=f"r{k}") for k in axes]

        def index(o, g, c, rv):
            pos = dict(zip(others, o))
            pos.update(dict(zip(axes, rv)))
            pos[c_ax] = g * per + c
            return tuple(pos[k] for k in range(ndim))

        count = per
        for k in axes:
            count = count * x.shape[k]
        # float16 / bfloat16 statistics in float32: a float16 sum of squares overflows (64
        # values near 1000 sum to 64000; their squares to inf) and rounds every partial sum.
        acc = "float32" if str(x.dtype) in ("float16", "bfloat16") else str(x.dtype)

        def xa(at):
            return x[at] if acc == str(x.dtype) else x[at].astype(acc)

        denom = count.astype(acc)

        def total(*i):
            return te.sum(xa(index(i[:-1], i[-1], rc.var, [r.var for r in red])), axis=[rc, *red])

        s = te.compute(stat_shape, total, name="gsum")
        mean = te.compute(stat_shape, lambda *i: s[i] / denom, name="gmean")
        rc2 = te.reduce_axis((0, per), name="rc2")
        red2 = [te.reduce_axis((0, x.shape[k]), name=f"s{k}") for k in axes]

        def sq(*i):
            d = xa(index(i[:-1], i[-1], rc2.var, [r.var for r in red2])) - mean[i]
            return te.sum(d * d, axis=[rc2, *red2])

        ss = te.compute(stat_shape, sq, name="gsq")

        def body(*i):
            o = tuple(i[k] for k in others) + (T.floordiv(i[c_ax], per),)
            v = (xa(i) - mean[o]) / T.sqrt(ss[o] / denom + scalar(a.epsilon, acc))
            v = v if acc == str(x.dtype) else v.astype(x.dtype)
            return scale_shift(v, gamma, beta, (i[c_ax],), a.scale, a.center)

        return te.compute(x.shape, body, name="group_norm")

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
