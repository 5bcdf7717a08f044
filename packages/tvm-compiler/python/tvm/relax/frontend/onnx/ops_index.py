"""Converters of ONNX's indexing and rearranging ops: Pad, GatherElements/ND, ScatterElements/ND,
OneHot, Trilu, CumSum/CumProd, TopK, Hardmax, DepthToSpace/SpaceToDepth, Einsum, bitwise ops,
ReverseSequence, CenterCropPad."""

from __future__ import annotations

import numpy as np
from tvm import relax
from tvm.relax import op as R

from .common import Node, const, dtype_of, is_static, normalize_axis, relax_op
from .ops_elementwise import scalar
from .registry import converter


def _slice_axis(x, axis: int, begin: int, end: int):
    return R.strided_slice(x, axes=[axis], begin=[begin], end=[end])


def _pad_axis(node: Node, x, axis: int, before: int, after: int, mode: str, dim: int):
    """x padded along one axis by copies of itself (edge, reflect, wrap), built from slices."""
    parts = []
    if mode == "edge":
        parts = [_slice_axis(x, axis, 0, 1)] * before + [x]
        parts += [_slice_axis(x, axis, dim - 1, dim)] * after
    elif mode == "reflect":
        if before >= dim or after >= dim:
            raise node.unsupported("reflect padding wider than the input")
        parts = [_slice_axis(x, axis, i, i + 1) for i in range(before, 0, -1)] + [x]
        parts += [_slice_axis(x, axis, dim - 2 - i, dim - 1 - i) for i in range(after)]
    elif mode == "wrap":
        parts = [
            _slice_axis(x, axis, (dim - before + i) % dim, (dim - before + i) % dim + 1)
            for i in range(before)
        ]
        parts += [x] + [_slice_axis(x, axis, i % dim, i % dim + 1) for i in range(after)]
    else:
        raise node.unsupported(f"mode={mode!r}")
    return node.emit(R.concat(parts, axis=axis))


@converter("Pad", since=1)
def _pad(node: Node):
    x = node.input(0)
    shape = node.shape(x)
    ndim = len(shape)
    mode = node.attr("mode", "constant")
    if node.opset >= 11:
        pads = [int(p) for p in node.const_input(1, "pads")]
        value = node.const_input(2, "constant_value", optional=True)
        value = 0 if value is None or value.size == 0 else value.reshape(-1)[0]
        axes = node.const_input(3, "axes", optional=True) if node.opset >= 18 else None
    else:
        pads = list(node.attr("pads" if node.opset >= 2 else "paddings"))
        value = node.attr("value", 0.0)
        axes = None
    axes = list(range(ndim)) if axes is None else [normalize_axis(node, int(a), ndim) for a in axes]
    n = len(axes)
    return pad_tensor(node, x, dict(zip(axes, pads[:n])), dict(zip(axes, pads[n:])), mode, value)


def pad_tensor(node: Node, x, before: dict, after: dict, mode: str = "constant", value=0):
    """x padded by before[axis] / after[axis] elements (a negative count crops) in ONNX Pad's
    mode, constant padding with value."""
    shape = node.shape(x)
    ndim = len(shape)
    # negative pads crop first
    begin = [max(0, -before.get(a, 0)) for a in range(ndim)]
    ends = [
        shape[a] - max(0, -after.get(a, 0)) if isinstance(shape[a], int) else shape[a]
        for a in range(ndim)
    ]
    if any(begin) or any(max(0, -after.get(a, 0)) for a in range(ndim)):
        x = node.emit(R.strided_slice(x, axes=list(range(ndim)), begin=begin, end=ends))
        shape = [e - b for b, e in zip(begin, ends)]
    before = [max(0, before.get(a, 0)) for a in range(ndim)]
    after = [max(0, after.get(a, 0)) for a in range(ndim)]
    if not any(before) and not any(after):
        return x
    if mode == "constant":
        width = [w for pair in zip(before, after) for w in pair]
        val = value.item() if hasattr(value, "item") else value
        if dtype_of(x) == "bool" or not dtype_of(x).startswith("float"):
            # integer and bool tensors: pad with a constant of their own type, by concat
            out = x
            for a in range(ndim):
                if before[a] or after[a]:
                    pieces = []
                    for count in (before[a], after[a]):
                        fill_shape = list(node.static_shape(out))
                        fill_shape[a] = count
                        pieces.append(const(np.full(fill_shape, val, dtype=dtype_of(x))))
                    out = node.emit(R.concat([pieces[0], out, pieces[1]], axis=a))
            return out
        return node.emit(R.nn.pad(x, width, pad_mode="constant", pad_value=float(val)))
    for a in range(ndim):
        if before[a] or after[a]:
            if not isinstance(shape[a], int):
                raise node.unsupported(f"{mode} padding of a symbolic dimension")
            x = _pad_axis(node, x, a, before[a], after[a], mode, shape[a])
    return x


def _wrap_indices(node: Node, indices, dim):
    """ONNX indices may be negative (counted from the end of the axis)."""
    if not isinstance(dim, int):
        return indices
    dtype = dtype_of(indices)
    return R.where(R.less(indices, const(0, dtype)), R.add(indices, const(dim, dtype)), indices)


@converter("GatherElements", since=11)
def _gather_elements(node: Node):
    data, indices = node.input(0), node.input(1)
    shape = node.shape(data)
    axis = normalize_axis(node, node.attr("axis", 0), len(shape))
    idx = node.emit(_wrap_indices(node, indices, shape[axis]))
    return node.emit(R.gather_elements(data, idx, axis=axis))


_REDUCTIONS = {"none": "update", "add": "add", "mul": "mul", "max": "max", "min": "min"}


@converter("Scatter", since=9)  # the deprecated name of ScatterElements (opsets 9 and 10)
@converter("ScatterElements", since=11)
def _scatter_elements(node: Node):
    data, indices, updates = node.input(0), node.input(1), node.input(2)
    shape = node.shape(data)
    axis = normalize_axis(node, node.attr("axis", 0), len(shape))
    reduction = node.attr("reduction", "none") if node.opset >= 16 else "none"
    if reduction not in _REDUCTIONS:
        raise node.unsupported(f"reduction={reduction!r}")
    idx = node.emit(_wrap_indices(node, indices, shape[axis]))
    fn = relax_op(node, "scatter_elements")
    return node.emit(fn(data, idx, updates, axis, _REDUCTIONS[reduction]))


@converter("GatherND", since=11)
def _gather_nd(node: Node):
    batch_dims = node.attr("batch_dims", 0) if node.opset >= 12 else 0
    return node.emit(R.gather_nd(node.input(0), node.input(1), batch_dims=batch_dims))


@converter("ScatterND", since=11)
def _scatter_nd(node: Node):
    reduction = node.attr("reduction", "none") if node.opset >= 16 else "none"
    if reduction not in _REDUCTIONS:
        raise node.unsupported(f"reduction={reduction!r}")
    fn = relax_op(node, "scatter_nd")
    return node.emit(fn(node.input(0), node.input(1), node.input(2), _REDUCTIONS[reduction]))


def _one_hot_mask(node: Node, indices, depth: int, axis: int):
    """A bool tensor, true where the new axis' position equals the index."""
    ndim = len(node.shape(indices))
    axis = normalize_axis(node, axis, ndim + 1)
    positions = np.arange(depth, dtype=dtype_of(indices)).reshape([depth] + [1] * (ndim - axis))
    return R.equal(R.expand_dims(indices, axis), const(positions))


@converter("OneHot", since=9)
def _one_hot(node: Node):
    indices = node.input(0)
    depth = int(node.const_input(1, "depth").reshape(-1)[0])
    values = node.input(2)
    axis = node.attr("axis", -1)
    if not dtype_of(indices).startswith(("int", "uint")):
        indices = node.emit(R.astype(indices, "int64"))
    # negative indices count from depth
    idx = node.emit(
        R.where(
            R.less(indices, scalar(0, indices)), R.add(indices, scalar(depth, indices)), indices
        )
    )
    mask = node.emit(_one_hot_mask(node, idx, depth, axis))
    off = R.take(values, const(0, "int64"))
    on = R.take(values, const(1, "int64"))
    return node.emit(R.where(mask, on, off))


@converter("Trilu", since=14)
def _trilu(node: Node):
    x = node.input(0)
    shape = node.shape(x)
    k = node.const_input(1, "k", optional=True)
    k = 0 if k is None else int(k.reshape(-1)[0])
    rows, cols = shape[-2:]
    if not is_static([rows, cols]):
        raise node.unsupported("Trilu over symbolic dimensions")
    upper = node.attr("upper", 1)
    r = np.arange(rows).reshape(-1, 1)
    c = np.arange(cols).reshape(1, -1)
    keep = (c - r >= k) if upper else (c - r <= k)
    return node.emit(
        R.where(const(keep), x, R.zeros_like(x) if hasattr(R, "zeros_like") else scalar(0, x))
    )


@converter("CumSum", since=11)
@converter("CumProd", since=26)
def _cumulative(node: Node):
    x = node.input(0)
    axis = normalize_axis(node, int(node.const_input(1, "axis").reshape(-1)[0]), len(node.shape(x)))
    exclusive, reverse = node.attr("exclusive", 0), node.attr("reverse", 0)
    if reverse:
        x = node.emit(R.flip(x, axis=axis))
    if node.op_type == "CumSum":
        out = node.emit(R.cumsum(x, axis=axis, exclusive=bool(exclusive)))
    else:
        out = node.emit(R.cumprod(x, axis=axis, exclusive=bool(exclusive)))
    if reverse:
        out = node.emit(R.flip(out, axis=axis))
    return out


@converter("TopK", since=1)
def _topk(node: Node):
    x = node.input(0)
    axis = normalize_axis(node, node.attr("axis", -1), len(node.shape(x)))
    if node.opset >= 10:
        k = int(node.const_input(1, "k").reshape(-1)[0])
    else:
        k = node.attr("k")
    largest = node.attr("largest", 1) if node.opset >= 11 else 1
    if node.opset >= 11 and not node.attr("sorted", 1):
        pass  # any order is allowed then; sorted is one of them
    out = node.emit(relax_op(node, "topk")(x, k, axis, "both", bool(largest), "int64"))
    return [node.emit(relax.TupleGetItem(out, 0)), node.emit(relax.TupleGetItem(out, 1))]


def _hardmax(node: Node, x, axis: int):
    ndim = len(node.shape(x))
    depth = node.shape(x)[axis]
    if not isinstance(depth, int):
        raise node.unsupported("Hardmax over a symbolic dimension")
    idx = node.emit(R.argmax(x, axis=axis, keepdims=False))
    mask = _one_hot_mask(node, idx, depth, axis if axis < ndim else -1)
    return node.emit(R.astype(mask, dtype_of(x)))


@converter("Hardmax", since=1)
def _hardmax_old(node: Node):
    x = node.input(0)
    shape = node.shape(x)
    axis = normalize_axis(node, node.attr("axis", 1), len(shape))
    lead = 1
    for d in shape[:axis]:
        lead = lead * d
    flat = node.emit(R.reshape(x, [lead, -1]))
    return node.emit(R.reshape(_hardmax(node, flat, 1), shape))


@converter("Hardmax", since=13)
def _hardmax_new(node: Node):
    x = node.input(0)
    return _hardmax(node, x, normalize_axis(node, node.attr("axis", -1), len(node.shape(x))))


@converter("DepthToSpace", since=1)
def _depth_to_space(node: Node):
    x = node.input(0)
    n, c, h, w = node.shape(x)
    b = node.attr("blocksize")
    mode = node.attr("mode", "DCR") if node.opset >= 11 else "DCR"
    if mode == "DCR":
        t = R.reshape(x, [n, b, b, c // (b * b), h, w])
        t = R.permute_dims(t, [0, 3, 4, 1, 5, 2])
    else:
        t = R.reshape(x, [n, c // (b * b), b, b, h, w])
        t = R.permute_dims(t, [0, 1, 4, 2, 5, 3])
    return node.emit(R.reshape(t, [n, c // (b * b), h * b, w * b]))


@converter("SpaceToDepth", since=1)
def _space_to_depth(node: Node):
    x = node.input(0)
    n, c, h, w = node.shape(x)
    b = node.attr("blocksize")
    # the output depth is (row in block, column in block, channel) in DCR mode, the default;
    # (channel, row, column) in CRD mode (an attribute since opset 28)
    mode = node.attr("mode", "DCR")
    if mode not in ("DCR", "CRD"):
        raise node.unsupported(f"mode={mode!r}")
    t = R.reshape(x, [n, c, h // b, b, w // b, b])
    t = R.permute_dims(t, [0, 3, 5, 1, 2, 4] if mode == "DCR" else [0, 1, 3, 5, 2, 4])
    return node.emit(R.reshape(t, [n, c * b * b, h // b, w // b]))


@converter("Einsum", since=12)
def _einsum(node: Node):
    equation = node.attr("equation").replace(" ", "")
    args = [x for x in node.inputs if x is not None]
    if "." in equation:
        equation = _expand_ellipsis(node, equation, args)
    return node.emit(R.einsum(args, equation))


def _expand_ellipsis(node: Node, equation: str, args) -> str:
    """The equation with each '...' spelled as letters it does not use, one per dimension the
    ellipsis covers (the same count in every operand that has one)."""
    lhs, arrow, rhs = equation.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(args):
        raise ValueError(
            f"from_onnx: {node.where()}: {len(terms)} operands in {equation!r}, got {len(args)}"
        )
    spare = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in equation]
    counts = {
        len(node.shape(x)) - len(t.replace("...", "")) for t, x in zip(terms, args) if "..." in t
    }
    if len(counts) != 1 or min(counts) < 0:
        raise node.unsupported(f"an ellipsis covering different ranks in {equation!r}")
    letters = "".join(spare[: counts.pop()])
    terms = [t.replace("...", letters) for t in terms]
    if arrow:
        rhs = rhs.replace("...", letters)
    else:  # implicit output: the ellipsis dims first, then the letters used once, sorted
        used = "".join(terms)
        rhs = letters + "".join(
            sorted(c for c in set(used) if used.count(c) == 1 and c not in letters)
        )
    return ",".join(terms) + "->" + rhs


@converter("ReverseSequence", since=10)
def _reverse_sequence(node: Node):
    """Each batch entry b's first sequence_lens[b] steps along the time axis reversed, the
    rest kept: a gather along time of index len - 1 - t where t < len, t elsewhere."""
    x, lens = node.input(0), node.input(1)
    shape = node.static_shape(x)
    ndim = len(shape)
    batch_axis = normalize_axis(node, node.attr("batch_axis", 1), ndim)
    time_axis = normalize_axis(node, node.attr("time_axis", 0), ndim)
    if batch_axis == time_axis:
        raise ValueError(
            f"from_onnx: {node.where()}: batch_axis and time_axis are both {time_axis}"
        )
    along = [1] * ndim
    along[time_axis] = shape[time_axis]
    t = const(np.arange(shape[time_axis], dtype="int64").reshape(along))
    per_batch = [1] * ndim
    per_batch[batch_axis] = shape[batch_axis]
    # Lengths outside [0, time steps] (which the ONNX spec forbids) are clamped into it: the
    # gather index len - 1 - t read before or past the time axis otherwise.
    length = R.clip(R.astype(lens, "int64"), 0, shape[time_axis])
    length = R.reshape(length, per_batch)
    index = R.where(R.less(t, length), R.subtract(R.subtract(length, const(1, "int64")), t), t)
    index = node.emit(R.broadcast_to(index, shape))
    return node.emit(R.gather_elements(x, index, axis=time_axis))


_BITWISE = {"BitwiseAnd": "bitwise_and", "BitwiseOr": "bitwise_or", "BitwiseXor": "bitwise_xor"}


@converter(*_BITWISE, since=18)
def _bitwise(node: Node):
    return node.emit(relax_op(node, _BITWISE[node.op_type])(node.input(0), node.input(1)))


@converter("BitwiseNot", since=18)
def _bitwise_not(node: Node):
    return node.emit(R.bitwise_not(node.input(0)))


@converter("BitShift", since=11)
def _bitshift(node: Node):
    direction = node.attr("direction")
    name = {"LEFT": "left_shift", "RIGHT": "right_shift"}.get(direction)
    if name is None:
        raise node.unsupported(f"direction={direction!r}")
    return node.emit(relax_op(node, name)(node.input(0), node.input(1)))


@converter("Compress", since=9)
def _compress(node: Node):
    x = node.input(0)
    cond = node.const_input(1, "condition").astype(bool).reshape(-1)
    axis = node.attr("axis", None)
    if axis is None:
        x = node.emit(R.reshape(x, [-1]))
        axis = 0
    axis = normalize_axis(node, axis, len(node.shape(x)))
    picked = np.nonzero(cond)[0].astype("int64")
    return node.emit(R.take(x, const(picked), axis=axis))


@converter("Unique", since=11)
def _unique(node: Node):
    x = node.input(0)
    axis = node.attr("axis", None)
    if axis is not None:  # the unique slices along axis
        axis = normalize_axis(node, axis, len(node.shape(x)))
    wanted = node.num_outputs
    fn = relax_op(node, "unique")
    out = node.emit(fn(x, bool(node.attr("sorted", 1)), *([True] * 3), axis=axis))
    results = [node.emit(relax.TupleGetItem(out, k)) for k in range(4)]
    return results[:wanted]


@converter("CenterCropPad", since=18)
def _center_crop_pad(node: Node):
    """Each listed axis cropped or zero-padded to its target length, centred: (d - t) // 2
    elements dropped in front when cropping, (t - d) // 2 added in front when padding."""
    x = node.input(0)
    shape = node.shape(x)
    ndim = len(shape)
    target = [int(t) for t in node.const_input(1, "shape").reshape(-1)]
    axes = node.attr("axes", list(range(ndim)))
    if len(axes) != len(target):
        raise ValueError(
            f"from_onnx: {node.where()}: shape has {len(target)} entries for {len(axes)} axes"
        )
    before, after = {}, {}
    for axis, t in zip(axes, target):
        axis = normalize_axis(node, axis, ndim)
        d = shape[axis]
        if not isinstance(d, int):
            raise node.unsupported("CenterCropPad of a symbolic dimension")
        if t < 0:
            raise ValueError(f"from_onnx: {node.where()}: negative target length {t}")
        grow = t - d
        lead = grow // 2 if grow >= 0 else -((-grow) // 2)
        before[axis], after[axis] = lead, grow - lead
    return pad_tensor(node, x, before, after)
