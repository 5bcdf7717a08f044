"""Converters of ONNX's shape and indexing ops: Reshape, Transpose, Concat, Flatten, Squeeze,
Unsqueeze, Gather, Slice, Expand, Tile, Split; shape arithmetic on constants folds in NumPy."""

from __future__ import annotations

import numpy as np
from tvm import relax
from tvm.relax import op as R

from ._relax_api import TensorStructInfo, tir
from .common import Node, const, const_value, dtype_of, normalize_axis
from .registry import converter


def _all_const(node: Node):
    values = [const_value(x) if x is not None else None for x in node.inputs]
    present = [v for x, v in zip(node.inputs, values) if x is not None]
    return values if present and all(v is not None for v in present) else None


@converter("Reshape", since=1)
def _reshape_v1(node: Node):
    return _reshape(node, list(node.attr("shape")), allowzero=False)


@converter("Reshape", since=5)
def _reshape_v5(node: Node):
    shape = [int(v) for v in node.const_input(1, "target shape")]
    allowzero = node.attr("allowzero", 0) if node.opset >= 14 else 0
    return _reshape(node, shape, bool(allowzero))


def _reshape(node: Node, shape, allowzero: bool):
    x = node.input(0)
    in_shape = node.shape(x)
    if not allowzero:
        shape = [in_shape[i] if d == 0 else d for i, d in enumerate(shape)]
    value = const_value(x)
    if value is not None:
        return const(value.reshape([int(d) for d in shape]))
    return node.emit(R.reshape(x, shape))


@converter("Transpose", since=1)
def _transpose(node: Node):
    x = node.input(0)
    ndim = len(node.shape(x))
    perm = node.attr("perm", list(range(ndim))[::-1])
    value = const_value(x)
    if value is not None:
        return const(np.transpose(value, perm))
    return node.emit(R.permute_dims(x, [int(p) for p in perm]))


@converter("Concat", since=1)
def _concat(node: Node):
    args = [x for x in node.inputs if x is not None]
    axis = normalize_axis(
        node, node.attr("axis", 0 if node.opset < 4 else None), len(node.shape(args[0]))
    )
    values = _all_const(node)
    if values is not None:
        return const(np.concatenate([v for v in values if v is not None], axis=axis))
    return node.emit(R.concat(args, axis=axis))


@converter("Flatten", since=1)
def _flatten(node: Node):
    x = node.input(0)
    shape = node.shape(x)
    axis = node.attr("axis", 1)
    axis = axis + len(shape) if axis < 0 else axis
    lead = 1
    for d in shape[:axis]:
        lead = lead * d
    return node.emit(R.reshape(x, [lead, -1] if axis < len(shape) else [lead, 1]))


def _axes(node: Node, since_input: int, ndim: int):
    """Axes from the attribute (older opsets) or the optional second input (newer ones)."""
    if node.opset >= since_input:
        axes = node.const_input(1, "axes", optional=True)
        axes = None if axes is None else [int(a) for a in np.reshape(axes, -1)]
    else:
        axes = node.attr("axes", None)
    if axes is None:
        return None
    return sorted(normalize_axis(node, a, ndim) for a in axes)


@converter("Squeeze", since=1)
def _squeeze(node: Node):
    x = node.input(0)
    shape = node.shape(x)
    axes = _axes(node, 13, len(shape))
    if axes is None:
        axes = [i for i, d in enumerate(shape) if isinstance(d, int) and d == 1]
    value = const_value(x)
    if value is not None:
        return const(np.squeeze(value, axis=tuple(axes)))
    return node.emit(R.squeeze(x, axes))


@converter("Unsqueeze", since=1)
def _unsqueeze(node: Node):
    x = node.input(0)
    shape = node.shape(x)
    if node.opset >= 13:
        raw = [int(a) for a in np.reshape(node.const_input(1, "axes"), -1)]
    else:
        raw = list(node.attr("axes"))
    out_ndim = len(shape) + len(raw)
    axes = sorted(normalize_axis(node, a, out_ndim) for a in raw)
    value = const_value(x)
    if value is not None:
        return const(np.expand_dims(value, tuple(axes)))
    out = x
    for a in axes:
        out = R.expand_dims(out, a)
    return node.emit(out)


@converter("Gather", since=1)
def _gather(node: Node):
    data, indices = node.input(0), node.input(1)
    shape = node.shape(data)
    axis = normalize_axis(node, node.attr("axis", 0), len(shape))
    values = _all_const(node)
    if values is not None:
        return const(np.take(values[0], values[1], axis=axis))
    dim = shape[axis]
    # negative indices count from the end
    idx_dtype = dtype_of(indices)
    if isinstance(dim, int):
        fixed = R.where(
            R.less(indices, const(0, idx_dtype)), R.add(indices, const(dim, idx_dtype)), indices
        )
    else:
        fixed = indices
    return node.emit(R.take(data, fixed, axis=axis))


@converter("Slice", since=1)
def _slice_v1(node: Node):
    x = node.input(0)
    starts, ends = node.attr("starts"), node.attr("ends")
    axes = node.attr("axes", list(range(len(starts))))
    return _slice(node, x, starts, ends, axes, [1] * len(starts))


@converter("Slice", since=10)
def _slice_v10(node: Node):
    x = node.input(0)
    if const_value(node.input(1)) is None or const_value(node.input(2)) is None:
        return _dynamic_slice(node, x)
    starts = node.const_input(1, "starts")
    ends = node.const_input(2, "ends")
    axes = node.const_input(3, "axes", optional=True)
    steps = node.const_input(4, "steps", optional=True)
    axes = list(range(len(starts))) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    return _slice(node, x, starts, ends, axes, steps)


def _dynamic_slice(node: Node, x):
    """Slice with starts or ends computed at run time (axes and steps known): the begin, end
    and stride vectors over every axis feed dynamic_strided_slice."""
    shape = node.shape(x)
    ndim = len(shape)
    starts, ends = node.input(1), node.input(2)
    count = node.shape(starts, "starts")[0]
    if not isinstance(count, int):
        raise node.unsupported("starts of a symbolic length")
    axes = node.const_input(3, "axes", optional=True)
    steps = node.const_input(4, "steps", optional=True)
    axes = (
        list(range(count)) if axes is None else [normalize_axis(node, int(a), ndim) for a in axes]
    )
    steps = [1] * count if steps is None else [int(st) for st in steps]
    if len(axes) != count or len(steps) != count or len(set(axes)) != count:
        raise ValueError(
            f"from_onnx: {node.where()}: starts, ends, axes and steps must be as long as each "
            f"other with distinct axes (got {count} starts, axes {axes}, steps {steps})"
        )
    if 0 in steps:
        raise ValueError(f"from_onnx: {node.where()}: a slice step of 0")

    def per_axis(values, fill):
        values = node.emit(R.astype(values, "int64")) if dtype_of(values) != "int64" else values
        pieces = []
        for d in range(ndim):
            if d in axes:
                k = axes.index(d)
                pieces.append(node.emit(R.strided_slice(values, axes=[0], begin=[k], end=[k + 1])))
            else:
                pieces.append(const(np.array([fill(d)], "int64")))
        return node.emit(R.concat(pieces, axis=0)) if len(pieces) > 1 else pieces[0]

    begin = per_axis(starts, lambda d: 0)
    end = per_axis(ends, lambda d: 2**62)
    strides = [steps[axes.index(d)] if d in axes else 1 for d in range(ndim)]
    out = node.emit(R.dynamic_strided_slice(x, begin, end, const(np.array(strides, "int64"))))
    # the op knows only the rank: the sliced axes get fresh symbolic dims, the others keep theirs
    dims = [tir.Var(f"slice_dim{d}", "int64") if d in axes else shape[d] for d in range(ndim)]
    return node.bb.match_cast(out, TensorStructInfo(dims, dtype_of(x)))


def _slice(node: Node, x, starts, ends, axes, steps):
    shape = node.shape(x)
    ndim = len(shape)
    axes = [normalize_axis(node, int(a), ndim) for a in axes]
    begin, end, stride = [], [], []
    for a, s, e, st in zip(axes, starts, ends, steps):
        s, e, st = int(s), int(e), int(st)
        if st == 0:
            raise ValueError(f"from_onnx: {node.where()}: a slice step of 0")
        dim = shape[a]
        if isinstance(dim, int):
            # clamp as ONNX does (NumPy's rules): indices past the end saturate
            lo, hi = (0, dim) if st > 0 else (-1, dim - 1)
            s = s + dim if s < 0 else s
            e = e + dim if e < 0 else e
            s, e = max(lo, min(hi, s)), max(lo, min(hi, e))
        begin.append(s)
        end.append(e)
        stride.append(st)
    value = const_value(x)
    if value is not None and all(isinstance(shape[a], int) for a in axes):
        index = [slice(None)] * ndim
        for a, s, e, st in zip(axes, begin, end, stride):
            index[a] = slice(s, e if e >= 0 else None, st)
        return const(value[tuple(index)])
    # a negative end after clamping means "through index 0" for a negative step
    end = [e if e >= 0 else -(2**62) for e in end]
    return node.emit(
        R.strided_slice(x, axes=axes, begin=begin, end=end, strides=stride, assume_inbound=False)
    )


@converter("Expand", since=8)
def _expand(node: Node):
    x = node.input(0)
    target = [int(v) for v in node.const_input(1, "shape")]
    shape = node.shape(x)
    rank = max(len(shape), len(target))
    shape = [1] * (rank - len(shape)) + list(shape)
    target = [1] * (rank - len(target)) + target
    out = [s if t == 1 else t for s, t in zip(shape, target)]
    value = const_value(x)
    if value is not None:
        return const(np.broadcast_to(value, [int(d) for d in out]).copy())
    return node.emit(R.broadcast_to(x, out))


@converter("Tile", since=6)
def _tile(node: Node):
    repeats = [int(v) for v in node.const_input(1, "repeats")]
    return node.emit(R.tile(node.input(0), repeats))


@converter("Split", since=1)
def _split(node: Node):
    x = node.input(0)
    shape = node.shape(x)
    axis = normalize_axis(node, node.attr("axis", 0), len(shape))
    if node.opset >= 13:
        split = node.const_input(1, "split", optional=True)
    else:
        split = node.attr("split", None)
    n = node.num_outputs
    if split is None:
        if node.opset >= 18:
            n = node.attr("num_outputs", n)
        dim = shape[axis]
        if not isinstance(dim, int):
            sections = n
        else:
            size = -(-dim // n)
            split = [min(size, dim - i * size) for i in range(n)]
            sections = None
    if split is not None:
        # explicit sizes (some may be 0): one slice per output
        sizes = [int(s) for s in np.reshape(split, -1)]
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        return [
            node.emit(R.strided_slice(x, axes=[axis], begin=[int(b)], end=[int(b) + size]))
            for b, size in zip(starts, sizes)
        ]
    parts = node.emit(R.split(x, sections, axis=axis))
    return [node.emit(relax.TupleGetItem(parts, i)) for i in range(n)]
