"""Tensors made from sizes or constants: eye, const_vector, hamming_window, shape,
tensor_size."""

from __future__ import annotations

import math

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as tir_op


def _const(value, dtype):
    dtype = str(dtype)
    if dtype.startswith(("float", "bfloat")):
        return E.const(float(value), dtype)
    return E.const(int(value), dtype)


def _as_int64(value):
    value = E.convert(value) if isinstance(value, int) else value
    return value if str(value.dtype) == "int64" else value.astype("int64")


def eye(n, m=None, k=0, dtype="float32"):
    """An n x m matrix of dtype with ones on diagonal k (above the main one when positive)."""
    for name, value in (("n", n), ("m", m), ("k", k)):
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, (int, E.PrimExpr))
        ):
            raise TypeError(f"topi.eye: argument {name!r} must be an int, got {value!r}")
    m = n if m is None else m
    for name, value in (("n", n), ("m", m)):
        if isinstance(value, int) and value < 0:
            raise ValueError(f"topi.eye: argument {name!r} must not be negative, got {value}")
    one, zero = _const(1, dtype), _const(0, dtype)
    diagonal = _as_int64(k)
    return te.compute(
        (n, m),
        lambda i, j: tir_op.if_then_else(_as_int64(j) - _as_int64(i) == diagonal, one, zero),
        name="eye",
    )


def const_vector(vector, name="const_vector"):
    """The 1-D NumPy array vector as a te tensor of its dtype (its values baked in)."""
    import numpy as np  # only here: numpy is not a dependency of the compiler itself

    vector = np.asarray(vector)
    if vector.ndim != 1:
        raise ValueError(f"topi.const_vector: argument 'vector' must be 1-D, got {vector.ndim}-D")
    dtype = str(vector.dtype)

    def body(i):
        value = _const(0, dtype)
        for k in range(len(vector) - 1, -1, -1):
            value = tir_op.if_then_else(i == k, _const(vector[k].item(), dtype), value)
        return value

    return te.compute(vector.shape, body, name=name)


def hamming_window(window_size, periodic, alpha, beta, dtype):
    """alpha - beta * cos(2 pi n / N) for n < window_size, N = window_size when periodic,
    window_size - 1 otherwise (a window of 1 is [1])."""
    if not isinstance(window_size, (int, E.PrimExpr)):
        raise TypeError(
            f"topi.hamming_window: argument 'window_size' must be an int, got {window_size!r}"
        )
    size = window_size
    denom = size if periodic else size - 1

    def body(i):
        angle = _const(2 * math.pi, dtype) * i.astype(dtype) / _as_float(denom, dtype)
        value = _const(alpha, dtype) - _const(beta, dtype) * tir_op.cos(angle)
        if isinstance(size, int) and size == 1:
            return _const(1, dtype)
        return value

    return te.compute((size,), body, name="hamming_window")


def _as_float(value, dtype):
    if isinstance(value, int):
        return _const(value, dtype)
    return value.astype(dtype)


def shape(array, dtype="int32"):
    """array's extents as a 1-D tensor of dtype."""
    if not isinstance(array, te.Tensor):
        raise TypeError(f"topi.shape: argument 'array' must be a te.Tensor, got {array!r}")
    extents = [e if str(e.dtype) == dtype else e.astype(dtype) for e in array.shape]

    def body(i):
        value = _const(0, dtype)
        for k in range(len(extents) - 1, -1, -1):
            value = tir_op.if_then_else(i == k, extents[k], value)
        return value

    return te.compute((len(extents),), body, name="T_shape")


def tensor_size(array, dtype="int32"):
    """The element count of array as a 0-d tensor of dtype."""
    if not isinstance(array, te.Tensor):
        raise TypeError(f"topi.tensor_size: argument 'array' must be a te.Tensor, got {array!r}")
    count = _const(1, dtype)
    for e in array.shape:
        count = count * (e if str(e.dtype) == dtype else e.astype(dtype))
    return te.compute((), lambda: count, name="tensor_size")
