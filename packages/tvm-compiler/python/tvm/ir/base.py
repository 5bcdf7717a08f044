"""tvm.ir.base: upstream's module path of the node basics (structural equality, spans, JSON)."""

from .node import Node
from .serialization import load_json, save_json
from .span import SourceName, Span
from .structural import (
    assert_structural_equal,
    get_first_structural_mismatch,
    structural_equal,
    structural_hash,
)

__all__ = [
    "Node",
    "SourceName",
    "Span",
    "assert_structural_equal",
    "get_first_structural_mismatch",
    "load_json",
    "save_json",
    "structural_equal",
    "structural_hash",
]
