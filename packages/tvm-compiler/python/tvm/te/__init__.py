"""tvm.te: describe tensor computations by index functions, then make PrimFuncs of them."""

import tvm.ir  # noqa: F401  (checks the runtime version first)

# The TIR expression helpers te users write inside fcompute (te.exp, te.if_then_else, ...).
from tvm.tir.expr import const  # noqa: E402
from tvm.tir.op import (  # noqa: E402
    abs,
    acos,
    acosh,
    all,
    any,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    ceil,
    ceildiv,
    copysign,
    cos,
    cosh,
    erf,
    exp,
    exp2,
    expm1,
    floor,
    floordiv,
    floormod,
    fmod,
    hypot,
    if_then_else,
    indexdiv,
    indexmod,
    isfinite,
    isinf,
    isnan,
    log,
    log1p,
    log2,
    log10,
    max_value,
    min_value,
    nextafter,
    power,
    round,
    rsqrt,
    sigmoid,
    sin,
    sinh,
    sqrt,
    tan,
    tanh,
    trunc,
    truncdiv,
    truncmod,
)

from . import tensor as _tensor
from .create_prim_func import _track, create_prim_func
from .extern import ExternOp
from .extern import extern as _extern
from .reduction import CommReducer, Reduce, comm_reducer, max, min, sum
from .tensor import ComputeOp, PlaceholderOp, Tensor, reduce_axis, size_var, var


def placeholder(shape, dtype="float32", name: str = "placeholder") -> Tensor:
    """An input tensor of the given shape and dtype."""
    return _track(_tensor.placeholder(shape, dtype, name))


def compute(shape, fcompute, name: str = "compute", tag: str = "", attrs=None):
    """A tensor whose element at index (i, j, ...) is fcompute(i, j, ...); a list of tensors
    when fcompute returns a tuple (a tuple reduction such as argmax, or several values)."""
    out = _tensor.compute(shape, fcompute, name, tag, attrs)
    for t in out if isinstance(out, list) else [out]:
        _track(t)
    return out


def extern(shape, inputs, fcompute, name="extern", dtype=None, tag="", attrs=None):
    """Tensors computed by the statement fcompute(ins, outs) returns (see te.extern.extern)."""
    out = _extern(shape, inputs, fcompute, name, dtype, tag, attrs)
    for t in out if isinstance(out, list) else [out]:
        _track(t)
    return out


__all__ = [
    "abs",
    "acos",
    "acosh",
    "all",
    "any",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "ceil",
    "ceildiv",
    "comm_reducer",
    "CommReducer",
    "compute",
    "ComputeOp",
    "const",
    "copysign",
    "cos",
    "cosh",
    "create_prim_func",
    "erf",
    "exp",
    "exp2",
    "expm1",
    "extern",
    "ExternOp",
    "floor",
    "floordiv",
    "floormod",
    "fmod",
    "hypot",
    "if_then_else",
    "indexdiv",
    "indexmod",
    "isfinite",
    "isinf",
    "isnan",
    "log",
    "log10",
    "log1p",
    "log2",
    "max",
    "max_value",
    "min",
    "min_value",
    "nextafter",
    "placeholder",
    "PlaceholderOp",
    "power",
    "Reduce",
    "reduce_axis",
    "round",
    "rsqrt",
    "sigmoid",
    "sin",
    "sinh",
    "size_var",
    "sqrt",
    "sum",
    "tan",
    "tanh",
    "Tensor",
    "trunc",
    "truncdiv",
    "truncmod",
    "var",
]
