"""te tensors laid out from ranges and copies: arange (more follow)."""

from __future__ import annotations

import math

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as tir_op


def _is_float_dtype(dtype) -> bool:
    return str(dtype).startswith(("float", "bfloat"))


def _number(value):
    """A Python number for value when it is a constant (int, float, IntImm, FloatImm)."""
    if isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, (E.IntImm, E.FloatImm)):
        return value.value
    return None


def arange(start, stop=None, step=1, dtype="float32"):
    """[start, stop) in steps of step as a 1-D tensor of dtype (NumPy's arange; one argument
    is the stop). A float bound with an integer dtype counts in float, then converts."""
    if stop is None:
        start, stop = 0, start
    for name, value in (("start", start), ("stop", stop), ("step", step)):
        if not isinstance(value, (bool, int, float, E.PrimExpr)):
            raise TypeError(
                f"topi.arange: argument {name!r} must be a number or a PrimExpr, got "
                f"{type(value).__name__}"
            )
    numbers = [_number(v) for v in (start, stop, step)]
    if numbers[2] == 0:
        raise ValueError("topi.arange: argument 'step' must not be zero")
    work = str(dtype)
    if not _is_float_dtype(work):
        floats = [
            ("float64" if isinstance(v, float) else str(v.dtype))
            for v in (start, stop, step)
            if isinstance(v, float) or (isinstance(v, E.PrimExpr) and _is_float_dtype(v.dtype))
        ]
        work = floats[0] if floats else work

    def as_work(value):
        if isinstance(value, (bool, int, float)):
            return E.const(float(value) if _is_float_dtype(work) else int(value), work)
        return value if str(value.dtype) == work else value.astype(work)

    if None not in numbers:
        # int64, as the Relax shapes this legalises (and upstream's float case) are.
        length = E.const(max(0, math.ceil((numbers[1] - numbers[0]) / numbers[2])), "int64")
    else:
        span = as_work(stop) - as_work(start)
        if _is_float_dtype(work):
            length = tir_op.ceil(span / as_work(step)).astype("int64")
        else:
            length = tir_op.ceildiv(span, as_work(step)).astype("int64")
    first, stride = as_work(start), as_work(step)

    def body(i):
        value = first + stride * (i if str(i.dtype) == work else i.astype(work))
        return value if work == str(dtype) else value.astype(dtype)

    return te.compute([length], body, name="T_arange")
