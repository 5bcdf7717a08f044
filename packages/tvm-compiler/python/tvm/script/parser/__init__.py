"""tvm.script.parser: TVMScript text and decorated Python as IR."""

import sys as _sys

from . import ir, relax, tir
from .core.entry import parse

from_source = parse

# 0.26+ calls the TIR dialect tirx (`from tvm.script.parser import tirx as T`): the same module.
tirx = tir
_sys.modules.setdefault(f"{__name__}.tirx", tir)

__all__ = ["from_source", "ir", "parse", "relax", "tir", "tirx"]
