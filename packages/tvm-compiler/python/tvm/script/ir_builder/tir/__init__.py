"""tvm.script.ir_builder.tir: the T.* functions and the frames TIR is built in."""

from .frames import (  # noqa: F401
    AllocateFrame,
    AssertFrame,
    BlockFrame,
    DeclBufferFrame,
    ForFrame,
    LetFrame,
    PrimFuncFrame,
)
from .ir import *  # noqa: F403
from .ir import __getattr__  # noqa: F401
