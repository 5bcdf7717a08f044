"""Unary elementwise math operators over te tensors (the one table Relax legalises through),
and cast, clip, reinterpret, identity."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as tir_op

from . import fast_math


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


# Upstream names the argument of these two `data`.
def bitwise_not(data):
    """Elementwise bitwise not of data (logical not for bool)."""
    return _unary("bitwise_not", _bitwise_not)(data)


def logical_not(data):
    """Elementwise logical not of data."""
    return _unary("logical_not", tir_op.logical_not)(data)


def _tensor_arg(who, name, value):
    if not isinstance(value, te.Tensor):
        raise TypeError(
            f"topi.{who}: argument {name!r} must be a te.Tensor, got {type(value).__name__}"
        )


def cast(x, dtype, span=None):
    """x converted elementwise to dtype (a scalar x gives a scalar expression)."""
    if isinstance(x, te.Tensor):
        return te.compute(x.shape, lambda *i: x[i].astype(dtype), name="compute")
    if not isinstance(x, (int, float, bool, E.PrimExpr)):
        raise TypeError(
            f"topi.cast: argument 'x' must be a te.Tensor or a scalar, got {type(x).__name__}"
        )
    if isinstance(x, (int, float, bool)):
        return _const(x, dtype) if str(dtype) != "bool" else E.const(bool(x), "bool")
    return x.astype(dtype)


def clip(x, a_min, a_max):
    """x with every element held inside [a_min, a_max]."""
    _tensor_arg("clip", "x", x)

    def bound(value):
        return value if isinstance(value, E.PrimExpr) else _const(value, x.dtype)

    lo, hi = bound(a_min), bound(a_max)
    return te.compute(x.shape, lambda *i: tir_op.max(tir_op.min(x[i], hi), lo), name="compute")


def reinterpret(x, dtype):
    """Each element of x with its bits read as dtype (of the same width), as upstream."""
    _tensor_arg("reinterpret", "x", x)
    return te.compute(x.shape, lambda *i: tir_op.reinterpret(dtype, x[i]), name="T_reinterpret")


def identity(x):
    """A copy of x."""
    _tensor_arg("identity", "x", x)
    return te.compute(x.shape, lambda *i: x[i], name="compute")


def fast_exp(x):
    """exp(x) elementwise, approximated in float32 (topi.fast_math.exp_float32); other dtypes
    exact, as upstream."""
    _tensor_arg("fast_exp", "x", x)
    element = fast_math.approximate(fast_math.exp_float32, tir_op.exp)
    return te.compute(x.shape, lambda *i: element(x[i]), name="T_fast_exp")


def fast_erf(x):
    """erf(x) elementwise, approximated in float32 and float16 (topi.fast_math.erf_float32);
    other dtypes exact."""
    _tensor_arg("fast_erf", "x", x)
    element = fast_math.approximate(fast_math.erf_float32, tir_op.erf, float16_too=True)
    return te.compute(x.shape, lambda *i: element(x[i]), name="T_fast_erf")


def fast_tanh(x):
    """tanh(x) elementwise, approximated in float32 (topi.fast_math.tanh_float32); other dtypes
    exact, as upstream."""
    _tensor_arg("fast_tanh", "x", x)
    element = fast_math.approximate(fast_math.tanh_float32, tir_op.tanh)
    return te.compute(x.shape, lambda *i: element(x[i]), name="T_fast_tanh")


def ceil_log2(x):
    """ceil(log2(x)) elementwise, in x's dtype (computed in float64: exact for int32)."""
    _tensor_arg("ceil_log2", "x", x)

    def body(*i):
        value = tir_op.ceil(tir_op.log2(x[i].astype("float64")))
        return value if str(x.dtype) == "float64" else value.astype(x.dtype)

    return te.compute(x.shape, body, name="ceil_log2")


def fixed_point_multiply(x, multiplier, shift):
    """x * multiplier * 2^(shift - 31) rounded to the nearest integer (ties upward), with
    multiplier a Q31 fixed-point number: a requantisation in int64."""
    _tensor_arg("fixed_point_multiply", "x", x)
    if not isinstance(multiplier, int) or not isinstance(shift, int):
        raise TypeError(
            "topi.fixed_point_multiply: arguments 'multiplier' and 'shift' must be ints"
        )
    right = 31 - shift

    def body(*i):
        product = x[i].astype("int64") * E.const(multiplier, "int64")
        if right > 0:
            nudged = product + E.const(1 << (right - 1), "int64")
            value = E.Call("int64", "tir.shift_right", [nudged, E.const(right, "int64")])
        else:
            value = E.Call("int64", "tir.shift_left", [product, E.const(-right, "int64")])
        return value.astype(x.dtype)

    return te.compute(x.shape, body, name="T_fixed_point_multiply")


__all__ = sorted(
    [
        *UNARY_ELEMENT_FUNCTIONS,
        "cast",
        "ceil_log2",
        "clip",
        "fast_erf",
        "fast_exp",
        "fast_tanh",
        "fixed_point_multiply",
        "identity",
        "reinterpret",
    ]
)
