"""Converters of ONNX's reductions (ReduceSum ... ReduceLogSumExp) and ArgMax/ArgMin."""

from __future__ import annotations

import numpy as np
from tvm.relax import op as R

from .common import Node, accumulate_in_float32, const, dtype_of, normalize_axis
from .ops_elementwise import scalar
from .registry import converter

# op -> the opset from which axes is an input instead of an attribute
_AXES_INPUT_SINCE = {"ReduceSum": 13}
_REDUCTIONS = (
    "ReduceSum",
    "ReduceMean",
    "ReduceMax",
    "ReduceMin",
    "ReduceProd",
    "ReduceL1",
    "ReduceL2",
    "ReduceLogSum",
    "ReduceLogSumExp",
    "ReduceSumSquare",
)


def _reduce_axes(node: Node, ndim: int):
    noop = node.attr("noop_with_empty_axes", 0)
    if node.opset >= _AXES_INPUT_SINCE.get(node.op_type, 18):
        axes = node.const_input(1, "axes", optional=True)
        axes = None if axes is None else [int(a) for a in np.reshape(axes, -1)]
        if not axes:
            if noop:
                return []
            axes = None
    else:
        axes = node.attr("axes", None)
    if axes is None:
        return list(range(ndim))
    return sorted({normalize_axis(node, a, ndim) for a in axes})


@converter(*_REDUCTIONS, since=1)
@accumulate_in_float32
def _reduce(node: Node):
    x = node.input(0)
    ndim = len(node.shape(x))
    axes = _reduce_axes(node, ndim)
    keep = bool(node.attr("keepdims", 1))
    if not axes:
        return x
    kind = node.op_type
    shape = node.shape(x)
    if any(shape[a] == 0 for a in axes if isinstance(shape[a], int)):
        return _empty_reduction(node, x, shape, axes, keep)
    if dtype_of(x) == "bool":  # max/min of bools: any/all, reduced as uint8
        if kind not in ("ReduceMax", "ReduceMin"):
            raise node.unsupported(f"{kind} of bool")
        fn = R.max if kind == "ReduceMax" else R.min
        return node.emit(R.astype(fn(R.astype(x, "uint8"), axes, keep), "bool"))
    if kind == "ReduceSum":
        out = R.sum(x, axes, keep)
    elif kind == "ReduceMean":
        out = R.mean(x, axes, keep)
    elif kind == "ReduceMax":
        out = R.max(x, axes, keep)
    elif kind == "ReduceMin":
        out = R.min(x, axes, keep)
    elif kind == "ReduceProd":
        out = R.prod(x, axes, keep)
    elif kind == "ReduceL1":
        out = R.sum(R.abs(x), axes, keep)
    elif kind == "ReduceL2":
        out = R.sqrt(R.sum(R.multiply(x, x), axes, keep))
    elif kind == "ReduceSumSquare":
        out = R.sum(R.multiply(x, x), axes, keep)
    elif kind == "ReduceLogSum":
        out = R.log(R.sum(x, axes, keep))
    else:  # ReduceLogSumExp, shifted by the max so large inputs do not overflow
        peak = node.emit(R.max(x, axes, True))
        total = R.sum(R.exp(R.subtract(x, peak)), axes, True)
        out = R.add(R.log(total), peak)
        if not keep:
            out = R.squeeze(out, axes)
    return node.emit(out)


def _identity(kind: str, dtype: str):
    """What a reduction of no elements gives: its identity (the dtype's lowest / highest
    value for max / min, -inf for the log-sums)."""
    np_dtype = np.dtype(dtype)
    if kind in ("ReduceMax", "ReduceMin"):
        if np_dtype.kind == "b":
            return kind == "ReduceMin"
        if np_dtype.kind == "f":
            return -np.inf if kind == "ReduceMax" else np.inf
        info = np.iinfo(np_dtype)
        return info.min if kind == "ReduceMax" else info.max
    if kind in ("ReduceLogSum", "ReduceLogSumExp"):
        return -np.inf
    if kind == "ReduceMean":
        return np.nan
    return 1 if kind == "ReduceProd" else 0


def _empty_reduction(node: Node, x, shape, axes, keep: bool):
    """A reduction over an axis of length 0: the identity, in the reduced shape."""
    out_shape = [1 if a in axes else d for a, d in enumerate(shape) if keep or a not in axes]
    value = const(_identity(node.op_type, dtype_of(x)), dtype_of(x))
    return node.emit(R.broadcast_to(value, out_shape))


@converter("ArgMax", "ArgMin", since=1)
def _arg(node: Node):
    x = node.input(0)
    shape = node.shape(x)
    axis = normalize_axis(node, node.attr("axis", 0), len(shape))
    keep = bool(node.attr("keepdims", 1))
    fn = R.argmax if node.op_type == "ArgMax" else R.argmin
    last = node.attr("select_last_index", 0) if node.opset >= 12 else 0
    if not last:
        return node.emit(fn(x, axis=axis, keepdims=keep))
    flipped = node.emit(R.flip(x, axis=axis))
    idx = node.emit(fn(flipped, axis=axis, keepdims=keep))
    dim = shape[axis]
    if not isinstance(dim, int):
        raise node.unsupported("select_last_index over a symbolic dimension")
    return node.emit(R.subtract(scalar(dim - 1, idx), idx))
