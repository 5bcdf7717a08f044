"""Normalisations over te tensors: layer_norm, rms_norm, group_norm, instance_norm,
batch_norm and lrn (statistics in the data's dtype, two passes: mean, then squares)."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as T


def _const(value, dtype):
    return E.const(float(value), dtype)


def _check(who, **tensors):
    for name, value in tensors.items():
        if value is not None and not isinstance(value, te.Tensor):
            raise TypeError(
                f"topi.nn.{who}: argument {name!r} must be a te.Tensor, got {type(value).__name__}"
            )


def _axes(who, axis, ndim, name="axis"):
    axes = [axis] if isinstance(axis, int) else list(axis)
    for a in axes:
        if not isinstance(a, int) or not -ndim <= a < ndim:
            raise ValueError(
                f"topi.nn.{who}: argument {name!r} {axis!r} is out of range for {ndim} dimensions"
            )
    return sorted({a % ndim for a in axes})


def _count(x, axes):
    n = 1
    for a in axes:
        n = n * x.shape[a]
    return n if not isinstance(n, int) else _const(n, x.dtype)


def _as_float(n, dtype):
    return n if str(n.dtype) == str(dtype) else n.astype(dtype)


def _scale_shift(value, gamma, beta, index):
    """value * gamma[index] + beta[index], each part only where the tensor is given."""
    if gamma is not None:
        value = value * gamma[index]
    if beta is not None:
        value = value + beta[index]
    return value


def layer_norm(data, gamma, beta, axis, epsilon=1e-5):
    """(data - mean) / sqrt(var + epsilon) over axis, times gamma plus beta (indexed by the
    normalised axes; either may be None)."""
    _check("layer_norm", data=data, gamma=gamma, beta=beta)
    x = data
    ndim = len(x.shape)
    axes = _axes("layer_norm", axis, ndim)
    count = _as_float(_count(x, axes), x.dtype)
    kept = [k for k in range(ndim) if k not in axes]
    outer = [x.shape[k] for k in kept]

    def full_index(i, red):
        pos = dict(zip(kept, i))
        pos.update(dict(zip(axes, red)))
        return tuple(pos[k] for k in range(ndim))

    r1 = [te.reduce_axis((0, x.shape[a]), name=f"r{a}") for a in axes]
    total = te.compute(
        outer, lambda *i: te.sum(x[full_index(i, [r.var for r in r1])], axis=r1), name="total"
    )
    mean = te.compute(outer, lambda *i: total[i] / count, name="mean")
    r2 = [te.reduce_axis((0, x.shape[a]), name=f"s{a}") for a in axes]

    def sq(*i):
        d = x[full_index(i, [r.var for r in r2])] - mean[i]
        return te.sum(d * d, axis=r2)

    sqsum = te.compute(outer, sq, name="sqsum")
    var = te.compute(outer, lambda *i: sqsum[i] / count, name="var")

    def body(*i):
        o = tuple(i[k] for k in kept)
        p = tuple(i[a] for a in axes)
        value = (x[i] - mean[o]) / T.sqrt(var[o] + _const(epsilon, x.dtype))
        return _scale_shift(value, gamma, beta, p)

    return te.compute(x.shape, body, name="T_layer_norm")


def rms_norm(data, weight, axis, epsilon=1e-5):
    """data / sqrt(mean(data^2 over axis) + epsilon) times weight (indexed by those axes)."""
    _check("rms_norm", data=data, weight=weight)
    x = data
    ndim = len(x.shape)
    axes = _axes("rms_norm", axis, ndim)
    kept = [k for k in range(ndim) if k not in axes]
    red = [te.reduce_axis((0, x.shape[k]), name=f"r{k}") for k in axes]

    def full(i, rv):
        pos = dict(zip(kept, i))
        pos.update(dict(zip(axes, rv)))
        return tuple(pos[k] for k in range(ndim))

    denom = _as_float(_count(x, axes), x.dtype)

    def sq(*i):
        v = x[full(i, [r.var for r in red])]
        return te.sum(v * v, axis=red)

    sqsum = te.compute([x.shape[k] for k in kept], sq, name="sqsum")

    def body(*i):
        o = tuple(i[k] for k in kept)
        rms = T.sqrt(sqsum[o] / denom + _const(epsilon, x.dtype))
        return x[i] / rms * weight[tuple(i[k] for k in axes)]

    return te.compute(x.shape, body, name="T_rms_norm")


def group_norm(data, gamma, beta, num_groups, channel_axis, axes, epsilon=1e-5):
    """layer_norm over axes and each group of num_groups consecutive channel ranges, times
    gamma plus beta per channel (either may be None)."""
    _check("group_norm", data=data, gamma=gamma, beta=beta)
    x = data
    ndim = len(x.shape)
    (c_ax,) = _axes("group_norm", channel_axis, ndim, "channel_axis")
    axes = _axes("group_norm", axes, ndim, "axes")
    if not isinstance(num_groups, int) or num_groups < 1:
        raise ValueError(
            f"topi.nn.group_norm: argument 'num_groups' must be an int >= 1, got {num_groups!r}"
        )
    channels = x.shape[c_ax]
    if isinstance(channels, E.IntImm) and channels.value % num_groups:
        raise ValueError(
            f"topi.nn.group_norm: {channels.value} channels do not split into {num_groups} groups"
        )
    per = T.floordiv(channels, num_groups)
    others = [k for k in range(ndim) if k != c_ax and k not in axes]
    stat_shape = [x.shape[k] for k in others] + [num_groups]
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
    # float16 / bfloat16 statistics in float32: a float16 sum of squares overflows (64 values
    # near 1000 sum to 64000; their squares to inf) and rounds every partial sum.
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
        v = (xa(i) - mean[o]) / T.sqrt(ss[o] / denom + _const(epsilon, acc))
        v = v if acc == str(x.dtype) else v.astype(x.dtype)
        return _scale_shift(v, gamma, beta, (i[c_ax],))

    return te.compute(x.shape, body, name="T_group_norm")


def instance_norm(data, gamma, beta, channel_axis, axis, epsilon=1e-5):
    """group_norm with one group per channel (a static channel count)."""
    _check("instance_norm", data=data, gamma=gamma, beta=beta)
    (c_ax,) = _axes("instance_norm", channel_axis, data.ndim, "channel_axis")
    channels = data.shape[c_ax]
    if not isinstance(channels, E.IntImm):
        raise ValueError("topi.nn.instance_norm: the channel extent of data must be static")
    return group_norm(data, gamma, beta, channels.value, c_ax, axis, epsilon)


def batch_norm(
    data,
    gamma,
    beta,
    moving_mean,
    moving_var,
    axis=None,
    epsilon=None,
    center=None,
    scale=None,
    training=None,
    momentum=None,
):
    """[out, mean, var]: data normalised per channel (axis, default 1) by the moving
    statistics, or in training by the batch's (then the moving ones are updated by momentum),
    times gamma (scale) plus beta (center). None takes each default: axis 1, epsilon 1e-5,
    center and scale True, training False, momentum 0.1."""
    _check(
        "batch_norm",
        data=data,
        gamma=gamma,
        beta=beta,
        moving_mean=moving_mean,
        moving_var=moving_var,
    )
    epsilon = 1e-5 if epsilon is None else epsilon
    center = True if center is None else center
    scale = True if scale is None else scale
    momentum = 0.1 if momentum is None else momentum
    ndim = data.ndim
    (c_ax,) = _axes("batch_norm", 1 if axis is None else axis, ndim)
    eps = _const(epsilon, data.dtype)
    if training:
        reduce_axes = [k for k in range(ndim) if k != c_ax]
        count = _as_float(_count(data, reduce_axes), data.dtype)

        def over(i_c, rv):
            pos = dict(zip(reduce_axes, rv))
            pos[c_ax] = i_c
            return tuple(pos[k] for k in range(ndim))

        r1 = [te.reduce_axis((0, data.shape[k]), name=f"r{k}") for k in reduce_axes]
        total = te.compute(
            (data.shape[c_ax],),
            lambda c: te.sum(data[over(c, [r.var for r in r1])], axis=r1),
            name="T_batch_sum",
        )
        mean = te.compute(total.shape, lambda c: total[c] / count, name="T_batch_mean")
        r2 = [te.reduce_axis((0, data.shape[k]), name=f"s{k}") for k in reduce_axes]

        def sq(c):
            d = data[over(c, [r.var for r in r2])] - mean[c]
            return te.sum(d * d, axis=r2)

        sqsum = te.compute(total.shape, sq, name="T_batch_sqsum")
        var = te.compute(total.shape, lambda c: sqsum[c] / count, name="T_batch_var")
    else:
        mean, var = moving_mean, moving_var

    def body(*i):
        c = i[c_ax]
        value = (data[i] - mean[c]) / T.sqrt(var[c] + eps)
        return _scale_shift(value, gamma if scale else None, beta if center else None, (c,))

    out = te.compute(data.shape, body, name="T_batch_norm")
    if not training:
        return [out, moving_mean, moving_var]
    m = _const(momentum, data.dtype)
    one = _const(1.0, data.dtype)
    new_mean = te.compute(
        mean.shape, lambda c: (one - m) * moving_mean[c] + m * mean[c], name="T_moving_mean"
    )
    new_var = te.compute(
        var.shape, lambda c: (one - m) * moving_var[c] + m * var[c], name="T_moving_var"
    )
    return [out, new_mean, new_var]


def lrn(data, size, axis=1, alpha=0.0001, beta=0.75, bias=2):
    """Local response normalisation: data / (bias + alpha / size * the sum of squares over
    size neighbours along axis) ** beta."""
    _check("lrn", data=data)
    (ax,) = _axes("lrn", axis, data.ndim)
    if not isinstance(size, int) or size < 1:
        raise ValueError(f"topi.nn.lrn: argument 'size' must be an int >= 1, got {size!r}")
    half = size // 2
    extent = data.shape[ax]
    k = te.reduce_axis((0, size), name="k")
    zero = _const(0.0, data.dtype)

    def window(*i):
        pos = i[ax] + k.var - half
        inside = T.all(pos >= 0, pos < extent)
        at = i[:ax] + (T.if_then_else(inside, pos, 0),) + i[ax + 1 :]
        v = data[at]
        return te.sum(T.if_then_else(inside, v * v, zero), axis=k)

    sqr_sum = te.compute(data.shape, window, name="T_lrn_sqr_sum")
    dt = data.dtype

    def body(*i):
        denom = _const(bias, dt) + _const(alpha, dt) / _const(size, dt) * sqr_sum[i]
        return data[i] / T.power(denom, _const(beta, dt))

    return te.compute(data.shape, body, name="T_lrn")
