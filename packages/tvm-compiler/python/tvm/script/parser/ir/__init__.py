"""tvm.script.ir (`from tvm.script import ir as I`): modules and their attributes."""

from tvm.script.ir_builder.ir import module_attrs

from .entry import ir_module

__all__ = ["ir_module", "module_attrs"]
