"""Unary elementwise math operators over te tensors (the one table Relax legalises through),
and reinterpret, a bit cast."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as tir_op


def _const(value, dtype):
    dtype = str(dtype)
    if dtype.startswith(("float", "bfloat")):
        return E.const(float(value), dtype)
    return E.const(int(value), dtype)


def _sign(x):
    zero, one = _const(0, x.dtype), _const(1, x.dtype)
    return E.Select(x > zero, one, E.Select(x < zero, _const(-1, x.dtype), zero))


def _bitwise_not(x):
    if x.dtype == "bool":
        return E.Not(x)
    return E.Call(x.dtype, "tir.bitwise_not", [x])


# name -> the scalar function of one element; topi.<name> applies it to every element.
UNARY_ELEMENT_FUNCTIONS = {
    "abs": tir_op.abs,
    "acos": tir_op.acos,
    "acosh": tir_op.acosh,
    "asin": tir_op.asin,
    "asinh": tir_op.asinh,
    "atan": tir_op.atan,
    "atanh": tir_op.atanh,
    "bitwise_not": _bitwise_not,
    "ceil": tir_op.ceil,
    "cos": tir_op.cos,
    "cosh": tir_op.cosh,
    "erf": tir_op.erf,
    "exp": tir_op.exp,
    "floor": tir_op.floor,
    "isfinite": tir_op.isfinite,
    "isinf": tir_op.isinf,
    "isnan": tir_op.isnan,
    "log": tir_op.log,
    "log2": tir_op.log2,
    "log10": tir_op.log10,
    "logical_not": tir_op.logical_not,
    "negative": lambda x: _const(0, x.dtype) - x,
    "round": tir_op.round,
    "rsqrt": lambda x: _const(1, x.dtype) / tir_op.sqrt(x),
    "sigmoid": tir_op.sigmoid,
    "sign": _sign,
    "sin": tir_op.sin,
    "sinh": tir_op.sinh,
    "sqrt": tir_op.sqrt,
    "square": lambda x: x * x,
    "tan": tir_op.tan,
    "tanh": tir_op.tanh,
    "trunc": tir_op.trunc,
}


def _unary(name, fop):
    def operator(x):
        if not isinstance(x, te.Tensor):
            raise TypeError(
                f"topi.{name}: argument 'x' must be a te.Tensor, got {type(x).__name__}"
            )
        return te.compute(x.shape, lambda *i: fop(x[i]), name=f"T_{name}")

    operator.__name__ = name
    operator.__qualname__ = name
    operator.__doc__ = f"Elementwise {name} of x."
    return operator


for _name, _fop in UNARY_ELEMENT_FUNCTIONS.items():
    globals()[_name] = _unary(_name, _fop)


def reinterpret(x, dtype):
    """Each element of x with its bits read as dtype (of the same width), as upstream."""
    if not isinstance(x, te.Tensor):
        raise TypeError(
            f"topi.reinterpret: argument 'x' must be a te.Tensor, got {type(x).__name__}"
        )
    return te.compute(x.shape, lambda *i: tir_op.reinterpret(dtype, x[i]), name="T_reinterpret")


__all__ = sorted([*UNARY_ELEMENT_FUNCTIONS, "reinterpret"])
