"""Elementwise unary ops (math, rounding, sign, logical not) and clip."""

from __future__ import annotations

from ..expr import PrimValue
from ._utils import op_name, tensor_arg
from .base import call_op, register

_FLOAT_ONLY = {
    "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "erf", "sin", "cos", "tan",
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cosh", "sinh",
}  # fmt: skip
# Predicates: a bool tensor of the input's shape.
_CHECKS = {"isfinite", "isinf", "isnan"}


def _unary_infer(call, ctx):
    who = op_name(call)
    sinfo = tensor_arg(call, 0, "x")
    if (
        who in _FLOAT_ONLY
        and sinfo.dtype != "void"
        and not sinfo.dtype.startswith(("float", "bfloat"))
    ):
        raise TypeError(f"{who}: argument 'x' must be a float tensor, got dtype {sinfo.dtype}")
    if who == "logical_not" and sinfo.dtype not in ("bool", "void"):
        raise TypeError(f"{who}: argument 'x' must be a bool tensor, got dtype {sinfo.dtype}")
    if who == "bitwise_not" and not sinfo.dtype.startswith(("int", "uint", "bool", "void")):
        raise TypeError(
            f"{who}: argument 'x' must be an integer or bool tensor, got dtype {sinfo.dtype}"
        )
    if who in _CHECKS:
        return sinfo.with_fields(dtype="bool")
    return sinfo


def _make(name):
    register(name, _unary_infer)

    def constructor(x):
        return call_op(name, [x])

    constructor.__name__ = name
    constructor.__qualname__ = name
    constructor.__doc__ = f"Elementwise {name} of x."
    return constructor


abs = _make("abs")  # noqa: A001
acos = _make("acos")
acosh = _make("acosh")
asin = _make("asin")
asinh = _make("asinh")
atan = _make("atan")
atanh = _make("atanh")
bitwise_not = _make("bitwise_not")
cosh = _make("cosh")
isfinite = _make("isfinite")
isinf = _make("isinf")
isnan = _make("isnan")
sinh = _make("sinh")
trunc = _make("trunc")
ceil = _make("ceil")
cos = _make("cos")
erf = _make("erf")
exp = _make("exp")
floor = _make("floor")
log = _make("log")
logical_not = _make("logical_not")
negative = _make("negative")
round = _make("round")  # noqa: A001
rsqrt = _make("rsqrt")
sigmoid = _make("sigmoid")
sign = _make("sign")
sin = _make("sin")
sqrt = _make("sqrt")
square = _make("square")
tan = _make("tan")
tanh = _make("tanh")


def _infer_clip(call, ctx):
    sinfo = tensor_arg(call, 0, "x")
    for index, name in ((1, "min"), (2, "max")):
        if not isinstance(call.args[index], PrimValue):
            raise TypeError(f"clip: argument {name!r} must be a PrimValue")
    return sinfo


register("clip", _infer_clip)


def clip(x, min, max):  # noqa: A002
    """x with each element clamped into [min, max]."""
    lo = min if isinstance(min, PrimValue) else PrimValue(float(min))
    hi = max if isinstance(max, PrimValue) else PrimValue(float(max))
    return call_op("clip", [x, lo, hi])


__all__ = [
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "bitwise_not",
    "ceil",
    "clip",
    "cos",
    "cosh",
    "erf",
    "exp",
    "floor",
    "isfinite",
    "isinf",
    "isnan",
    "log",
    "logical_not",
    "negative",
    "round",
    "rsqrt",
    "sigmoid",
    "sign",
    "sin",
    "sinh",
    "sqrt",
    "square",
    "tan",
    "tanh",
    "trunc",
]
