"""tvm.topi: te operators (broadcast elementwise, reductions, transforms, nn) as upstream."""

import tvm.ir  # noqa: F401  (checks the runtime version first)

from . import nn  # noqa: E402
from .broadcast import add, divide, maximum, minimum, multiply, subtract  # noqa: E402
from .math import exp, reinterpret, sigmoid, tanh  # noqa: E402
from .reduction import argmax, max, min, sum  # noqa: E402
from .transform import (  # noqa: E402
    concatenate,
    expand_dims,
    reshape,
    split,
    squeeze,
    strided_slice,
    take,
    transpose,
)

__all__ = [
    "add",
    "argmax",
    "concatenate",
    "divide",
    "exp",
    "expand_dims",
    "max",
    "maximum",
    "min",
    "minimum",
    "multiply",
    "nn",
    "reshape",
    "sigmoid",
    "split",
    "squeeze",
    "strided_slice",
    "subtract",
    "sum",
    "take",
    "tanh",
    "transpose",
]
