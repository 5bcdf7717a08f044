"""Elementwise binary ops with NumPy broadcasting: arithmetic, comparisons, logical ops."""

from __future__ import annotations

from tvm.ir import structural_equal

from ..struct_info import PrimStructInfo, TensorStructInfo
from ._utils import arg_sinfo, broadcast_dims, op_name, tensor_sinfo
from .base import call_op, register

# Ops defined on one kind of dtype only: the prefixes they take and how the error names them.
_DTYPE_KIND = {
    "left_shift": (("int", "uint"), "an integer"),
    "right_shift": (("int", "uint"), "an integer"),
    "log_add_exp": (("float", "bfloat"), "a float"),
}


def _operand(call, index: int, arg_name: str):
    """A binary op's operand: a tensor, or a PrimValue (which broadcasts as shape (1,))."""
    sinfo = arg_sinfo(call, index, arg_name)
    if not isinstance(sinfo, (TensorStructInfo, PrimStructInfo)):
        raise TypeError(
            f"{op_name(call)}: argument {arg_name!r} must be a tensor or a prim value, got "
            f"struct info {type(sinfo).__name__}"
        )
    return sinfo


def _out_dtype(who, lhs, rhs, out_dtype):
    # Comparisons give bool whatever their operands hold; arithmetic needs one dtype, and an
    # operand of unknown dtype makes the result's unknown too.
    if out_dtype is not None:
        return out_dtype
    if "void" in (lhs.dtype, rhs.dtype):
        return "void"
    if lhs.dtype != rhs.dtype:
        raise TypeError(
            f"{who}: x1 has dtype {lhs.dtype} and x2 has dtype {rhs.dtype}; "
            "they must be equal (cast one with astype)"
        )
    return lhs.dtype


def _vdevice(who, lhs, rhs):
    lv, rv = getattr(lhs, "vdevice", None), getattr(rhs, "vdevice", None)
    if lv is not None and rv is not None and not structural_equal(lv, rv):
        raise ValueError(
            f"{who}: x1 is on VDevice {lv} and x2 on VDevice {rv}; tensor operands must be on "
            "the same VDevice"
        )
    return lv if lv is not None else rv


def _as_tensor(sinfo):
    if isinstance(sinfo, PrimStructInfo):
        return TensorStructInfo([1], sinfo.dtype)
    return sinfo


def _binary_infer(out_dtype):
    def infer(call, ctx):
        who = op_name(call)
        lhs, rhs = _operand(call, 0, "x1"), _operand(call, 1, "x2")
        dtype = _out_dtype(who, lhs, rhs, out_dtype)
        prefixes, kind = _DTYPE_KIND.get(who, ((), ""))
        if prefixes and lhs.dtype != "void" and not lhs.dtype.startswith(prefixes):
            raise TypeError(f"{who}: argument 'x1' must be {kind} tensor, got dtype {lhs.dtype}")
        if isinstance(lhs, PrimStructInfo) and isinstance(rhs, PrimStructInfo):
            return PrimStructInfo(dtype)
        vdevice = _vdevice(who, lhs, rhs)
        lhs, rhs = _as_tensor(lhs), _as_tensor(rhs)
        dims = broadcast_dims(who, lhs, rhs)
        if dims is None and lhs.shape is not None and lhs.shape is rhs.shape:
            # one shape variable on both sides: the result has that same shape
            return TensorStructInfo(lhs.shape, dtype, vdevice)
        ndim = -1 if -1 in (lhs.ndim, rhs.ndim) else max(lhs.ndim, rhs.ndim)
        return tensor_sinfo(dims, dtype, vdevice, ndim)

    return infer


def _make(name, out_dtype=None):
    register(name, _binary_infer(out_dtype))

    def constructor(x1, x2):
        return call_op(name, [x1, x2])

    constructor.__name__ = name
    constructor.__qualname__ = name
    constructor.__doc__ = f"Elementwise {name} of x1 and x2 with NumPy broadcasting."
    return constructor


add = _make("add")
subtract = _make("subtract")
multiply = _make("multiply")
divide = _make("divide")
floor_divide = _make("floor_divide")
power = _make("power")
maximum = _make("maximum")
minimum = _make("minimum")
mod = _make("mod")
floor_mod = _make("floor_mod")
bitwise_and = _make("bitwise_and")
bitwise_or = _make("bitwise_or")
bitwise_xor = _make("bitwise_xor")
left_shift = _make("left_shift")
right_shift = _make("right_shift")
atan2 = _make("atan2")
log_add_exp = _make("log_add_exp")
# Comparisons produce bool tensors.
equal = _make("equal", "bool")
not_equal = _make("not_equal", "bool")
less = _make("less", "bool")
less_equal = _make("less_equal", "bool")
greater = _make("greater", "bool")
greater_equal = _make("greater_equal", "bool")
logical_and = _make("logical_and")
logical_or = _make("logical_or")
logical_xor = _make("logical_xor")

__all__ = [
    "add",
    "atan2",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "divide",
    "equal",
    "floor_divide",
    "floor_mod",
    "greater",
    "greater_equal",
    "left_shift",
    "less",
    "less_equal",
    "log_add_exp",
    "logical_and",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "mod",
    "multiply",
    "not_equal",
    "power",
    "right_shift",
    "subtract",
]
