"""tvm.relax.backend: the lowering of Relax to what the VM runs (VMShapeLower) and the fusion
patterns backends register (pattern_registry)."""

from . import pattern_registry
from .pattern_registry import get_pattern, get_patterns_with_prefix
from .vm_shape_lower import VMShapeLower

__all__ = ["VMShapeLower", "get_pattern", "get_patterns_with_prefix", "pattern_registry"]
