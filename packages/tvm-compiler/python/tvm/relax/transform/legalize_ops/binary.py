"""Legalisation of the elementwise binary ops to broadcasting te computations."""

from __future__ import annotations

import math

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as T
from tvm.topi.broadcast import broadcast_shape

from .common import index_at, register_legalize


def _is_float(x) -> bool:
    return x.dtype.is_float or str(x.dtype).startswith("bfloat")


def _floor_divide(a, b):
    return T.floor(a / b) if _is_float(a) else T.floordiv(a, b)


def _floor_mod(a, b):
    return a - T.floor(a / b) * b if _is_float(a) else T.floormod(a, b)


def _trunc_mod(a, b):
    return a - T.trunc(a / b) * b if _is_float(a) else T.truncmod(a, b)


def _shift_out_of_range(x, y):
    """The shift count is negative or not below x's width: C leaves that undefined, so the
    shifts below define it (as NumPy and ONNX do)."""
    return E.Or(y < E.const(0, y.dtype), y >= E.const(x.dtype.bits, y.dtype))


def _left_shift(a, b):
    shifted = E.Call(a.dtype, "tir.shift_left", [a, b])
    return T.if_then_else(_shift_out_of_range(a, b), E.const(0, a.dtype), shifted)


def _right_shift(a, b):
    # Out of range only the sign is left: 0 for unsigned types, 0 or -1 for signed ones.
    if str(a.dtype).startswith("uint"):
        fill = E.const(0, a.dtype)
    else:
        fill = E.Call(a.dtype, "tir.shift_right", [a, E.const(a.dtype.bits - 1, a.dtype)])
    shifted = E.Call(a.dtype, "tir.shift_right", [a, b])
    return T.if_then_else(_shift_out_of_range(a, b), fill, shifted)


def _log_add_exp(a, b):
    # log(exp(a) + exp(b)) without overflow: the larger plus log1p of the other's share.
    # Equal operands take a + log(2) apart, as NumPy does: for two infinities of one sign
    # a - b is NaN, and the sum must stay that infinity.
    spread = T.max(a, b) + T.log1p(T.exp(-T.abs(a - b)))
    return T.if_then_else(E.EQ(a, b), a + E.const(math.log(2.0), a.dtype), spread)


_BINARY = {
    "add": lambda a, b: a + b,
    "subtract": lambda a, b: a - b,
    "multiply": lambda a, b: a * b,
    "divide": lambda a, b: a / b,
    "floor_divide": _floor_divide,
    "power": T.power,
    "maximum": T.max,
    "minimum": T.min,
    "mod": _trunc_mod,
    "floor_mod": _floor_mod,
    "bitwise_and": lambda a, b: a & b,
    "bitwise_or": lambda a, b: a | b,
    "bitwise_xor": lambda a, b: a ^ b,
    "left_shift": _left_shift,
    "right_shift": _right_shift,
    "atan2": T.atan2,
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


def broadcast_te(name, fop):
    """A te function computing fop elementwise over two broadcast tensors."""

    def compute(x1, x2):
        shape = broadcast_shape(name, x1.shape, x2.shape)
        return te.compute(shape, lambda *i: fop(index_at(x1, i), index_at(x2, i)), name=f"T_{name}")

    compute.__name__ = name
    return compute


def _legalize(name, fop):
    te_func = broadcast_te(name, fop)

    def legalize(bb, call):
        return bb.call_te(te_func, call.args[0], call.args[1], primfunc_name_hint=name)

    return legalize


for _name, _fop in _BINARY.items():
    register_legalize(f"relax.{_name}", _legalize(_name, _fop))
