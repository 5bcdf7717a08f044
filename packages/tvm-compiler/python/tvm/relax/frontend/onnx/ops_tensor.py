"""Converters of ONNX's tensor-creating and linear-algebra ops: Constant, Shape, Range,
ConstantOfShape, Identity, Dropout, MatMul, Gemm."""

from __future__ import annotations

import numpy as np
from tvm.relax import op as R

from .common import (
    Node,
    accumulate_in_float32,
    const,
    const_value,
    dtype_of,
    is_static,
    shape_of,
    symbolic_length,
)
from .registry import converter


@converter("Constant", since=1)
def _constant(node: Node):
    import onnx.numpy_helper

    for key in ("value", "value_float", "value_floats", "value_int", "value_ints"):
        if key in node.attrs:
            value = node.attr(key)
            break
    else:
        for key in ("sparse_value", "value_string", "value_strings"):
            if key in node.attrs:
                raise node.unsupported(f"the attribute {key}")
        raise ValueError(f"from_onnx: {node.where()} has no value")
    if key == "value":
        return const(onnx.numpy_helper.to_array(value))
    dtype = "float32" if "float" in key else "int64"
    return const(value, dtype)


@converter("Identity", since=1)
def _identity(node: Node):
    return [node.input(0)]  # in a list: a sequence input (a list itself) is one output


@converter("Dropout", since=1)
def _dropout(node: Node):
    node.ignore("seed", "ratio", "is_test")
    training = node.input(2, optional=True)
    if training is not None:
        mode = const_value(training)
        ratio = node.input(1, optional=True)
        ratio = 0.5 if ratio is None else const_value(ratio)
        # training with a ratio of 0 drops nothing: the same as inference
        if mode is None or (bool(mode.reshape(-1)[0]) and (ratio is None or float(ratio) != 0)):
            raise node.unsupported("Dropout in training mode with a nonzero ratio")
    x = node.input(0)
    if node.num_outputs < 2:
        return x
    shape = shape_of(x)
    if not is_static(shape):
        return [x, node.emit(R.ones_like(x, "bool"))]
    return [x, const(np.ones(shape, dtype="bool"))]


@converter("Shape", since=1)
def _shape(node: Node):
    x = node.input(0)
    rank = len(node.shape(x))
    start = node.attr("start", 0) if node.opset >= 15 else 0
    end = node.attr("end", rank) if node.opset >= 15 else rank
    start, end = (max(0, min(rank, v + rank if v < 0 else v)) for v in (start, end))
    dims = node.shape(x)[start:end]
    if is_static(dims):
        return const(dims, "int64")
    full = node.emit(R.shape_to_tensor(R.shape_of(x)))
    return node.emit(R.strided_slice(full, axes=[0], begin=[start], end=[max(start, end)]))


@converter("Size", since=1)
def _size(node: Node):
    shape = node.shape(node.input(0))
    if is_static(shape):
        return const(int(np.prod(shape, dtype="int64")), "int64")
    raise node.unsupported("Size of a tensor with symbolic dimensions")


@converter("ConstantOfShape", since=9)
def _constant_of_shape(node: Node):
    import onnx.numpy_helper

    shape = [int(v) for v in node.const_input(0, "shape")]
    value = node.attr("value", None)
    fill = onnx.numpy_helper.to_array(value).reshape(-1) if value is not None else None
    dtype = fill.dtype if fill is not None else np.dtype("float32")
    return const(np.full(shape, fill[0] if fill is not None else 0, dtype=dtype))


def _range_count_te(start, limit, delta):
    """ONNX Range's element count as a 1-element int64 tensor (computed in float64)."""
    from tvm import te, tir

    def at(i):
        lo, hi, step = (t[()].astype("float64") for t in (start, limit, delta))
        count = tir.ceil((hi - lo) / step).astype("int64")
        return tir.max(count, tir.const(0, "int64"))

    return te.compute((1,), at, name="range_count")


def _range_te(start, delta, shape):
    from tvm import te

    return te.compute(
        list(shape), lambda i: start[()] + i.astype(start.dtype) * delta[()], name="range"
    )


def _dynamic_range(node: Node):
    """Range with bounds known only at run time: its length becomes a symbolic dim, matched
    from the count a PrimFunc computes."""
    start, limit, delta = (node.input(i) for i in range(3))
    if any(len(node.shape(v)) for v in (start, limit, delta)):
        raise node.unsupported("Range bounds that are not scalars")
    count = node.emit_te(_range_count_te, start, limit, delta)
    return node.emit_te(_range_te, start, delta, symbolic_length(node, count, "range_n"))


@converter("Range", since=11)
def _range(node: Node):
    if any(const_value(node.input(i)) is None for i in range(3)):
        return _dynamic_range(node)
    start, limit, delta = (node.const_input(i, "Range bound").reshape(()) for i in range(3))
    # ONNX's count: max(ceil((limit - start) / delta), 0), computed in the input type
    count = max(int(np.ceil((limit - start) / delta)), 0)
    return const(start + np.arange(count, dtype=start.dtype) * delta)


@converter("EyeLike", since=9)
def _eye_like(node: Node):
    x = node.input(0)
    rows, cols = node.static_shape(x)
    dtype = node.attr("dtype", None)
    from .common import np_dtype_name

    out_dtype = np_dtype_name(dtype) if dtype is not None else dtype_of(x)
    return const(np.eye(rows, cols, k=node.attr("k", 0), dtype=out_dtype))


@converter("MatMul", since=1)
@accumulate_in_float32
def _matmul(node: Node):
    return node.emit(R.matmul(node.input(0), node.input(1)))


@converter("Gemm", since=1)
@accumulate_in_float32
def _gemm(node: Node):
    a, b, c = node.input(0), node.input(1), node.input(2, optional=True)
    alpha, beta = node.attr("alpha", 1.0), node.attr("beta", 1.0)
    node.ignore("broadcast")
    if node.attr("transA", 0):
        a = R.permute_dims(a, [1, 0])
    if node.attr("transB", 0):
        b = R.permute_dims(b, [1, 0])
    out = R.matmul(a, b)
    if alpha != 1.0:
        out = R.multiply(out, const(alpha, dtype_of(node.input(0))))
    if c is not None and beta != 0.0:
        if beta != 1.0:
            c = R.multiply(c, const(beta, dtype_of(c)))
        out = R.add(out, c)
    return node.emit(out)


@converter("Det", since=11)
def _det(node: Node):
    """The determinant of each trailing n x n matrix, by cofactor expansion: n <= 3 only (the
    expansion grows as n!; larger n needs an LU factorisation this frontend does not have)."""
    x = node.input(0)
    shape = node.shape(x)
    if len(shape) < 2 or shape[-1] != shape[-2] or not isinstance(shape[-1], int):
        raise ValueError(f"from_onnx: {node.where()}: needs square trailing matrices, got {shape}")
    n = shape[-1]
    if not 1 <= n <= 3:
        raise node.unsupported(f"Det of {n} x {n} matrices")
    lead = len(shape) - 2

    def at(i, j):
        picked = R.strided_slice(x, axes=[lead, lead + 1], begin=[i, j], end=[i + 1, j + 1])
        return node.emit(R.reshape(picked, shape[:-2]))

    def minor(rows, cols):
        if len(rows) == 1:
            return at(rows[0], cols[0])
        total = None
        for k, c in enumerate(cols):
            term = R.multiply(at(rows[0], c), minor(rows[1:], cols[:k] + cols[k + 1 :]))
            total = term if total is None else (R.add if k % 2 == 0 else R.subtract)(total, term)
        return node.emit(total)

    return minor(list(range(n)), list(range(n)))
