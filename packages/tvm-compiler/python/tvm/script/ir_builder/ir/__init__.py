"""tvm.script.ir_builder.ir: the IRModule frame and I.* builder functions."""

from __future__ import annotations

from ..base import IRBuilder, IRBuilderFrame


class IRModuleFrame(IRBuilderFrame):
    def __init__(self):
        self.functions: dict = {}
        self.attrs: dict = {}

    def exit(self):
        from tvm.ir.module import IRModule

        IRBuilder.current().result = IRModule(self.functions, self.attrs)


def ir_module() -> IRModuleFrame:
    return IRModuleFrame()


def module_attrs(attrs: dict) -> None:
    """Attributes of the module being built (I.module_attrs({...}) in a class body)."""
    if not isinstance(attrs, dict):
        raise TypeError(f"I.module_attrs: expected a dict, got {type(attrs).__name__}")
    if not IRBuilder.is_in_scope():
        return  # Python running the class body first; @I.ir_module parses it afterwards
    frame = IRBuilder.current().find_frame(IRModuleFrame)
    if frame is None:
        raise ValueError("I.module_attrs must be inside an @I.ir_module class")
    frame.attrs.update(attrs)
