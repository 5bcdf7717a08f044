"""Constant integer bounds of TIR expressions by interval arithmetic over known variable ranges."""

from __future__ import annotations

import math
from typing import NamedTuple

from tvm.ir.functor import find_method
from tvm.tir.expr import Cast

INF = math.inf


class ConstIntBound(NamedTuple):
    """min_value <= value <= max_value; an end may be +-inf when unknown."""

    min_value: float
    max_value: float

    @property
    def is_const(self) -> bool:
        return self.min_value == self.max_value and math.isfinite(self.min_value)


def _dtype_bound(dtype) -> ConstIntBound:
    if dtype.is_bool:
        return ConstIntBound(0, 1)
    if dtype.is_int:
        return ConstIntBound(-(2 ** (dtype.bits - 1)), 2 ** (dtype.bits - 1) - 1)
    if dtype.is_uint:
        return ConstIntBound(0, 2**dtype.bits - 1)
    return ConstIntBound(-INF, INF)


def _mul(a: float, b: float) -> float:
    if a == 0 or b == 0:
        return 0
    return a * b


def _floordiv(a: float, b: int) -> float:
    if math.isinf(a):
        return a if b > 0 else -a
    return a // b


class BoundAnalyzer:
    """Bounds given var_bounds: Var -> ConstIntBound (by identity)."""

    def __init__(self, var_bounds: dict | None = None):
        self.var_bounds = var_bounds if var_bounds is not None else {}

    def bound(self, e) -> ConstIntBound:
        method = find_method(type(self), type(e), "_", "tir")
        if method is not None:
            result = method(self, e)
        else:
            result = _dtype_bound(e.dtype)
        limit = _dtype_bound(e.dtype)
        inside = limit.min_value <= result.min_value and result.max_value <= limit.max_value
        if not inside and (e.dtype.is_uint or isinstance(e, Cast)):
            # Unsigned arithmetic and integer casts wrap around: a value past either end
            # reappears anywhere in the dtype's range, so clamping would be wrong.
            return limit
        # Signed arithmetic is taken not to overflow (as upstream): clamp to the dtype.
        return ConstIntBound(
            max(result.min_value, limit.min_value), min(result.max_value, limit.max_value)
        )

    def _IntImm(self, e):
        return ConstIntBound(e.value, e.value)

    def _Var(self, e):
        known = self.var_bounds.get(e)
        return known if known is not None else _dtype_bound(e.dtype)

    def _SizeVar(self, e):
        known = self.var_bounds.get(e)
        return known if known is not None else ConstIntBound(0, INF)

    def _Add(self, e):
        a, b = self.bound(e.a), self.bound(e.b)
        return ConstIntBound(a.min_value + b.min_value, a.max_value + b.max_value)

    def _Sub(self, e):
        a, b = self.bound(e.a), self.bound(e.b)
        return ConstIntBound(a.min_value - b.max_value, a.max_value - b.min_value)

    def _Mul(self, e):
        a, b = self.bound(e.a), self.bound(e.b)
        corners = [_mul(x, y) for x in a for y in b]
        return ConstIntBound(min(corners), max(corners))

    def _FloorDiv(self, e):
        a, b = self.bound(e.a), self.bound(e.b)
        if b.is_const and b.min_value != 0:
            d = int(b.min_value)
            lo, hi = _floordiv(a.min_value, d), _floordiv(a.max_value, d)
            return ConstIntBound(min(lo, hi), max(lo, hi))
        if b.min_value > 0 and a.min_value >= 0:
            return ConstIntBound(0, a.max_value)
        return _dtype_bound(e.dtype)

    def _FloorMod(self, e):
        a, b = self.bound(e.a), self.bound(e.b)
        if b.min_value > 0:
            if a.min_value >= 0 and a.max_value < b.min_value:
                return a
            return ConstIntBound(0, b.max_value - 1)
        return _dtype_bound(e.dtype)

    def _Div(self, e):
        a, b = self.bound(e.a), self.bound(e.b)
        if e.dtype.is_integer and a.min_value >= 0 and b.min_value > 0:
            return self._FloorDiv(e)
        return _dtype_bound(e.dtype)

    def _Mod(self, e):
        a, b = self.bound(e.a), self.bound(e.b)
        if e.dtype.is_integer and a.min_value >= 0 and b.min_value > 0:
            return self._FloorMod(e)
        return _dtype_bound(e.dtype)

    def _Min(self, e):
        a, b = self.bound(e.a), self.bound(e.b)
        return ConstIntBound(min(a.min_value, b.min_value), min(a.max_value, b.max_value))

    def _Max(self, e):
        a, b = self.bound(e.a), self.bound(e.b)
        return ConstIntBound(max(a.min_value, b.min_value), max(a.max_value, b.max_value))

    def _Select(self, e):
        a, b = self.bound(e.true_value), self.bound(e.false_value)
        return ConstIntBound(min(a.min_value, b.min_value), max(a.max_value, b.max_value))

    def _Cast(self, e):
        if e.value.dtype.is_integer or e.value.dtype.is_bool:
            return self.bound(e.value)
        return _dtype_bound(e.dtype)

    def _Let(self, e):
        saved = self.var_bounds.get(e.var)
        self.var_bounds[e.var] = self.bound(e.value)
        try:
            return self.bound(e.body)
        finally:
            if saved is None:
                del self.var_bounds[e.var]
            else:
                self.var_bounds[e.var] = saved
