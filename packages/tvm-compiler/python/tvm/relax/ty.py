"""tvm.relax.ty: the 0.26+ module holding Relax's base Type (here the same class as StructInfo)."""

from .struct_info import Type

__all__ = ["Type"]
