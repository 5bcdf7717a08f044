"""tvm.script.parser: TVMScript text and decorated Python as IR."""

from . import ir, tir
from .core.entry import parse

from_source = parse

__all__ = ["from_source", "ir", "parse", "tir"]
