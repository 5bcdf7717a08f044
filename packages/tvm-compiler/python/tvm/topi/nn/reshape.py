"""flatten (N, everything else) and dilate (zeros, or a value, between the elements)."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as T


def _tensor(who, name, value):
    if not isinstance(value, te.Tensor):
        raise TypeError(
            f"topi.nn.{who}: argument {name!r} must be a te.Tensor, got {type(value).__name__}"
        )


def flatten(data):
    """data as (its first extent, the product of the others), row-major."""
    _tensor("flatten", "data", data)
    if data.ndim < 1:
        raise ValueError("topi.nn.flatten: argument 'data' must have at least one axis")
    rest = data.shape[1:]
    size = 1
    for extent in rest:
        size = size * extent

    def body(b, j):
        index = []
        for extent in reversed(rest):
            index.append(T.floormod(j, extent))
            j = T.floordiv(j, extent)
        return data[(b, *reversed(index))]

    return te.compute((data.shape[0], size), body, name="compute")


def dilate(data, strides, dilation_value=0.0, name="DilatedInput"):
    """data with strides[k] - 1 copies of dilation_value between neighbours on axis k."""
    _tensor("dilate", "data", data)
    strides = list(strides)
    if len(strides) != data.ndim or not all(isinstance(s, int) and s >= 1 for s in strides):
        raise ValueError(
            f"topi.nn.dilate: argument 'strides' must hold {data.ndim} ints >= 1, got {strides}"
        )
    shape = [(s - 1) * st + 1 if st != 1 else s for s, st in zip(data.shape, strides)]
    fill = E.const(dilation_value, data.dtype)

    def body(*i):
        on_grid = [T.floormod(x, st) == 0 for x, st in zip(i, strides) if st != 1]
        index = tuple(T.floordiv(x, st) if st != 1 else x for x, st in zip(i, strides))
        if not on_grid:
            return data[index]
        return T.if_then_else(T.all(*on_grid), data[index], fill)

    return te.compute(shape, body, name=name)
