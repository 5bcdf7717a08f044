"""TIR builtin operators (registered with their call effects) and helpers that build calls."""

from __future__ import annotations

from tvm.ir.dtype import DataType
from tvm.ir.op import Op, register_op

from .expr import (
    EQ,
    NE,
    And,
    Call,
    CallEffectKind,
    FloatImm,
    FloorDiv,
    FloorMod,
    IntImm,
    Max,
    Min,
    Not,
    Or,
    PrimExpr,
    Select,
    StringImm,
    _binary,
    const,
    convert,
)

EFFECT_ATTR = "TCallEffectKind"
# The C function implementing a math op on double; the float32 variant adds "f".
C_NAME_ATTR = "TCFunctionName"

# Integer bitwise builtins and their C operators (bitwise_not is unary).
BITWISE_C = {
    "bitwise_and": "&",
    "bitwise_or": "|",
    "bitwise_xor": "^",
    "shift_left": "<<",
    "shift_right": ">>",
    "bitwise_not": "~",
}

_MATH_OPS = {
    "exp": "exp",
    "exp2": "exp2",
    "log": "log",
    "log2": "log2",
    "log10": "log10",
    "sqrt": "sqrt",
    "cos": "cos",
    "sin": "sin",
    "tan": "tan",
    "tanh": "tanh",
    "fabs": "fabs",
    "floor": "floor",
    "ceil": "ceil",
    "round": "nearbyint",
    "trunc": "trunc",
    "pow": "pow",
    "erf": "erf",
    "atan": "atan",
    "acos": "acos",
    "acosh": "acosh",
    "asin": "asin",
    "asinh": "asinh",
    "atanh": "atanh",
    "cosh": "cosh",
    "sinh": "sinh",
    "atan2": "atan2",
    "log1p": "log1p",
    "expm1": "expm1",
    "fmod": "fmod",
    "hypot": "hypot",
    "copysign": "copysign",
    "nextafter": "nextafter",
}


def _register_builtins() -> None:
    for name, c_name in _MATH_OPS.items():
        op = register_op(f"tir.{name}", f"math function {name}")
        if not op.has_attr(EFFECT_ATTR):
            op.set_attr(EFFECT_ATTR, CallEffectKind.PURE)
            op.set_attr(C_NAME_ATTR, c_name)
    effects = {
        "tir.call_extern": CallEffectKind.OPAQUE,
        "tir.call_pure_extern": CallEffectKind.PURE,
        "tir.ret": CallEffectKind.CONTROL_JUMP,
        "tir.if_then_else": CallEffectKind.PURE,
        "tir.likely": CallEffectKind.EXPR_ANNOTATION,
        "tir.reinterpret": CallEffectKind.PURE,
        # prefetch(load): a cache hint for the address load reads; no effect on results.
        "tir.prefetch": CallEffectKind.READ_STATE,
        "tir.tvm_call_packed": CallEffectKind.OPAQUE,
        "tir.tvm_stack_make_array": CallEffectKind.PURE,
        "tir.tvm_stack_make_shape": CallEffectKind.PURE,
        **{f"tir.{name}": CallEffectKind.PURE for name in BITWISE_C},
        # 1 / sqrt(x): libm has no such function, so codegen expands it (as upstream's
        # default legalisation of tir.rsqrt does).
        "tir.rsqrt": CallEffectKind.PURE,
    }
    for name, effect in effects.items():
        op = register_op(name)
        if not op.has_attr(EFFECT_ATTR):
            op.set_attr(EFFECT_ATTR, effect)


_register_builtins()


def call_effect(op: Op) -> CallEffectKind:
    """The effect of calling op; ops registered without one are opaque."""
    return op.get_attr(EFFECT_ATTR, CallEffectKind.OPAQUE)


def _math(name: str, x, *rest) -> PrimExpr:
    x = convert(x)
    if not x.dtype.is_float:
        x = x.astype("float32")
    args = [x] + [convert(r).astype(x.dtype) for r in rest]
    return Call(x.dtype, f"tir.{name}", args)


def exp(x):
    return _math("exp", x)


def exp2(x):
    return _math("exp2", x)


def log(x):
    return _math("log", x)


def log2(x):
    return _math("log2", x)


def log10(x):
    return _math("log10", x)


def sqrt(x):
    return _math("sqrt", x)


def rsqrt(x):
    """The reciprocal of the square root of x, 1 / sqrt(x) (the intrinsic tir.rsqrt)."""
    return _math("rsqrt", x)


def cos(x):
    return _math("cos", x)


def sin(x):
    return _math("sin", x)


def tan(x):
    return _math("tan", x)


def tanh(x):
    return _math("tanh", x)


def floor(x):
    return _math("floor", x)


def ceil(x):
    return _math("ceil", x)


def round(x):  # noqa: A001  (the TIR op is called round)
    return _math("round", x)


def trunc(x):
    return _math("trunc", x)


def erf(x):
    return _math("erf", x)


def atan(x):
    return _math("atan", x)


def acos(x):
    return _math("acos", x)


def acosh(x):
    return _math("acosh", x)


def asin(x):
    return _math("asin", x)


def asinh(x):
    return _math("asinh", x)


def atanh(x):
    return _math("atanh", x)


def cosh(x):
    return _math("cosh", x)


def sinh(x):
    return _math("sinh", x)


def atan2(x1, x2):
    return _math("atan2", x1, x2)


def log1p(x):
    return _math("log1p", x)


def expm1(x):
    return _math("expm1", x)


def fmod(x, y):
    return _math("fmod", x, y)


def hypot(x1, x2):
    return _math("hypot", x1, x2)


def copysign(x1, x2):
    return _math("copysign", x1, x2)


def nextafter(x1, x2):
    return _math("nextafter", x1, x2)


def isnan(x):
    """x is NaN, as a bool expression (always false for integers)."""
    x = convert(x)
    if not x.dtype.is_float:
        return const(False, _bool_like(x))
    return NE(x, x)


def isinf(x):
    """x is +inf or -inf, as a bool expression (always false for integers)."""
    x = convert(x)
    if not x.dtype.is_float:
        return const(False, _bool_like(x))
    return EQ(abs(x), const(float("inf"), x.dtype))


def isfinite(x):
    """x is neither NaN nor infinite, as a bool expression (always true for integers)."""
    x = convert(x)
    if not x.dtype.is_float:
        return const(True, _bool_like(x))
    return And(Not(isnan(x)), Not(isinf(x)))


def _bool_like(x) -> str:
    return "bool" if x.dtype.lanes == 1 else f"boolx{x.dtype.lanes}"


def power(x, y):
    return _math("pow", x, y)


pow = power  # noqa: A001  (upstream's tvm.tir.pow: the same x ** y)


def abs(x):  # noqa: A001
    x = convert(x)
    if x.dtype.is_float:
        return _math("fabs", x)
    return Select(x >= 0, x, -x)


def sigmoid(x):
    x = convert(x)
    return 1.0 / (1.0 + exp(-x))


def call_extern(dtype, func_name: str, *args) -> Call:
    """A call to an external C function; it may touch any state, so it is impure."""
    return Call(dtype, "tir.call_extern", [StringImm(func_name), *args])


def call_packed(*args) -> Call:
    """A call to the registered global function args[0] with the rest as its arguments; a
    Buffer travels as a DLTensor of its data and shape (as upstream's tvm_stack_make_array)."""
    from .buffer import Buffer

    if not args or not isinstance(args[0], str):
        raise TypeError(
            "call_packed: the first argument must be the global function's name (a str), got "
            f"{args[0]!r}"
            if args
            else "call_packed: the first argument must be a function name"
        )
    converted = [StringImm(args[0])]
    for a in args[1:]:
        if isinstance(a, Buffer):
            shape = Call("handle", "tir.tvm_stack_make_shape", list(a.shape))
            zero = const(0, a.dtype)  # carries the element dtype, as upstream's
            converted.append(
                Call(
                    "handle",
                    "tir.tvm_stack_make_array",
                    [
                        a.data,
                        shape,
                        IntImm("int32", 0),
                        IntImm("int32", len(a.shape)),
                        zero,
                        a.elem_offset,
                    ],
                )
            )
        else:
            converted.append(convert(a))
    return Call("int32", "tir.tvm_call_packed", converted)


def call_pure_extern(dtype, func_name: str, *args) -> Call:
    """A call to an external C function the caller promises is pure."""
    return Call(dtype, "tir.call_pure_extern", [StringImm(func_name), *args])


def ret(value) -> Call:
    """Return value from the PrimFunc."""
    value = convert(value)
    return Call(value.dtype, "tir.ret", [value])


def if_then_else(cond, t, f) -> PrimExpr:
    """cond ? t : f, evaluating only the chosen side."""
    sel = Select(cond, t, f)
    return Call(sel.dtype, "tir.if_then_else", [sel.condition, sel.true_value, sel.false_value])


def reinterpret(dtype, value, span=None) -> PrimExpr:
    """value's bits read as dtype (of the same total width): float32 1.0 is int32 0x3f800000."""
    dtype = DataType(str(dtype))
    value = convert(value)
    src = value.dtype
    if src.bits * src.lanes != dtype.bits * dtype.lanes:
        raise ValueError(
            f"reinterpret: argument 'dtype' must have the {src.bits * src.lanes} bits of the "
            f"value's dtype {src}, got {dtype} ({dtype.bits * dtype.lanes} bits)"
        )
    if src == dtype:
        return value
    return Call(dtype, "tir.reinterpret", [value])


def likely(cond) -> PrimExpr:
    cond = convert(cond)
    return Call(cond.dtype, "tir.likely", [cond])


def floordiv(a, b):
    return _binary(FloorDiv, a, b)


def floormod(a, b):
    return _binary(FloorMod, a, b)


def truncdiv(a, b):
    from .expr import Div

    return _binary(Div, a, b)


def truncmod(a, b):
    from .expr import Mod

    return _binary(Mod, a, b)


indexdiv = floordiv
indexmod = floormod


def ceildiv(a, b):
    return floordiv(convert(a) + (convert(b) - 1), b)


def min(a, b):  # noqa: A001
    return _binary(Min, a, b)


def max(a, b):  # noqa: A001
    return _binary(Max, a, b)


def all(*conds):  # noqa: A001
    if not conds:
        return const(True)
    out = conds[0]
    for c in conds[1:]:
        out = And(out, c)
    return convert(out)


def any(*conds):  # noqa: A001
    if not conds:
        return const(False)
    out = conds[0]
    for c in conds[1:]:
        out = Or(out, c)
    return convert(out)


def logical_not(x):
    return Not(x)


def max_value(dtype) -> PrimExpr:
    dtype = DataType(dtype)
    if dtype.is_int:
        return IntImm(dtype, 2 ** (dtype.bits - 1) - 1)
    if dtype.is_uint:
        return IntImm(dtype, 2**dtype.bits - 1)
    if dtype.is_float:
        return FloatImm(dtype, float("inf"))
    raise TypeError(f"max_value: no maximum for dtype {dtype}")


def min_value(dtype) -> PrimExpr:
    dtype = DataType(dtype)
    if dtype.is_int:
        return IntImm(dtype, -(2 ** (dtype.bits - 1)))
    if dtype.is_uint:
        return IntImm(dtype, 0)
    if dtype.is_float:
        return FloatImm(dtype, float("-inf"))
    raise TypeError(f"min_value: no minimum for dtype {dtype}")
