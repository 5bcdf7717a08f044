"""Converters of ONNX's elementwise ops: arithmetic, comparison, logic, math, activations."""

from __future__ import annotations

import math
from functools import reduce

import numpy as np
from tvm.relax import op as R
from tvm.runtime.ml_dtypes_view import ml_dtype_of

from .common import (
    NARROW_FLOATS,
    Node,
    check_dtype,
    const,
    const_value,
    dtype_of,
    np_dtype_name,
    relax_op,
)
from .e8m0 import cast_to_e8m0
from .registry import converter


def scalar(value, like):
    """A scalar constant of like's dtype (ONNX ops compute in their input's type)."""
    return const(value, dtype_of(like))


def _is_int(dtype: str) -> bool:
    return dtype.startswith(("int", "uint"))


_BINARY = {
    "Add": R.add,
    "Sub": R.subtract,
    "Mul": R.multiply,
    "Equal": R.equal,
    "Less": R.less,
    "Greater": R.greater,
    "LessOrEqual": R.less_equal,
    "GreaterOrEqual": R.greater_equal,
    "And": R.logical_and,
    "Or": R.logical_or,
}


# The same ops in NumPy: applied when every input is a constant (shape arithmetic in exported
# graphs), so that the shapes computed from it stay static.
_NUMPY = {
    "Add": np.add,
    "Sub": np.subtract,
    "Mul": np.multiply,
    "Equal": np.equal,
    "Less": np.less,
    "Greater": np.greater,
    "LessOrEqual": np.less_equal,
    "GreaterOrEqual": np.greater_equal,
    "And": np.logical_and,
    "Or": np.logical_or,
    "Xor": np.not_equal,
    "Max": np.maximum,
    "Min": np.minimum,
    "Neg": np.negative,
    "Abs": np.abs,
    "Not": np.logical_not,
    "Where": np.where,
}


def fold(node: Node):
    """The node's result computed in NumPy when all its inputs are integer or bool constants
    (shape arithmetic), else None; float math is left to the compiled code."""
    values = [const_value(x) for x in node.inputs if x is not None]
    if not values or any(v is None for v in values):
        return None
    if any(v.dtype.kind not in "iub" for v in values[-2:]) or node.op_type not in _NUMPY:
        return None
    out = values[0]
    if node.op_type == "Where":
        out = np.where(*values)
    elif len(values) == 1:
        out = _NUMPY[node.op_type](out)
    else:
        for v in values[1:]:
            out = _NUMPY[node.op_type](out, v)
    return const(np.asarray(out, dtype=values[-1].dtype if node.op_type == "Where" else None))


def _binary(op_type):
    def convert(node: Node):
        folded = fold(node)
        if folded is not None:
            return folded
        return node.emit(_BINARY[op_type](node.input(0), node.input(1)))

    return convert


for _op_type in _BINARY:
    converter(_op_type, since=1)(_binary(_op_type))


@converter("Xor", since=1)
def _xor(node: Node):
    folded = fold(node)
    if folded is not None:
        return folded
    return node.emit(_bool_xor(node.input(0), node.input(1)))


def _bool_xor(a, b):
    """a != b for bool tensors (logical_xor where Relax has it)."""
    fn = getattr(R, "logical_xor", None)
    return fn(a, b) if fn is not None else R.not_equal(a, b)


def _int_trunc_divide(va, vb):
    """NumPy integer division toward zero, with the kernels' rule for a zero divisor (0) and the
    most negative value over -1 (itself)."""
    with np.errstate(divide="ignore", over="ignore"):
        q = np.floor_divide(va, vb)
        inexact = (q * vb != va) & ((va < 0) != (vb < 0)) & (vb != 0)
    return (q + inexact).astype(va.dtype)


@converter("Div", since=1)
def _div(node: Node):
    # Integer Div truncates toward zero (Relax divide on integers); a zero divisor gives 0, the
    # rule of the generated kernels (docs/onnx.md), where ONNX leaves the result undefined.
    a, b = node.input(0), node.input(1)
    dtype = dtype_of(a)
    va, vb = const_value(a), const_value(b)
    if va is not None and vb is not None and _is_int(dtype):
        return const(_int_trunc_divide(*np.broadcast_arrays(va, vb)))
    return node.emit(R.divide(a, b))


@converter("Mod", since=10)
def _mod(node: Node):
    a, b = node.input(0), node.input(1)
    fmod = node.attr("fmod", 0)
    dtype = dtype_of(a)
    va, vb = const_value(a), const_value(b)
    if va is not None and vb is not None and _is_int(dtype):
        with np.errstate(divide="ignore", invalid="ignore"):
            return const((np.fmod if fmod else np.mod)(va, vb).astype(dtype))
    if not _is_int(dtype):
        return _float_mod(node, a, b, bool(fmod))
    # fmod keeps the dividend's sign (truncating remainder), else the divisor's (floor)
    return node.emit(R.mod(a, b) if fmod else R.floor_mod(a, b))


def _float_mod(node: Node, a, b, fmod: bool):
    """C fmod (the dividend's sign) or, with fmod=0, NumPy's mod (the divisor's sign), as
    NumPy computes them: float16 in float32, x mod +-inf = x for finite x."""
    dtype = dtype_of(a)
    if dtype == "float16":
        a, b = node.emit(R.astype(a, "float32")), node.emit(R.astype(b, "float32"))
    rem = node.emit(R.mod(a, b))  # a - trunc(a / b) * b
    finite_a = R.less(R.abs(a), scalar(np.inf, a))
    rem = node.emit(R.where(R.logical_and(R.equal(R.abs(b), scalar(np.inf, b)), finite_a), a, rem))
    if not fmod:  # move a nonzero remainder whose sign is not b's by one b
        zero = scalar(0, rem)
        wrong = R.logical_and(
            R.not_equal(rem, zero), R.not_equal(R.less(rem, zero), R.less(b, zero))
        )
        rem = node.emit(R.where(wrong, R.add(rem, b), rem))
    return node.emit(R.astype(rem, dtype)) if dtype == "float16" else rem


@converter("Pow", since=1)
def _pow(node: Node):
    a, b = node.input(0), node.input(1)
    dtype = dtype_of(a)
    if _is_int(dtype) or _is_int(dtype_of(b)):
        # integer powers: computed in float64 (exact below 2**53), back in the base's type
        wide = R.power(R.astype(a, "float64"), R.astype(b, "float64"))
        return node.emit(R.astype(R.round(wide) if _is_int(dtype) else wide, dtype))
    if dtype_of(b) != dtype:
        b = node.emit(R.astype(b, dtype))
    return node.emit(R.power(a, b))


@converter("Max", "Min", "Sum", "Mean", since=1)
def _variadic(node: Node):
    folded = fold(node)
    if folded is not None:
        return folded
    fn = {"Max": R.maximum, "Min": R.minimum, "Sum": R.add, "Mean": R.add}[node.op_type]
    args = [x for x in node.inputs if x is not None]
    out = reduce(lambda x, y: node.emit(fn(x, y)), args)
    if node.op_type == "Mean":
        out = node.emit(R.divide(out, scalar(len(args), out)))
    return out


_UNARY = {
    "Abs": "abs",
    "Neg": "negative",
    "Exp": "exp",
    "Log": "log",
    "Sqrt": "sqrt",
    "Floor": "floor",
    "Ceil": "ceil",
    "Round": "round",
    "Sign": "sign",
    "Sin": "sin",
    "Cos": "cos",
    "Tan": "tan",
    "Erf": "erf",
    "Sigmoid": "sigmoid",
    "Tanh": "tanh",
    "Not": "logical_not",
    "Relu": "nn.relu",
}


def _unary(op_type):
    path = _UNARY[op_type]

    def convert(node: Node):
        folded = fold(node)
        if folded is not None:
            return folded
        return node.emit(relax_op(node, path)(node.input(0)))

    return convert


for _op_type in _UNARY:
    converter(_op_type, since=1)(_unary(_op_type))


for _op_type in ("Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh"):
    _UNARY[_op_type] = _op_type.lower()
    converter(_op_type, since=7)(_unary(_op_type))


@converter("Reciprocal", since=1)
def _reciprocal(node: Node):
    x = node.input(0)
    return node.emit(R.divide(scalar(1, x), x))


@converter("IsNaN", since=9)
def _isnan(node: Node):
    x = node.input(0)
    return node.emit(R.not_equal(x, x))


@converter("IsInf", since=10)
def _isinf(node: Node):
    x = node.input(0)
    pos, neg = node.attr("detect_positive", 1), node.attr("detect_negative", 1)
    tests = []
    if pos:
        tests.append(R.equal(x, scalar(np.inf, x)))
    if neg:
        tests.append(R.equal(x, scalar(-np.inf, x)))
    if not tests:  # detects nothing: all false (x < x never holds)
        return node.emit(R.less(x, x))
    return node.emit(reduce(R.logical_or, tests))


@converter("LeakyRelu", since=1)
def _leaky_relu(node: Node):
    x = node.input(0)
    alpha = node.attr("alpha", 0.01)
    zero = scalar(0, x)
    neg = R.multiply(R.minimum(x, zero), scalar(alpha, x))
    return node.emit(R.add(R.maximum(x, zero), neg))


@converter("PRelu", since=1)
def _prelu(node: Node):
    x, slope = node.input(0), node.input(1)
    return node.emit(R.where(R.less(x, scalar(0, x)), R.multiply(x, slope), x))


@converter("Elu", since=1)
def _elu(node: Node):
    x = node.input(0)
    alpha = node.attr("alpha", 1.0)
    neg = R.multiply(scalar(alpha, x), R.subtract(R.exp(x), scalar(1, x)))
    return node.emit(R.where(R.greater(x, scalar(0, x)), x, neg))


@converter("Selu", since=1)
def _selu(node: Node):
    x = node.input(0)
    alpha = node.attr("alpha", 1.67326319217681884765625)
    gamma = node.attr("gamma", 1.05070102214813232421875)
    neg = R.subtract(R.multiply(scalar(alpha, x), R.exp(x)), scalar(alpha, x))
    return node.emit(R.multiply(scalar(gamma, x), R.where(R.greater(x, scalar(0, x)), x, neg)))


@converter("Celu", since=12)
def _celu(node: Node):
    x = node.input(0)
    alpha = node.attr("alpha", 1.0)
    zero = scalar(0, x)
    scaled = R.divide(x, scalar(alpha, x))
    if dtype_of(x) in NARROW_FLOATS:  # exp(x) - 1 rounded twice loses digits near 0
        wide = R.astype(scaled, "float32")
        expm1 = R.astype(R.subtract(R.exp(wide), const(1.0, "float32")), dtype_of(x))
    else:
        expm1 = R.subtract(R.exp(scaled), scalar(1, x))
    return node.emit(
        R.add(R.maximum(x, zero), R.minimum(zero, R.multiply(scalar(alpha, x), expm1)))
    )


def _hard_sigmoid(x, alpha, beta):
    lin = R.add(R.multiply(x, scalar(alpha, x)), scalar(beta, x))
    return R.minimum(R.maximum(lin, scalar(0, x)), scalar(1, x))


@converter("HardSigmoid", since=1)
def _hardsigmoid(node: Node):
    x = node.input(0)
    return node.emit(_hard_sigmoid(x, node.attr("alpha", 0.2), node.attr("beta", 0.5)))


@converter("HardSwish", since=14)
def _hardswish(node: Node):
    x = node.input(0)
    return node.emit(R.multiply(x, _hard_sigmoid(x, 1.0 / 6, 0.5)))


def _softplus(x):
    return R.log(R.add(R.exp(x), scalar(1, x)))


@converter("Softplus", since=1)
def _softplus_op(node: Node):
    return node.emit(_softplus(node.input(0)))


@converter("Softsign", since=1)
def _softsign(node: Node):
    x = node.input(0)
    return node.emit(R.divide(x, R.add(R.abs(x), scalar(1, x))))


@converter("Mish", since=18)
def _mish(node: Node):
    x = node.input(0)
    return node.emit(R.multiply(x, R.tanh(_softplus(x))))


@converter("ThresholdedRelu", since=10)
def _thresholded_relu(node: Node):
    x = node.input(0)
    alpha = node.attr("alpha", 1.0)
    return node.emit(R.where(R.greater(x, scalar(alpha, x)), x, scalar(0, x)))


@converter("Shrink", since=9)
def _shrink(node: Node):
    x = node.input(0)
    bias, lambd = node.attr("bias", 0.0), node.attr("lambd", 0.5)
    low = R.where(R.less(x, scalar(-lambd, x)), R.add(x, scalar(bias, x)), scalar(0, x))
    return node.emit(R.where(R.greater(x, scalar(lambd, x)), R.subtract(x, scalar(bias, x)), low))


@converter("Gelu", since=20)
def _gelu(node: Node):
    x = node.input(0)
    approximate = node.attr("approximate", "none")
    half = R.multiply(scalar(0.5, x), x)
    if approximate == "tanh":
        cube = R.multiply(R.multiply(x, x), x)
        inner = R.add(x, R.multiply(scalar(0.044715, x), cube))
        t = R.tanh(R.multiply(scalar(math.sqrt(2 / math.pi), x), inner))
        return node.emit(R.multiply(half, R.add(scalar(1, x), t)))
    if approximate != "none":
        raise node.unsupported(f"approximate={approximate!r}")
    e = R.erf(R.multiply(x, scalar(1 / math.sqrt(2), x)))
    return node.emit(R.multiply(half, R.add(scalar(1, x), e)))


@converter("Swish", since=24)
def _swish(node: Node):
    x = node.input(0)
    alpha = node.attr("alpha", 1.0)
    return node.emit(R.multiply(x, R.sigmoid(R.multiply(x, scalar(alpha, x)))))


@converter("SwiGLU", since=28)
def _swiglu(node: Node):
    """Swish_alpha(A) * B for A, B of one shape; float16 computed in float32, as the
    reference does, then rounded once."""
    a, b = node.input(0), node.input(1)
    if len(node.inputs) != 2:
        raise ValueError(f"from_onnx: {node.where()} takes 2 inputs, got {len(node.inputs)}")
    if node.shape(a) != node.shape(b):
        raise ValueError(
            f"from_onnx: {node.where()}: A {node.shape(a)} and B "
            f"{node.shape(b)} must have one shape"
        )
    dtype = dtype_of(a)
    alpha = node.attr("alpha", 1.0)
    if dtype == "float16":
        a, b = node.emit(R.astype(a, "float32")), node.emit(R.astype(b, "float32"))
    gate = R.multiply(a, R.sigmoid(R.multiply(a, scalar(alpha, a))))
    out = node.emit(R.multiply(gate, b))
    return node.emit(R.astype(out, dtype)) if dtype == "float16" else out


@converter("Where", since=9)
def _where(node: Node):
    folded = fold(node)
    if folded is not None:
        return folded
    return node.emit(R.where(node.input(0), node.input(1), node.input(2)))


@converter("Clip", since=1)
def _clip_attrs(node: Node):
    x = node.input(0)
    lo = node.attr("min", -np.inf)
    hi = node.attr("max", np.inf)
    return node.emit(R.minimum(R.maximum(x, scalar(lo, x)), scalar(hi, x)))


@converter("Clip", since=11)
def _clip(node: Node):
    x = node.input(0)
    out = x
    lo, hi = node.input(1, optional=True), node.input(2, optional=True)
    if lo is not None:
        out = R.maximum(out, lo)
    if hi is not None:
        out = R.minimum(out, hi)
    return node.emit(out) if out is not x else x


# The float8 formats and their largest finite value: what a saturating cast clamps to.
FLOAT8_MAX = {
    "float8_e4m3fn": 448.0,
    "float8_e4m3fnuz": 240.0,
    "float8_e5m2": 57344.0,
    "float8_e5m2fnuz": 57344.0,
}
# float types narrower than 16 bits, whose values float32 holds exactly
_MINIFLOATS = ("float8", "float6", "float4")


def saturate_float8(node: Node, x, dtype: str):
    """x clamped into dtype's finite range, NaN kept: a comparison with NaN is false, so a
    NaN passes both selects unchanged (as np.clip keeps it)."""
    top = FLOAT8_MAX[dtype]
    out = node.emit(R.where(R.greater(x, scalar(top, x)), scalar(top, x), x))
    return node.emit(R.where(R.less(out, scalar(-top, x)), scalar(-top, x), out))


def _cast(node: Node, x, dtype: str):
    saturate = node.attr("saturate", 1) if node.opset >= 19 else 1
    if dtype == "object" or dtype_of(x) == "object" or "str" in dtype:
        raise node.unsupported("Cast to or from string")
    for t in (dtype, dtype_of(x)):
        if t.startswith("complex"):
            raise node.unsupported(f"the element type {t}")
        check_dtype(t, node.where())
    round_mode = node.attr("round_mode", "up")  # only a cast to float8_e8m0fnu reads it
    if dtype_of(x) == dtype:
        return x
    if dtype == "float8_e8m0fnu":  # any source is read as float32 first, as the reference does
        return cast_to_e8m0(node, x, bool(saturate), round_mode)
    value = const_value(x)
    if value is not None and _numpy_casts_alike(value.dtype, dtype):
        with np.errstate(over="ignore"):  # out of a float's range is +/- inf, as at run time
            return const(value.astype(ml_dtype_of(dtype, "Cast") if dtype == "bfloat16" else dtype))
    source_is_float = dtype_of(x).startswith(("float", "bfloat"))
    clamps = (saturate and dtype in FLOAT8_MAX) or (dtype in NARROW_INT_RANGE and source_is_float)
    if clamps and (not source_is_float or dtype_of(x).startswith(_MINIFLOATS)):
        # The bounds are compared in float32: a float8/float4 source cannot hold them (in
        # float8_e5m2 240 rounds to 256, -9 to -8; float4's largest value is 6), and an
        # integer past the float8 range must saturate too (uint8's 255 is past
        # float8_e4m3fnuz's 240). float32 holds every such value, and the ONNX reference
        # takes integers through it.
        x = node.emit(R.astype(x, "float32"))
    if saturate and dtype in FLOAT8_MAX:
        x = saturate_float8(node, x, dtype)
    if dtype in NARROW_INT_RANGE and source_is_float:
        x = zero_out_of_range(node, x, dtype)
    return node.emit(R.astype(x, dtype))


def _numpy_casts_alike(source: np.dtype, dtype: str) -> bool:
    """Whether NumPy's astype from source to dtype is what the compiled cast does, so a
    constant can be cast at conversion time: integers and bools among themselves (wrapping),
    and any of them or a float (bfloat16 included) to float16/32/64 or bfloat16 (round to
    nearest even, +/- inf out of range)."""
    wide_floats = ("float16", "float32", "float64", "bfloat16")
    if source.name == "bfloat16":  # ml_dtypes' types read as kind 'V'
        return dtype in wide_floats
    if source.kind not in "iubf":
        return False
    if dtype in wide_floats:
        return True
    # the sub-byte types are ml_dtypes' (kind "V"; unknown to NumPy without it): never folded
    narrow = dtype in NARROW_INT_RANGE
    return source.kind in "iub" and dtype.startswith(("int", "uint", "bool")) and not narrow


# Integer types narrower than a byte and the range of their values.
NARROW_INT_RANGE = {"int4": (-8, 7), "uint4": (0, 15), "int2": (-2, 1), "uint2": (0, 3)}


def zero_out_of_range(node: Node, x, dtype: str):
    """x with every value whose truncation falls outside dtype's range (and NaN) set to 0.
    ONNX leaves a float cast to an integer type out of range undefined; its reference
    implementation (ml_dtypes) gives 0 for the sub-byte ones, where a plain cast would wrap."""
    lo, hi = NARROW_INT_RANGE[dtype]
    inside = R.logical_and(R.greater(x, scalar(lo - 1, x)), R.less(x, scalar(hi + 1, x)))
    return node.emit(R.where(inside, x, scalar(0, x)))


def _to_dtype(node: Node) -> str:
    """The dtype named by the node's 'to' attribute (Cast, BitCast), or a ValueError."""
    import onnx

    to = node.attr("to")
    if to not in onnx.TensorProto.DataType.values() or to == onnx.TensorProto.UNDEFINED:
        raise ValueError(
            f"from_onnx: {node.where()}: attribute 'to' must be an onnx.TensorProto.DataType "
            f"value (FLOAT = 1, INT64 = 7, ...), got {to!r}"
        )
    return np_dtype_name(to)


@converter("Cast", since=1)
def _cast_op(node: Node):
    return _cast(node, node.input(0), _to_dtype(node))


@converter("BitCast", since=26)
def _bit_cast(node: Node):
    """x's bits read as the type 'to' of the same width (bool counts as its byte: 0 or 1)."""
    from tvm import topi
    from tvm.ir.dtype import DataType

    x = node.input(0)
    src, dst = dtype_of(x), _to_dtype(node)
    if "object" in (src, dst) or "str" in dst:
        raise node.unsupported("BitCast to or from string")
    check_dtype(dst, node.where())

    def width(dtype):
        return 8 if dtype == "bool" else DataType(dtype).bits

    if width(src) != width(dst):
        raise ValueError(
            f"from_onnx: {node.where()}: attribute 'to' must be a type of the input's "
            f"{width(src)} bits ({src}), got {dst} ({width(dst)} bits)"
        )
    if src == dst:
        return x
    if "bool" in (src, dst):  # a bool's byte holds 0 or 1: the same bits as that integer
        return node.emit(R.astype(x, dst))
    return node.emit_te(topi.reinterpret, x, dst)


@converter("CastLike", since=15)
def _cast_like(node: Node):
    return _cast(node, node.input(0), dtype_of(node.input(1)))
