"""tvm.script.tir (`from tvm.script import tir as T`): TVMScript's TIR dialect."""

from tvm.script.ir_builder.tir.ir import *  # noqa: F403
from tvm.script.ir_builder.tir.ir import (  # noqa: A004, F401
    __getattr__,  # noqa: F401
    max,
    min,
    pow,
)

from .entry import macro, prim_func  # noqa: F401
