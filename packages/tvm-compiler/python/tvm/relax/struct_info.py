"""Relax struct info: what is statically known about a value (object, prim, shape, tensor,
tuple, function), with symbolic dimensions as int64 TIR variables."""

from __future__ import annotations

from tvm.ir.node import Node


def _dtype_str(dtype, who: str) -> str:
    from tvm.ir.dtype import DataType

    if dtype is None or str(dtype) in ("", "void"):
        return "void"
    if isinstance(dtype, (str, DataType)):
        return str(DataType(dtype))
    raise TypeError(f"{who}: dtype must be a str, got {type(dtype).__name__}")


def _prim_value(value, who: str):
    """An int becomes an int64 IntImm; a PrimExpr stays; anything else is an error."""
    from tvm.ir.expr import PrimExpr
    from tvm.tir.expr import const

    if isinstance(value, bool):
        return const(value, "bool")
    if isinstance(value, int):
        return const(value, "int64")
    if isinstance(value, float):
        return const(value, "float64")
    if isinstance(value, PrimExpr):
        return value
    raise TypeError(f"{who}: expected an int or a PrimExpr, got {type(value).__name__}")


class StructInfo(Node):
    """Base of all struct info; immutable and compared structurally."""

    _key_namespace = "relax"
    __hash__ = object.__hash__

    def same_as(self, other) -> bool:
        return self is other

    def is_base_of(self, derived: StructInfo) -> bool:
        """Whether every value described by `derived` is also described by self."""
        from .analysis.struct_info_analysis import struct_info_base_check

        return struct_info_base_check(self, derived)


class ObjectStructInfo(StructInfo):
    """Any value: nothing is known about it."""

    def __init__(self, span=None):
        self._set(span=span)


class PrimStructInfo(StructInfo):
    """A scalar of a known dtype, optionally with a known value (a PrimExpr)."""

    _fields = ("value", "dtype")

    def __init__(self, dtype=None, value=None, span=None):
        if value is not None:
            value = _prim_value(value, "PrimStructInfo")
            if dtype is not None and _dtype_str(dtype, "PrimStructInfo") != str(value.dtype):
                raise ValueError(
                    f"PrimStructInfo: dtype {dtype} does not match the value's dtype {value.dtype}"
                )
            dtype = str(value.dtype)
        elif dtype is None:
            raise TypeError("PrimStructInfo: give a dtype or a value")
        self._set(value=value, dtype=_dtype_str(dtype, "PrimStructInfo"), span=span)


class ShapeStructInfo(StructInfo):
    """A shape: its values (PrimExprs) when known, else only its ndim (-1: unknown)."""

    _fields = ("values", "ndim")

    def __init__(self, values=None, ndim: int = -1, span=None):
        if values is not None:
            if not isinstance(values, (list, tuple)):
                raise TypeError(
                    f"ShapeStructInfo: values must be a list of dimensions, "
                    f"got {type(values).__name__}"
                )
            values = tuple(_prim_value(v, "ShapeStructInfo") for v in values)
            if ndim != -1 and ndim != len(values):
                raise ValueError(
                    f"ShapeStructInfo: ndim {ndim} does not match the {len(values)} values"
                )
            ndim = len(values)
        elif not isinstance(ndim, int) or ndim < -1:
            raise ValueError(f"ShapeStructInfo: ndim must be an int >= -1, got {ndim!r}")
        self._set(values=values, ndim=ndim, span=span)


class TensorStructInfo(StructInfo):
    """A tensor: dtype ("void" when unknown), ndim (-1 when unknown), shape (an Expr with
    shape struct info, usually a ShapeExpr) when known, and its virtual device."""

    _fields = ("shape", "dtype", "vdevice", "ndim")

    def __init__(self, shape=None, dtype="float32", vdevice=None, ndim: int = -1, span=None):
        from .expr import Expr, ShapeExpr

        if shape is not None:
            if isinstance(shape, (list, tuple)):
                shape = ShapeExpr(shape)
            if not isinstance(shape, Expr):
                raise TypeError(
                    f"TensorStructInfo: shape must be a list of dimensions or a shape Expr, "
                    f"got {type(shape).__name__}"
                )
            shape_info = shape.__dict__.get("struct_info_")
            if not isinstance(shape_info, ShapeStructInfo):
                raise TypeError(
                    f"TensorStructInfo: shape must have ShapeStructInfo, got {shape_info}"
                )
            if ndim != -1 and shape_info.ndim != -1 and ndim != shape_info.ndim:
                raise ValueError(
                    f"TensorStructInfo: ndim {ndim} does not match the shape's ndim "
                    f"{shape_info.ndim}"
                )
            ndim = shape_info.ndim
        elif not isinstance(ndim, int) or ndim < -1:
            raise ValueError(f"TensorStructInfo: ndim must be an int >= -1, got {ndim!r}")
        self._set(
            shape=shape,
            dtype=_dtype_str(dtype, "TensorStructInfo"),
            vdevice=vdevice,
            ndim=ndim,
            span=span,
        )

    @property
    def is_unknown_ndim(self) -> bool:
        return self.ndim == -1

    @property
    def is_unknown_dtype(self) -> bool:
        return self.dtype == "void"


class TupleStructInfo(StructInfo):
    """A tuple whose fields have the given struct info."""

    _fields = ("fields",)

    def __init__(self, fields, span=None):
        fields = tuple(fields)
        for i, f in enumerate(fields):
            if not isinstance(f, StructInfo):
                raise TypeError(
                    f"TupleStructInfo: field {i} must be a StructInfo, got {type(f).__name__}"
                )
        self._set(fields=fields, span=span)


class FuncStructInfo(StructInfo):
    """A function: its parameters' and result's struct info (params None: opaque, the result
    then comes from derive_func when given) and whether calling it is pure."""

    _fields = ("params", "ret", "derive_func", "purity")
    _ignored_fields = ("span", "derive_func")

    def __init__(self, params, ret, purity: bool = True, span=None):
        params = tuple(params)
        for i, p in enumerate(params):
            if not isinstance(p, StructInfo):
                raise TypeError(
                    f"FuncStructInfo: param {i} must be a StructInfo, got {type(p).__name__}"
                )
        if not isinstance(ret, StructInfo):
            raise TypeError(f"FuncStructInfo: ret must be a StructInfo, got {type(ret).__name__}")
        self._set(params=params, ret=ret, derive_func=None, purity=bool(purity), span=span)

    @staticmethod
    def opaque_func(
        *, ret: StructInfo | None = None, derive_func=None, purity: bool = False, span=None
    ) -> FuncStructInfo:
        """A function whose parameters are not known; calls return ret (or derive_func's)."""
        if ret is not None and derive_func is not None:
            raise ValueError("FuncStructInfo.opaque_func: give ret or derive_func, not both")
        node = object.__new__(FuncStructInfo)
        node._set(
            params=None,
            ret=ret if ret is not None else ObjectStructInfo(),
            derive_func=derive_func,
            purity=bool(purity),
            span=span,
        )
        return node

    def is_opaque(self) -> bool:
        return self.params is None


# The 0.26+ spelling (StructInfo was renamed Type there); the meaning is the same.
Type = StructInfo
AnyType = ObjectStructInfo
ObjectType = ObjectStructInfo
PrimType = PrimStructInfo
ShapeType = ShapeStructInfo
TensorType = TensorStructInfo
TupleType = TupleStructInfo
FuncType = FuncStructInfo
