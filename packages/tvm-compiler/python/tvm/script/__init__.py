"""tvm.script: TVMScript, the Python syntax of TVM's IR (`from tvm.script import tir as T`)."""

from .parser import from_source, ir, parse, relax, tir

ir_module = ir.ir_module

__all__ = ["from_source", "ir", "ir_module", "parse", "relax", "tir"]
