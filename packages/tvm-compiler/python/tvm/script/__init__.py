"""tvm.script: TVMScript, the Python syntax of TVM's IR (`from tvm.script import tir as T`)."""

import sys as _sys

from .parser import from_source, ir, parse, relax, tir

ir_module = ir.ir_module

# The dialects are importable modules too (`import tvm.script.relax`), and 0.26+ calls the TIR
# dialect tirx (`from tvm.script import tirx as T`): the same module under both names.
tirx = tir
for _name, _module in (("ir", ir), ("relax", relax), ("tir", tir), ("tirx", tir)):
    _sys.modules.setdefault(f"{__name__}.{_name}", _module)

__all__ = ["from_source", "ir", "ir_module", "parse", "relax", "tir", "tirx"]
