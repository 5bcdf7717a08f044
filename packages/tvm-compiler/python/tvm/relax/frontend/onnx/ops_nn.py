"""Converters of ONNX's neural-network ops: Softmax family, Conv, pooling, normalisations."""

from __future__ import annotations

from tvm import te
from tvm.relax import op as R

from . import te_pool_conv
from ._relax_api import tir
from .common import (
    NARROW_FLOATS,
    Node,
    accumulate_in_float32,
    const,
    dtype_of,
    normalize_axis,
    relax_op,
)
from .ops_elementwise import scalar
from .registry import converter


def _flatten_softmax(node: Node, fn, default_axis: int):
    """Softmax before opset 13: the input is seen as 2-D, split at axis."""
    x = node.input(0)
    shape = node.shape(x)
    axis = normalize_axis(node, node.attr("axis", default_axis), len(shape))
    if axis == len(shape) - 1:
        return node.emit(fn(x, axis=-1))
    lead = 1
    for d in shape[:axis]:
        lead = lead * d
    flat = R.reshape(x, [lead, -1])
    return node.emit(R.reshape(fn(flat, axis=1), shape))


def _narrow_softmax(log: bool, dtype: str):
    """Softmax (or its log) of float16/bfloat16 as the ONNX reference computes it: the
    elementwise steps rounded to the type each, the sum accumulated in float32 and rounded once
    (a kernel rounding every partial sum drifts; one rounding at the end lands an ULP away)."""

    def fn(x, axis):
        shifted = R.exp(R.subtract(x, R.max(x, axis, keepdims=True)))
        total = R.sum(R.astype(shifted, "float32"), axis, keepdims=True)
        probs = R.divide(shifted, R.astype(total, dtype))
        return R.log(probs) if log else probs

    return fn


def _softmax_like(op_type, fn, log: bool):
    def choose(node: Node):
        dtype = dtype_of(node.input(0))
        return _narrow_softmax(log, dtype) if dtype in NARROW_FLOATS else fn

    def old(node: Node):
        return _flatten_softmax(node, choose(node), 1)

    def new(node: Node):
        x = node.input(0)
        axis = normalize_axis(node, node.attr("axis", -1), len(node.shape(x)))
        return node.emit(choose(node)(x, axis=axis))

    converter(op_type, since=1)(old)
    converter(op_type, since=13)(new)


_softmax_like("Softmax", R.nn.softmax, log=False)
_softmax_like("LogSoftmax", R.nn.log_softmax, log=True)


def _spatial_params(node: Node, x, kernel):
    """Strides, dilations and (begin..., end...) pads of a conv or pool, auto_pad resolved."""
    shape = node.shape(x)
    nsp = len(shape) - 2
    strides = list(node.attr("strides", [1] * nsp))
    dilations = list(node.attr("dilations", [1] * nsp))
    pads = list(node.attr("pads", [0] * (2 * nsp)))
    auto_pad = node.attr("auto_pad", "NOTSET")
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        spatial = shape[2:]
        if not all(isinstance(d, int) for d in spatial):
            raise node.unsupported(f"auto_pad={auto_pad} with symbolic spatial dimensions")
        pads = [0] * (2 * nsp)
        for i in range(nsp):
            out = -(-spatial[i] // strides[i])
            need = max(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - spatial[i])
            small, big = need // 2, need - need // 2
            pads[i], pads[i + nsp] = (small, big) if auto_pad == "SAME_UPPER" else (big, small)
    elif auto_pad == "VALID":
        pads = [0] * (2 * nsp)
    elif auto_pad != "NOTSET":
        raise node.unsupported(f"auto_pad={auto_pad!r}")
    return strides, dilations, pads


def _from_2d(node: Node, out):
    """Drops the unit height _to_2d added (a reshape: the pooled height is an unsimplified
    expression some squeeze legalisations cannot prove to be 1)."""
    out = node.emit(out)
    n, c, _, w = node.shape(out)
    return node.emit(R.reshape(out, [n, c, w]))


def _to_2d(node: Node, x):
    """1-D spatial ops run as 2-D ones over an added unit height."""
    return node.emit(R.expand_dims(x, 2))


@converter("Conv", since=1)
@accumulate_in_float32
def _conv(node: Node):
    x, w, b = node.input(0), node.input(1), node.input(2, optional=True)
    out = conv_nd(node, x, w)
    if b is not None:
        out = R.add(out, R.reshape(b, [1, -1] + [1] * (len(node.shape(w, "weight")) - 2)))
    return node.emit(out)


def conv_nd(node: Node, x, w):
    """The 1-, 2- or 3-D convolution of x by w with the node's attributes, without bias."""
    wshape = node.shape(w, "weight")
    kernel = list(node.attr("kernel_shape", wshape[2:]))
    groups = node.attr("group", 1)
    strides, dilations, pads = _spatial_params(node, x, kernel)
    nsp = len(wshape) - 2
    if nsp == 1:
        out = R.nn.conv2d(
            _to_2d(node, x),
            _to_2d(node, w),
            strides=[1, strides[0]],
            padding=[0, pads[0], 0, pads[1]],
            dilation=[1, dilations[0]],
            groups=groups,
        )
        out = _from_2d(node, out)
    elif nsp in (2, 3):
        fn = relax_op(node, f"nn.conv{nsp}d")
        out = fn(x, w, strides=strides, padding=pads, dilation=dilations, groups=groups)
    else:
        raise node.unsupported(f"a {nsp}-D convolution")
    return out


@converter("ConvTranspose", since=1)
@accumulate_in_float32
def _conv_transpose(node: Node):
    x, w, b = node.input(0), node.input(1), node.input(2, optional=True)
    wshape = node.static_shape(w, "weight")
    nsp = len(wshape) - 2
    if nsp not in (1, 2, 3):
        raise node.unsupported(f"a {nsp}-D transposed convolution")
    in_sp = node.static_shape(x)[2:]
    kernel = list(node.attr("kernel_shape", wshape[2:]))
    strides = list(node.attr("strides", [1] * nsp))
    dilations = list(node.attr("dilations", [1] * nsp))
    out_pad = list(node.attr("output_padding", [0] * nsp))
    pads = list(node.attr("pads", [0] * (2 * nsp)))
    auto_pad = node.attr("auto_pad", "NOTSET")
    out_shape = node.attr("output_shape", None)
    if out_shape is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        # pads that give the requested output size (input * stride for SAME)
        target = (
            list(out_shape)[-nsp:]
            if out_shape is not None
            else [in_sp[i] * strides[i] for i in range(nsp)]
        )
        for i in range(nsp):
            full = strides[i] * (in_sp[i] - 1) + out_pad[i] + (kernel[i] - 1) * dilations[i] + 1
            total = full - target[i]
            if total < 0:  # a larger output than the kernel covers: extra rows at the end
                out_pad[i] -= total
                total = 0
            small, big = total // 2, total - total // 2
            pads[i], pads[i + nsp] = (small, big) if auto_pad != "SAME_LOWER" else (big, small)
    elif auto_pad == "VALID":
        pads = [0] * (2 * nsp)
    elif auto_pad != "NOTSET":
        raise node.unsupported(f"auto_pad={auto_pad!r}")
    groups = node.attr("group", 1)
    if nsp == 3:  # no Relax op: a te computation
        out = node.emit_te(
            te_pool_conv.conv_transpose_nd,
            x,
            w,
            strides=strides,
            pads=pads,
            output_padding=out_pad,
            dilations=dilations,
            groups=groups,
        )
        if b is not None:
            out = node.emit(R.add(out, R.reshape(b, [1, -1, 1, 1, 1])))
        return out
    if nsp == 1:
        x, w = _to_2d(node, x), _to_2d(node, w)
        strides, dilations, out_pad = [1] + strides, [1] + dilations, [0] + out_pad
        pads = [0, pads[0], 0, pads[1]]
    out = node.emit(
        relax_op(node, "nn.conv2d_transpose")(
            x,
            w,
            strides=strides,
            padding=pads,
            output_padding=out_pad,
            dilation=dilations,
            groups=groups,
        )
    )
    if nsp == 1:
        out = _from_2d(node, out)
    if b is not None:
        out = node.emit(R.add(out, R.reshape(b, [1, -1] + [1] * nsp)))
    return out


def _pool(node: Node, kind: str):
    x = node.input(0)
    kernel = list(node.attr("kernel_shape"))
    strides, dilations, pads = _spatial_params(node, x, kernel)
    ceil_mode = bool(node.attr("ceil_mode", 0)) if node.opset >= 10 else False
    include_pad = bool(node.attr("count_include_pad", 0)) if kind == "avg" else False
    storage_order = node.attr("storage_order", 0)  # the layout of the Indices output only
    if storage_order not in (0, 1):
        raise node.unsupported(f"storage_order={storage_order}")
    out = _pool_nd(node, kind, x, kernel, strides, dilations, pads, ceil_mode, include_pad)
    if node.num_outputs < 2 or not node.proto.output[1]:
        return out
    node.static_shape(x)
    indices = node.emit_te(
        te_pool_conv.max_pool_indices,
        x,
        out_spatial=node.static_shape(out)[2:],
        kernel=kernel,
        strides=strides,
        dilations=dilations,
        pads=pads,
        storage_order=storage_order,
    )
    return [out, indices]


def _pool_nd(node: Node, kind, x, kernel, strides, dilations, pads, ceil_mode, include_pad):
    """A 1-, 2- or 3-D max or average pool in ONNX's semantics, run as 2-D pools. A 3-D
    pool is separable: a 2-D pool over (H, W), then one over D; the element counts an
    average divides by are per-axis products, so averages of averages are exact."""
    fn = R.nn.max_pool2d if kind == "max" else R.nn.avg_pool2d
    extra = {"count_include_pad": include_pad} if kind == "avg" else {}

    def pool2d(inp, k, s, p, d):
        out = fn(inp, pool_size=k, strides=s, padding=p, dilation=d, ceil_mode=ceil_mode, **extra)
        return _onnx_pool_size(node, node.emit(out), inp, k, s, d, p)

    nsp = len(kernel)
    if nsp == 1:
        flat = _to_2d(node, x)
        out = pool2d(
            flat, [1, kernel[0]], [1, strides[0]], [0, pads[0], 0, pads[1]], [1, dilations[0]]
        )
        return _from_2d(node, out)
    if nsp == 2:
        return pool2d(x, kernel, strides, pads, dilations)
    if nsp != 3:
        raise node.unsupported(f"{nsp}-D pooling")
    n, c, d, h, w = node.shape(x)
    planes = node.emit(R.reshape(x, [n, c * d, h, w]))
    hw_pads = [pads[1], pads[2], pads[4], pads[5]]
    out = pool2d(planes, kernel[1:], strides[1:], hw_pads, dilations[1:])
    h2, w2 = node.shape(out)[2:]
    columns = node.emit(R.reshape(out, [n, c, d, h2 * w2]))
    out = pool2d(
        columns, [kernel[0], 1], [strides[0], 1], [pads[0], 0, pads[3], 0], [dilations[0], 1]
    )
    return node.emit(R.reshape(out, [n, c, node.shape(out)[2], h2, w2]))


def _onnx_pool_size(node: Node, out, x, kernel, strides, dilations, pads):
    """With ceil_mode ONNX drops a last window that would start inside the end padding; cut
    the pooled result to ONNX's size where the op kept it."""
    in_sp, out_shape = node.shape(x)[2:], node.shape(out)
    nsp = len(in_sp)
    if not all(isinstance(d, int) for d in list(in_sp) + list(out_shape)):
        return out
    want = list(out_shape)
    for i in range(nsp):
        o = out_shape[2 + i]
        if o > 0 and (o - 1) * strides[i] >= in_sp[i] + pads[i]:
            want[2 + i] = o - 1
    if want == list(out_shape):
        return out
    axes = list(range(2, 2 + nsp))
    return node.emit(R.strided_slice(out, axes=axes, begin=[0] * nsp, end=want[2:]))


@converter("MaxPool", since=1)
def _max_pool(node: Node):
    return _pool(node, "max")


@converter("AveragePool", since=1)
@accumulate_in_float32  # a float16 window sum overflows where the mean does not
def _avg_pool(node: Node):
    return _pool(node, "avg")


@converter("LpPool", since=1)
def _lp_pool(node: Node):
    """(sum over the window of |x|^p)^(1/p): an average pool counting the padding, scaled."""
    x = node.input(0)
    p = float(node.attr("p", 2))
    if not p > 0:  # the result is the 1/p-th power
        raise ValueError(f"from_onnx: {node.where()}: p must be positive, got {p:g}")
    kernel = list(node.attr("kernel_shape"))
    strides, dilations, pads = _spatial_params(node, x, kernel)
    ceil_mode = bool(node.attr("ceil_mode", 0))
    powered = node.emit(R.power(R.abs(x), scalar(p, x)))
    avg = _pool_nd(node, "avg", powered, kernel, strides, dilations, pads, ceil_mode, True)
    volume = 1
    for k in kernel:
        volume *= k
    return node.emit(R.power(R.multiply(avg, scalar(volume, x)), scalar(1.0 / p, x)))


def _lrn_square_sum(x, size):
    """sum of x^2 over the channel window [c - (size-1)//2, c + ceil((size-1)/2)] (ONNX LRN)."""
    channels = x.shape[1]
    lo = (size - 1) // 2
    k = te.reduce_axis((0, size), name="k")

    def at(*i):
        c = i[1] - lo + k
        inside = tir.all(c >= 0, c < channels)
        value = x[(i[0], tir.if_then_else(inside, c, 0)) + i[2:]]
        return te.sum(tir.if_then_else(inside, value * value, tir.const(0, x.dtype)), axis=k)

    return te.compute(list(x.shape), at, name="lrn_square_sum")


@converter("LRN", since=1)
def _lrn(node: Node):
    """x / (bias + alpha / size * (sum of x^2 over size neighbouring channels)) ^ beta."""
    x = node.input(0)
    size = int(node.attr("size"))
    alpha, beta, bias = node.attr("alpha", 1e-4), node.attr("beta", 0.75), node.attr("bias", 1.0)
    if size < 1:
        raise ValueError(f"from_onnx: {node.where()}: size must be positive, got {size}")
    if len(node.shape(x)) < 3:
        raise ValueError(f"from_onnx: {node.where()}: needs an (N, C, ...) input")
    square_sum = node.emit_te(_lrn_square_sum, x, size=size)
    denom = R.add(scalar(bias, x), R.multiply(scalar(alpha / size, x), square_sum))
    return node.emit(R.divide(x, R.power(denom, scalar(beta, x))))


@converter("GlobalAveragePool", "GlobalMaxPool", since=1)
@accumulate_in_float32  # exact for the max; a float16 sum overflows where the mean does not
def _global_pool(node: Node):
    x = node.input(0)
    axes = list(range(2, len(node.shape(x))))
    fn = R.mean if node.op_type == "GlobalAveragePool" else R.max
    return node.emit(fn(x, axis=axes, keepdims=True))


def _channel(param, ndim: int):
    """A per-channel vector shaped to broadcast against an (N, C, ...) tensor."""
    return R.reshape(param, [1, -1] + [1] * (ndim - 2))


@converter("BatchNormalization", since=1)
def _batch_norm(node: Node):
    x, scale, bias, mean, var = (node.input(i) for i in range(5))
    node.ignore("momentum", "spatial", "is_test", "consumed_inputs")
    eps = node.attr("epsilon", 1e-5)
    ndim = len(node.shape(x))
    if node.attr("training_mode", 0):
        return _batch_norm_training(node, x, scale, bias, mean, var, eps, ndim)
    if node.num_outputs > 1:
        raise node.unsupported("BatchNormalization's running mean / variance outputs in inference")
    inv = R.divide(_channel(scale, ndim), R.sqrt(R.add(_channel(var, ndim), scalar(eps, x))))
    return node.emit(
        R.add(R.multiply(R.subtract(x, _channel(mean, ndim)), inv), _channel(bias, ndim))
    )


def _batch_norm_training(node: Node, x, scale, bias, mean, var, eps, ndim):
    """Normalised by the batch's own statistics (the population variance over N and the spatial
    axes); the running mean and variance outputs move toward them by 1 - momentum."""
    if node.opset < 14:
        raise node.unsupported("BatchNormalization in training mode before opset 14")
    momentum = node.attr("momentum", 0.9)
    axes = [0] + list(range(2, ndim))
    normed, batch_mean, inv_std = _normalize(node, x, axes, eps)
    y = node.emit(R.add(R.multiply(normed, _channel(scale, ndim)), _channel(bias, ndim)))
    batch_mean = node.emit(R.reshape(batch_mean, [-1]))
    centered = R.subtract(x, R.reshape(batch_mean, [1, -1] + [1] * (ndim - 2)))
    batch_var = node.emit(R.mean(R.multiply(centered, centered), axis=axes))
    keep, step = scalar(momentum, x), scalar(1 - momentum, x)
    running_mean = node.emit(R.add(R.multiply(mean, keep), R.multiply(batch_mean, step)))
    running_var = node.emit(R.add(R.multiply(var, keep), R.multiply(batch_var, step)))
    return [y, running_mean, running_var][: node.num_outputs]


def _normalize(node: Node, x, axes, eps):
    """(x - mean) / sqrt(var + eps) over axes, with the mean and 1/std kept for outputs."""
    mean = node.emit(R.mean(x, axis=axes, keepdims=True))
    centered = node.emit(R.subtract(x, mean))
    var = R.mean(R.multiply(centered, centered), axis=axes, keepdims=True)
    inv_std = node.emit(R.divide(scalar(1, x), R.sqrt(R.add(var, scalar(eps, x)))))
    return node.emit(R.multiply(centered, inv_std)), mean, inv_std


@converter("LayerNormalization", since=17)
def _layer_norm(node: Node):
    x, scale, bias = node.input(0), node.input(1), node.input(2, optional=True)
    ndim = len(node.shape(x))
    axis = normalize_axis(node, node.attr("axis", -1), ndim)
    node.ignore("stash_type")
    normed, mean, inv_std = _normalize(node, x, list(range(axis, ndim)), node.attr("epsilon", 1e-5))
    out = R.multiply(normed, scale)
    if bias is not None:
        out = R.add(out, bias)
    return [node.emit(out), mean, inv_std][: node.num_outputs]


@converter("InstanceNormalization", since=1)
def _instance_norm(node: Node):
    x, scale, bias = node.input(0), node.input(1), node.input(2)
    ndim = len(node.shape(x))
    normed, _, _ = _normalize(node, x, list(range(2, ndim)), node.attr("epsilon", 1e-5))
    out = R.add(R.multiply(normed, _channel(scale, ndim)), _channel(bias, ndim))
    return node.emit(out)


@converter("GroupNormalization", since=18)
@accumulate_in_float32  # stash_type 1 (the default): the statistics in float32, as NumPy's
def _group_norm(node: Node):
    x, scale, bias = node.input(0), node.input(1), node.input(2)
    shape = node.shape(x)
    ndim = len(shape)
    groups = node.attr("num_groups")
    node.ignore("stash_type")
    grouped = node.emit(R.reshape(x, [shape[0], groups, -1]))
    normed, _, _ = _normalize(node, grouped, [2], node.attr("epsilon", 1e-5))
    normed = R.reshape(normed, shape)
    if node.opset < 21:  # scale and bias are per group before opset 21
        channels_per_group = shape[1] // groups
        scale = node.emit(R.repeat(scale, channels_per_group, axis=0))
        bias = node.emit(R.repeat(bias, channels_per_group, axis=0))
    return node.emit(R.add(R.multiply(normed, _channel(scale, ndim)), _channel(bias, ndim)))


@converter("RMSNormalization", since=23)
def _rms_norm(node: Node):
    x, scale = node.input(0), node.input(1)
    ndim = len(node.shape(x))
    axis = normalize_axis(node, node.attr("axis", -1), ndim)
    node.ignore("stash_type")
    eps = node.attr("epsilon", 1e-5)
    ms = R.mean(R.multiply(x, x), axis=list(range(axis, ndim)), keepdims=True)
    return node.emit(R.multiply(R.divide(x, R.sqrt(R.add(ms, scalar(eps, x)))), scale))


@converter("LpNormalization", since=1)
def _lp_norm(node: Node):
    x = node.input(0)
    axis = normalize_axis(node, node.attr("axis", -1), len(node.shape(x)))
    p = node.attr("p", 2)
    if p == 1:
        norm = R.sum(R.abs(x), axis=[axis], keepdims=True)
    elif p == 2:
        norm = R.sqrt(R.sum(R.multiply(x, x), axis=[axis], keepdims=True))
    else:
        raise node.unsupported(f"p={p}")
    norm = node.emit(norm)
    zero = scalar(0, x)
    return node.emit(R.where(R.equal(norm, zero), zero, R.divide(x, norm)))


@converter("MeanVarianceNormalization", since=9)
def _mvn(node: Node):
    x = node.input(0)
    axes = [normalize_axis(node, a, len(node.shape(x))) for a in node.attr("axes", [0, 2, 3])]
    normed, _, _ = _normalize(node, x, axes, 1e-9)
    return normed


def _nll(node: Node, logp, target, weight, reduction: str, ignore_index):
    """The negative log-likelihood of target's classes (axis 1 of logp), as ONNX defines it."""
    if ignore_index is not None:
        valid = R.not_equal(target, const(ignore_index, dtype_of(target)))
        safe = R.where(valid, target, const(0, dtype_of(target)))
    else:
        valid, safe = None, target
    safe = node.emit(safe)
    picked = node.emit(R.gather_elements(logp, node.emit(R.expand_dims(safe, 1)), axis=1))
    loss = R.negative(R.squeeze(picked, [1]))
    w = None
    if weight is not None:
        w = R.take(weight, safe, axis=0)
    elif valid is not None:
        w = R.ones_like(loss)
    if valid is not None:
        w = R.where(valid, w, R.zeros_like(loss))
    w = node.emit(w) if w is not None else None
    if w is not None:
        loss = R.multiply(loss, w)
    loss = node.emit(loss)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return node.emit(R.sum(loss))
    if reduction != "mean":
        raise node.unsupported(f"reduction={reduction!r}")
    if w is None:
        return node.emit(R.mean(loss))
    return node.emit(R.divide(R.sum(loss), R.sum(w)))


@converter("NegativeLogLikelihoodLoss", since=12)
def _nll_loss(node: Node):
    logp, target = node.input(0), node.input(1)
    weight = node.input(2, optional=True)
    return _nll(
        node, logp, target, weight, node.attr("reduction", "mean"), node.attr("ignore_index", None)
    )


@converter("SoftmaxCrossEntropyLoss", since=12)
def _softmax_ce(node: Node):
    scores, labels = node.input(0), node.input(1)
    weight = node.input(2, optional=True)
    logp = node.emit(R.nn.log_softmax(scores, axis=1))
    loss = _nll(
        node, logp, labels, weight, node.attr("reduction", "mean"), node.attr("ignore_index", None)
    )
    return [loss, logp][: node.num_outputs]
