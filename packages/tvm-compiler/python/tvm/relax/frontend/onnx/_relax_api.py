"""The Relax names whose spelling differs between releases (StructInfo vs Type), in one place."""

import tvm
from tvm import relax

# tvm.tir in this stack; upstream 0.26+ spells it tvm.tirx (this stack has both).
tir = getattr(tvm, "tir", None) or tvm.tirx

# relax.Constant here; tvm.ir.Constant upstream 0.27
Constant = getattr(relax, "Constant", None) or tvm.ir.expr.Constant
TensorStructInfo = getattr(relax, "TensorStructInfo", None) or relax.TensorType
ShapeStructInfo = getattr(relax, "ShapeStructInfo", None) or relax.ShapeType
TupleStructInfo = getattr(relax, "TupleStructInfo", None) or relax.TupleType


def struct_info(expr):
    """The struct info of an expression (its `.ty` where StructInfo is named Type)."""
    sinfo = getattr(expr, "struct_info", None)
    return sinfo if sinfo is not None else expr.ty


def is_tensor_info(sinfo) -> bool:
    return isinstance(sinfo, TensorStructInfo)


def is_tuple_info(sinfo) -> bool:
    return isinstance(sinfo, TupleStructInfo)


def constant_numpy(expr):
    """A Constant's value as NumPy (its `.data` here, `.value` upstream 0.27)."""
    data = getattr(expr, "data", None)
    return (data if data is not None else expr.value).numpy()
