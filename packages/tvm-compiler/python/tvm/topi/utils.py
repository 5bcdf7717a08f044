"""Helpers for reading te shapes as Python values (get_const_tuple and kin), as upstream."""

from __future__ import annotations

from tvm.arith import Analyzer
from tvm.tir import expr as E


class InvalidShapeError(ValueError):
    """Raised when a shape does not suit an operator (as upstream's topi.utils)."""


def _simplified(value):
    return Analyzer().simplify(value) if isinstance(value, E.PrimExpr) else value


def simplify(expr):
    """expr simplified when a PrimExpr, returned as is when an int."""
    return _simplified(expr)


def get_const_int(expr):
    """expr (an int or a constant PrimExpr) as a Python int."""
    value = _simplified(expr)
    if isinstance(value, int):
        return value
    if isinstance(value, E.IntImm):
        return value.value
    raise ValueError(f"get_const_int: expected a constant integer, got {expr!r}")


def get_const_float(expr):
    """expr (a number or a constant PrimExpr) as a Python float."""
    value = _simplified(expr)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (E.IntImm, E.FloatImm)):
        return float(value.value)
    raise ValueError(f"get_const_float: expected a constant number, got {expr!r}")


def equal_const_int(expr, value):
    """Whether expr is the constant integer value."""
    expr = _simplified(expr)
    if isinstance(expr, int):
        return expr == value
    return isinstance(expr, E.IntImm) and expr.value == value


def get_const_tuple(in_tuple):
    """The extents of in_tuple as a tuple: Python ints where constant, the expression kept
    where symbolic."""
    out = []
    for elem in in_tuple:
        value = _simplified(elem)
        if isinstance(value, E.IntImm):
            out.append(value.value)
        elif isinstance(value, int):
            out.append(value)
        elif isinstance(value, E.PrimExpr):
            out.append(value)
        else:
            raise ValueError(f"get_const_tuple: expected an int or a PrimExpr, got {elem!r}")
    return tuple(out)


def get_float_tuple(in_tuple):
    """The constant numbers of in_tuple as a tuple of Python floats."""
    return tuple(get_const_float(elem) for elem in in_tuple)


def prod(x):
    """The product of the entries of x (1 for none)."""
    total = 1
    for value in x:
        total = total * value
    return total


def ceil_div(a, b):
    """a / b rounded up, for positive ints."""
    return (a + b - 1) // b


def is_empty_shape(shape):
    """Whether shape has a constant extent of 0."""
    return any(equal_const_int(s, 0) for s in shape)


def is_dynamic_shape(shape):
    """Whether some extent of shape is not a constant."""
    return any(not isinstance(_simplified(s), (int, E.IntImm)) for s in shape)
