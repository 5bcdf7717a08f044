"""The expression roots every IR shares: BaseExpr, PrimExpr (scalars, symbolic dimensions),
RelaxExpr (graph-level values) and Range."""

from __future__ import annotations

from .node import Node


class BaseExpr(Node):
    """Base of every expression of every IR."""

    _ignored_fields = ("span",)
    __hash__ = object.__hash__


class PrimExpr(BaseExpr):
    """A scalar expression with a dtype. TIR's expressions derive from it (with Python
    operators that build new expressions); so do the symbolic dimensions of graph-level
    shapes."""


class RelaxExpr(BaseExpr):
    """A graph-level expression. Its struct info is known only once the expression has been
    normalised, so it is a late field, filled once through Node._fill_late_field."""

    _late_fields = ("struct_info_",)

    @property
    def struct_info(self):
        info = self.__dict__.get("struct_info_")
        if info is None:
            raise ValueError(
                f"{type(self).__name__}.struct_info: not known yet (normalise the expression first)"
            )
        return info

    @property
    def ty(self):
        """The 0.26+ name of struct_info (upstream renamed StructInfo to Type)."""
        return self.struct_info


class Range(Node):
    """The half-open interval [min, min + extent)."""

    _fields = ("min", "extent")

    def __init__(self, begin, end=None, span=None):
        from tvm.tir.expr import Sub, _binary, convert  # TIR builds the bounds' expressions

        if end is None:
            begin, end = 0, begin
        begin_expr = convert(begin)
        extent = (
            _binary(Sub, end, begin_expr)
            if not isinstance(begin, int) or begin != 0
            else convert(end)
        )
        self._set(min=begin_expr, extent=extent, span=span)

    @staticmethod
    def from_min_extent(min_value, extent) -> Range:
        from tvm.tir.expr import _operand, convert

        node = object.__new__(Range)
        min_value = convert(min_value)
        node._set(min=min_value, extent=_operand(extent, min_value), span=None)
        return node
