"""ONNX Cast to float8_e8m0fnu (a power of two): its round_mode and saturate, in float32."""

from __future__ import annotations

import numpy as np
from tvm.relax import op as R

from .common import Node, const, dtype_of

ROUND_MODES = ("up", "down", "nearest")
_SMALLEST_NORMAL = 2.0**-126  # below it float32's exponent bits are 0: code 0, 2^-127
_LARGEST = 2.0**127  # code 254, the largest finite value


def cast_to_e8m0(node: Node, x, saturate: bool, round_mode: str):
    """x cast to float8_e8m0fnu as onnx.numpy_helper.to_float8e8m0 does: on float32's exponent
    field, so the sign is ignored; NaN and inf become NaN; a value with a fraction rounds to
    the power of two above ('up'), below ('down') or the nearer one ('nearest', a tie going
    up); past 2^127 it saturates to 2^127 or, without saturate, is NaN. The power of two is
    found in float32 and the final cast of it is exact."""
    if round_mode not in ROUND_MODES:
        raise ValueError(
            f"from_onnx: {node.where()}: attribute 'round_mode' must be one of "
            f"{', '.join(repr(m) for m in ROUND_MODES)}, got {round_mode!r}"
        )

    def c(value):
        return const(np.float32(value), "float32")

    x = x if dtype_of(x) == "float32" else node.emit(R.astype(x, "float32"))
    a = node.emit(R.abs(x))
    # 2^floor(log2 a): the float log may land one off next to a power of two, so correct it
    t = node.emit(R.power(c(2.0), R.floor(R.divide(R.log(a), c(np.log(2.0))))))
    t = node.emit(R.where(R.greater(t, a), R.multiply(t, c(0.5)), t))
    t = node.emit(R.where(R.less_equal(R.multiply(t, c(2.0)), a), R.multiply(t, c(2.0)), t))
    if round_mode == "up":
        above = R.not_equal(a, t)
        subnormal = R.where(R.greater(a, c(0.0)), c(_SMALLEST_NORMAL), c(2.0**-127))
    elif round_mode == "nearest":
        above = R.greater_equal(a, R.multiply(t, c(1.5)))
        subnormal = R.where(R.greater(a, c(2.0**-127)), c(_SMALLEST_NORMAL), c(2.0**-127))
    else:
        above = None
        subnormal = c(2.0**-127)
    if above is not None:
        if saturate:
            above = R.logical_and(above, R.less(t, c(_LARGEST)))
        t = node.emit(R.where(above, R.multiply(t, c(2.0)), t))  # 2 * 2^127 is inf: NaN
    out = R.where(R.less(a, c(_SMALLEST_NORMAL)), subnormal, t)
    finite = R.less(a, c(np.inf))  # false for inf and NaN
    out = node.emit(R.where(finite, out, c(np.nan)))
    return node.emit(R.astype(out, "float8_e8m0fnu"))
