"""relax.layout_transform: a tensor rewritten through an IndexMap (permuting, splitting and
fusing its axes, padding where a split does not divide an extent)."""

from __future__ import annotations

from tvm.tir import expr as E
from tvm.tir.schedule.index_map import IndexMap

from ..expr import PrimValue
from ..struct_info import TensorStructInfo
from ._utils import dims_of, simplify, tensor_arg, tensor_sinfo
from .base import call_op, register
from .op_attrs import LayoutTransformAttrs


def _const_of(expr):
    return expr.value if isinstance(expr, E.IntImm) else None


def output_extent(expr, extents: dict):
    """The extent of one output index of an index map, its inputs ranging over extents
    (id(var) -> extent): a split rounds up (the tail is padding), a fuse multiplies."""
    if isinstance(expr, E.Var):
        if id(expr) not in extents:
            raise ValueError(f"layout_transform: index_map uses {expr.name}, not one of its inputs")
        return extents[id(expr)]
    if isinstance(expr, E.IntImm):
        return E.const(1, "int64")
    if isinstance(expr, (E.FloorDiv, E.FloorMod)) and _const_of(expr.b):
        inner, c = output_extent(expr.a, extents), _const_of(expr.b)
        if isinstance(expr, E.FloorMod):
            return E.const(c, "int64")
        return simplify(E.FloorDiv(inner + (c - 1), c))
    if isinstance(expr, E.Mul):
        for scaled, factor in ((expr.a, expr.b), (expr.b, expr.a)):
            if _const_of(factor):
                return simplify((output_extent(scaled, extents) - 1) * _const_of(factor) + 1)
    if isinstance(expr, E.Add):
        return simplify(output_extent(expr.a, extents) + output_extent(expr.b, extents) - 1)
    raise ValueError(
        f"layout_transform: index_map output {expr} is not a permutation, split (//, %) or "
        f"fuse (*, +) of its inputs"
    )


def mapped_shape(index_map: IndexMap, dims) -> list:
    """The shape a tensor of shape dims has after index_map."""
    extents = {id(v): simplify(E.Cast("int64", d)) for v, d in zip(index_map.initial_indices, dims)}
    return [output_extent(f, extents) for f in index_map.final_indices]


def _infer_layout_transform(call, ctx):
    data = tensor_arg(call, 0, "x")
    index_map = call.attrs.index_map
    n_in = len(index_map.initial_indices)
    if data.ndim != -1 and data.ndim != n_in:
        raise ValueError(
            f"layout_transform: index_map takes {n_in} indices but x has {data.ndim} "
            f"dimensions; give a map of one index per dimension of x"
        )
    pad = call.attrs.pad_value
    if pad is not None and pad.value.dtype != data.dtype and data.dtype != "void":
        raise TypeError(
            f"layout_transform: pad_value has dtype {pad.value.dtype} but x has dtype "
            f"{data.dtype}; they must agree"
        )
    dims = dims_of(data)
    if dims is None:
        return TensorStructInfo(
            dtype=data.dtype, vdevice=data.vdevice, ndim=len(index_map.final_indices)
        )
    return tensor_sinfo(mapped_shape(index_map, dims), data.dtype, data.vdevice)


register("layout_transform", _infer_layout_transform)


def _separators(name, values, bound):
    values = [] if values is None else [int(v) for v in values]
    if any(not 0 <= v <= bound for v in values) or values != sorted(values):
        raise ValueError(
            f"layout_transform: {name} must be increasing axis positions in [0, {bound}], "
            f"got {values}"
        )
    return tuple(values)


def _pad_value(pad_value, dtype):
    if pad_value is None or isinstance(pad_value, PrimValue):
        return pad_value
    if isinstance(pad_value, E.PrimExpr):
        return PrimValue(pad_value)
    if isinstance(pad_value, bool) or not isinstance(pad_value, (int, float)):
        raise TypeError(
            f"layout_transform: pad_value must be None, a number or a PrimValue, got {pad_value!r}"
        )
    if dtype is None or dtype == "void":
        return PrimValue(E.const(pad_value))
    is_float = dtype.startswith(("float", "bfloat"))
    if not is_float and isinstance(pad_value, float):
        raise TypeError(f"layout_transform: pad_value {pad_value} does not fit x's dtype {dtype}")
    return PrimValue(E.const(float(pad_value) if is_float else pad_value, dtype))


def layout_transform(
    x, index_map, pad_value=None, axis_separators=None, input_axis_separators=None
):
    """x rewritten through index_map (an IndexMap or a function of one index per axis of x,
    returning the new indices); where the map pads (a split that does not divide an extent)
    the new elements are pad_value (any value when None)."""
    if callable(index_map) and not isinstance(index_map, IndexMap):
        index_map = IndexMap.from_func(index_map, index_dtype="int64")
    if not isinstance(index_map, IndexMap):
        raise TypeError(
            f"layout_transform: index_map must be an IndexMap or a function, got {index_map!r}"
        )
    sinfo = x.__dict__.get("struct_info_")
    dtype = sinfo.dtype if isinstance(sinfo, TensorStructInfo) else None
    attrs = LayoutTransformAttrs(
        index_map=index_map,
        pad_value=_pad_value(pad_value, dtype),
        axis_separators=_separators(
            "axis_separators", axis_separators, len(index_map.final_indices)
        ),
        input_axis_separators=_separators(
            "input_axis_separators", input_axis_separators, len(index_map.initial_indices)
        ),
    )
    return call_op("layout_transform", [x], attrs)
