"""tvm.topi: te operators (broadcast elementwise, reductions, transforms, nn) as upstream."""

import tvm.ir  # noqa: F401  (checks the runtime version first)

from . import math as _math  # noqa: E402
from . import nn  # noqa: E402
from .broadcast import add, divide, maximum, minimum, multiply, subtract  # noqa: E402
from .einsum import einsum  # noqa: E402
from .math import *  # noqa: E402, F403
from .reduction import argmax, max, min, sum  # noqa: E402
from .scan import cumprod, cumsum  # noqa: E402
from .transform import (  # noqa: E402
    concatenate,
    expand_dims,
    gather_nd,
    reshape,
    split,
    squeeze,
    strided_slice,
    take,
    transpose,
)

__all__ = sorted(
    [
        "add",
        "argmax",
        "concatenate",
        "cumprod",
        "cumsum",
        "einsum",
        "gather_nd",
        "divide",
        "expand_dims",
        "max",
        "maximum",
        "min",
        "minimum",
        "multiply",
        "nn",
        "reshape",
        "split",
        "squeeze",
        "strided_slice",
        "subtract",
        "sum",
        "take",
        "transpose",
        *_math.__all__,
    ]
)
