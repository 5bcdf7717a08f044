"""Broadcasting binary elementwise operators over te tensors and scalars, NumPy's rules
(the one table Relax's binary ops legalise through), and broadcast_to."""

from __future__ import annotations

import math

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as tir_op


def _static(extent):
    return extent.value if isinstance(extent, E.IntImm) else None


def broadcast_shape(who, lhs_shape, rhs_shape):
    """NumPy's broadcast of two shapes (trailing axes aligned; an extent of 1 stretches)."""
    ndim = max(len(lhs_shape), len(rhs_shape))
    lhs = [E.const(1, "int32")] * (ndim - len(lhs_shape)) + list(lhs_shape)
    rhs = [E.const(1, "int32")] * (ndim - len(rhs_shape)) + list(rhs_shape)
    out = []
    for a, b in zip(lhs, rhs):
        sa, sb = _static(a), _static(b)
        if sa == 1:
            out.append(b)
        elif sb == 1 or a is b or (sa is not None and sa == sb):
            out.append(a)
        elif sa is not None and sb is not None:
            raise ValueError(
                f"{who}: shapes {[str(x) for x in lhs_shape]} and {[str(x) for x in rhs_shape]} "
                "do not broadcast"
            )
        else:
            out.append(a)  # symbolic extents are taken to agree, as upstream does
    return out


def _index(tensor, out_index):
    """tensor's element at out_index of the broadcast result (stretched axes read index 0)."""
    offset = len(out_index) - len(tensor.shape)
    idx = [
        0 if _static(extent) == 1 else out_index[offset + k]
        for k, extent in enumerate(tensor.shape)
    ]
    return tensor[tuple(idx)] if idx else tensor[()]


def _is_float(x) -> bool:
    return x.dtype.is_float or str(x.dtype).startswith("bfloat")


def _floor_divide(a, b):
    return tir_op.floor(a / b) if _is_float(a) else tir_op.floordiv(a, b)


def _floor_mod(a, b):
    return a - tir_op.floor(a / b) * b if _is_float(a) else tir_op.floormod(a, b)


def _trunc_mod(a, b):
    return a - tir_op.trunc(a / b) * b if _is_float(a) else tir_op.truncmod(a, b)


def _shift_out_of_range(x, y):
    """The shift count is negative or not below x's width: C leaves that undefined, so the
    shifts below define it (as NumPy and ONNX do)."""
    return E.Or(y < E.const(0, y.dtype), y >= E.const(x.dtype.bits, y.dtype))


def _left_shift(a, b):
    shifted = E.Call(a.dtype, "tir.shift_left", [a, b])
    return tir_op.if_then_else(_shift_out_of_range(a, b), E.const(0, a.dtype), shifted)


def _right_shift(a, b):
    # Out of range only the sign is left: 0 for unsigned types, 0 or -1 for signed ones.
    if str(a.dtype).startswith("uint"):
        fill = E.const(0, a.dtype)
    else:
        fill = E.Call(a.dtype, "tir.shift_right", [a, E.const(a.dtype.bits - 1, a.dtype)])
    shifted = E.Call(a.dtype, "tir.shift_right", [a, b])
    return tir_op.if_then_else(_shift_out_of_range(a, b), fill, shifted)


def _log_add_exp(a, b):
    # log(exp(a) + exp(b)) without overflow: the larger plus log1p of the other's share.
    # Equal operands take a + log(2) apart, as NumPy does: for two infinities of one sign
    # a - b is NaN, and the sum must stay that infinity.
    spread = tir_op.max(a, b) + tir_op.log1p(tir_op.exp(-tir_op.abs(a - b)))
    return tir_op.if_then_else(E.EQ(a, b), a + E.const(math.log(2.0), a.dtype), spread)


# name -> the scalar function of two elements; topi.<name> applies it with broadcasting.
BINARY_ELEMENT_FUNCTIONS = {
    "add": lambda a, b: a + b,
    "subtract": lambda a, b: a - b,
    "multiply": lambda a, b: a * b,
    "divide": lambda a, b: a / b,
    "floor_divide": _floor_divide,
    "power": tir_op.power,
    "maximum": tir_op.max,
    "minimum": tir_op.min,
    "mod": _trunc_mod,
    "floor_mod": _floor_mod,
    "bitwise_and": lambda a, b: a & b,
    "bitwise_or": lambda a, b: a | b,
    "bitwise_xor": lambda a, b: a ^ b,
    "left_shift": _left_shift,
    "right_shift": _right_shift,
    "atan2": tir_op.atan2,
    "log_add_exp": _log_add_exp,
    "equal": E.EQ,
    "not_equal": E.NE,
    "less": E.LT,
    "less_equal": E.LE,
    "greater": E.GT,
    "greater_equal": E.GE,
    "logical_and": E.And,
    "logical_or": E.Or,
    "logical_xor": lambda a, b: E.NE(a, b),
}


def _binary(name, fop):
    def operator(lhs, rhs):
        if not isinstance(lhs, te.Tensor) and not isinstance(rhs, te.Tensor):
            return fop(E.convert(lhs), E.convert(rhs))
        for arg, value in (("lhs", lhs), ("rhs", rhs)):
            if not isinstance(value, (te.Tensor, int, float, E.PrimExpr)):
                raise TypeError(
                    f"topi.{name}: argument {arg!r} must be a te.Tensor or a scalar, got "
                    f"{type(value).__name__}"
                )
        if not isinstance(rhs, te.Tensor):
            return te.compute(lhs.shape, lambda *i: fop(lhs[i], rhs), name=f"T_{name}")
        if not isinstance(lhs, te.Tensor):
            return te.compute(rhs.shape, lambda *i: fop(lhs, rhs[i]), name=f"T_{name}")
        shape = broadcast_shape(f"topi.{name}", lhs.shape, rhs.shape)
        return te.compute(shape, lambda *i: fop(_index(lhs, i), _index(rhs, i)), name=f"T_{name}")

    operator.__name__ = name
    operator.__qualname__ = name
    operator.__doc__ = f"Elementwise {name} of lhs and rhs with NumPy broadcasting."
    return operator


for _name, _fop in BINARY_ELEMENT_FUNCTIONS.items():
    globals()[_name] = _binary(_name, _fop)


def broadcast_to(data, shape):
    """data stretched to shape by NumPy's broadcast rules (its axes align with shape's last)."""
    who = "topi.broadcast_to"
    if not isinstance(data, te.Tensor):
        raise TypeError(f"{who}: argument 'data' must be a te.Tensor, got {type(data).__name__}")
    shape = [E.convert(s) if isinstance(s, int) else s for s in shape]
    if len(shape) < data.ndim:
        raise ValueError(
            f"{who}: argument 'shape' {[str(s) for s in shape]} has fewer axes than data "
            f"{[str(s) for s in data.shape]}"
        )
    for have, want in zip(data.shape, shape[len(shape) - data.ndim :]):
        h, w = _static(have), _static(want)
        if h not in (None, 1) and w is not None and h != w:
            raise ValueError(
                f"{who}: data {[str(s) for s in data.shape]} does not broadcast to argument "
                f"'shape' {[str(s) for s in shape]}"
            )
    return te.compute(shape, lambda *i: _index(data, i), name="T_broadcast_to")


__all__ = sorted([*BINARY_ELEMENT_FUNCTIONS, "broadcast_to"])
