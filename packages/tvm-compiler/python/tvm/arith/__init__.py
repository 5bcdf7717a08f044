"""tvm.arith: integer analysis of TIR expressions (bounds, canonical forms, simplification)."""

from .analyzer import Analyzer
from .bound import ConstIntBound

__all__ = ["Analyzer", "ConstIntBound"]
