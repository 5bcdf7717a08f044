"""tvm.relax.backend: the lowering of Relax to what the VM runs (VMShapeLower)."""

from .vm_shape_lower import VMShapeLower

__all__ = ["VMShapeLower"]
