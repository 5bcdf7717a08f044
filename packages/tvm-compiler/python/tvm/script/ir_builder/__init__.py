"""tvm.script.ir_builder: builds IR through frames, as the TVMScript parser drives it."""

from .base import IRBuilder, IRBuilderFrame

__all__ = ["IRBuilder", "IRBuilderFrame"]
