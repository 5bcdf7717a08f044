"""tvm.relax.type: the 0.26+ module name of Relax's struct info classes (StructInfo became Type)."""

from .struct_info import (
    AnyType,
    FuncType,
    ObjectType,
    PrimType,
    ShapeType,
    TensorType,
    TupleType,
    Type,
)

__all__ = [
    "AnyType",
    "FuncType",
    "ObjectType",
    "PrimType",
    "ShapeType",
    "TensorType",
    "TupleType",
    "Type",
]
