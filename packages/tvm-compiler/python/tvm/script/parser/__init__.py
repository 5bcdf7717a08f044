"""tvm.script.parser: TVMScript text and decorated Python as IR."""

from . import ir, relax, tir
from .core.entry import parse

from_source = parse

__all__ = ["from_source", "ir", "parse", "relax", "tir"]
