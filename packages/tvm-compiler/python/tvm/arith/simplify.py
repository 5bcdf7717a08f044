"""The expression simplifier: constant folding, canonical linear forms, division by bounds."""

from __future__ import annotations

import math

from tvm.tir import expr as E
from tvm.tir.functor import StmtExprMutator

from .bound import BoundAnalyzer
from .linear import from_linear, to_linear

_FLOAT_FOLD = {
    E.Add: lambda x, y: x + y,
    E.Sub: lambda x, y: x - y,
    E.Mul: lambda x, y: x * y,
    E.Div: lambda x, y: x / y if y != 0 else None,
    E.Min: min,
    E.Max: max,
}
_CMP = {
    E.LT: lambda lo, hi: (hi < 0, lo >= 0),
    E.LE: lambda lo, hi: (hi <= 0, lo > 0),
    E.GT: lambda lo, hi: (lo > 0, hi <= 0),
    E.GE: lambda lo, hi: (lo >= 0, hi < 0),
    E.EQ: lambda lo, hi: (lo == hi == 0, lo > 0 or hi < 0),
    E.NE: lambda lo, hi: (lo > 0 or hi < 0, lo == hi == 0),
}


def _true():
    return E.IntImm("bool", 1)


def _false():
    return E.IntImm("bool", 0)


def _is_const(e, value=None) -> bool:
    return isinstance(e, (E.IntImm, E.FloatImm)) and (value is None or e.value == value)


class ExprSimplifier(StmtExprMutator):
    """Simplifies expressions bottom-up using the ranges in bounds.var_bounds."""

    def __init__(self, bounds: BoundAnalyzer):
        self.bounds = bounds

    def visit(self, node):
        node = super().visit(node)
        if isinstance(node, E.PrimExpr):
            return self._rewrite(node)
        return node

    def _rewrite(self, e):
        if isinstance(e, E.Var) or not isinstance(e, E.PrimExpr):
            return e
        dtype = e.dtype
        signed = str(dtype).startswith("int")  # unsigned sums wrap: no linear form for them
        if signed and dtype.lanes == 1 and isinstance(e, (E.Add, E.Sub, E.Mul)):
            return from_linear(to_linear(e))
        if isinstance(e, (E.FloorDiv, E.FloorMod, E.Div, E.Mod)) and dtype.is_integer:
            return self._division(e)
        if type(e) in _FLOAT_FOLD and dtype.is_float:
            return self._float_arith(e)
        if isinstance(e, (E.Min, E.Max)):
            return self._min_max(e)
        if type(e) in _CMP:
            return self._compare(e)
        if isinstance(e, (E.And, E.Or)):
            return self._logic(e)
        if isinstance(e, E.Not):
            if _is_const(e.a):
                return E.IntImm("bool", 1 - e.a.value)
            if type(e.a) in _NEGATED:
                return _NEGATED[type(e.a)](e.a.a, e.a.b)
            return e
        if isinstance(e, E.Select):
            if _is_const(e.condition):
                return e.true_value if e.condition.value else e.false_value
            return e
        if isinstance(e, E.Cast):
            if isinstance(e.value, (E.IntImm, E.FloatImm)):
                value = e.value.value
                if e.dtype.is_float:
                    return E.FloatImm(e.dtype, float(value))
                if e.dtype.is_integer and (isinstance(value, int) or math.isfinite(value)):
                    bits = e.dtype.bits
                    wrapped = int(value) % (2**bits)
                    if e.dtype.is_int and wrapped >= 2 ** (bits - 1):
                        wrapped -= 2**bits
                    return E.IntImm(e.dtype, wrapped)
            if e.value.dtype == e.dtype:
                return e.value
            return e
        return e

    # -- integer division ----------------------------------------------------------------
    def _division(self, e):
        a, b = e.a, e.b
        floor_kind = isinstance(e, (E.FloorDiv, E.FloorMod))
        is_div = isinstance(e, (E.FloorDiv, E.Div))
        if not floor_kind:
            # Truncating division equals floor division on non-negative operands.
            if self.bounds.bound(a).min_value >= 0 and self.bounds.bound(b).min_value > 0:
                return self._division((E.FloorDiv if is_div else E.FloorMod)(a, b))
            if _is_const(a) and _is_const(b) and b.value != 0:
                return E._fold(type(e), a, b)
            return e
        if not (_is_const(b) and b.value > 0):
            if _is_const(a) and _is_const(b) and b.value != 0:
                return E._fold(type(e), a, b)
            return e
        c = b.value
        if c == 1:
            return a if is_div else E.IntImm(e.dtype, 0)
        if is_div and isinstance(a, E.FloorDiv) and _is_const(a.b) and a.b.value > 0:
            return self._division(E.FloorDiv(a.a, E.IntImm(e.dtype, a.b.value * c)))
        form = to_linear(a)
        quotient = form.copy()
        quotient.terms, quotient.const = {}, form.const // c
        remainder = form.copy()
        remainder.terms, remainder.const = {}, form.const % c
        for key, (atom, coeff) in form.terms.items():
            q, r = divmod(coeff, c)
            if q:
                quotient.terms[key] = [atom, q]
            if r:
                remainder.terms[key] = [atom, r]
        rem_expr = from_linear(remainder)
        rb = self.bounds.bound(rem_expr)
        decided = None
        if math.isfinite(rb.min_value) and rb.min_value // c == rb.max_value // c:
            decided = int(rb.min_value // c)
        if is_div:
            if decided is not None:
                quotient.const += decided
                return from_linear(quotient)
            if quotient.is_const and quotient.const == 0:
                return E.FloorDiv(from_linear(form), b)
            # floordiv(c*q + r, c) == q + floordiv(r, c) for any integer q.
            return E.Add(from_linear(quotient), E.FloorDiv(rem_expr, b))
        if decided is not None:
            remainder.const -= decided * c
            return from_linear(remainder)
        return E.FloorMod(rem_expr, b)

    # -- floats, min/max, comparisons, logic ----------------------------------------------
    def _float_arith(self, e):
        a, b = e.a, e.b
        if _is_const(a) and _is_const(b):
            value = _FLOAT_FOLD[type(e)](a.value, b.value)
            if value is not None:
                return E.FloatImm(e.dtype, value)
        if isinstance(e, E.Add):
            if _is_const(b, 0.0):
                return a
            if _is_const(a, 0.0):
                return b
        if isinstance(e, E.Sub) and _is_const(b, 0.0):
            return a
        if isinstance(e, (E.Mul,)):
            if _is_const(b, 1.0):
                return a
            if _is_const(a, 1.0):
                return b
        if isinstance(e, E.Div) and _is_const(b, 1.0):
            return a
        return e

    def _min_max(self, e):
        a, b = e.a, e.b
        if _is_const(a) and _is_const(b):
            pick = min if isinstance(e, E.Min) else max
            return type(a)(e.dtype, pick(a.value, b.value))
        if e.dtype.is_integer:
            diff = self.bounds.bound(from_linear(to_linear(E.Sub(a, b))))
            a_small = diff.max_value <= 0
            b_small = diff.min_value >= 0
            if isinstance(e, E.Min):
                if a_small:
                    return a
                if b_small:
                    return b
            else:
                if a_small:
                    return b
                if b_small:
                    return a
        return e

    def _compare(self, e):
        a, b = e.a, e.b
        if _is_const(a) and _is_const(b):
            return (
                E._fold(type(e), a, b)
                if a.dtype.is_integer
                else E.IntImm("bool", int(_FLOAT_CMP[type(e)](a.value, b.value)))
            )
        # a - b of unsigned operands wraps around: only signed comparisons become differences
        if a.dtype.is_integer and a.dtype.lanes == 1 and str(a.dtype).startswith("int"):
            diff = from_linear(to_linear(E.Sub(a, b)))
            bound = self.bounds.bound(diff)
            proved, disproved = _CMP[type(e)](bound.min_value, bound.max_value)
            if proved:
                return _true()
            if disproved:
                return _false()
        return e

    def _logic(self, e):
        a, b = e.a, e.b
        is_and = isinstance(e, E.And)
        for x, y in ((a, b), (b, a)):
            if _is_const(x):
                if x.value:
                    return y if is_and else _true()
                return _false() if is_and else y
        return e


_FLOAT_CMP = {
    E.LT: lambda x, y: x < y,
    E.LE: lambda x, y: x <= y,
    E.GT: lambda x, y: x > y,
    E.GE: lambda x, y: x >= y,
    E.EQ: lambda x, y: x == y,
    E.NE: lambda x, y: x != y,
}
_NEGATED = {E.LT: E.GE, E.LE: E.GT, E.GT: E.LE, E.GE: E.LT, E.EQ: E.NE, E.NE: E.EQ}


class StmtSimplifier(ExprSimplifier):
    """Also simplifies statements: loop and block variables are bound to their ranges."""

    def _with_bound(self, var, lo, hi, fn):
        table = self.bounds.var_bounds
        saved = table.get(var)
        table[var] = _ConstBound(lo, hi)
        try:
            return fn()
        finally:
            if saved is None:
                table.pop(var, None)
            else:
                table[var] = saved

    def visit_For(self, loop):
        from tvm.tir.stmt import For

        new_min = self.visit(loop.min)
        new_extent = self.visit(loop.extent)
        lo = self.bounds.bound(new_min)
        ext = self.bounds.bound(new_extent)
        body = self._with_bound(
            loop.loop_var,
            lo.min_value,
            lo.max_value + ext.max_value - 1,
            lambda: self.visit(loop.body),
        )
        if (
            isinstance(new_extent, E.IntImm)
            and new_extent.value == 1
            and loop.kind.value not in ("parallel", "thread_binding")
        ):
            from tvm.tir.functor import substitute

            return self.visit(substitute(body, {loop.loop_var: new_min}))
        if new_min is loop.min and new_extent is loop.extent and body is loop.body:
            return loop
        return For(
            loop.loop_var,
            new_min,
            new_extent,
            loop.kind,
            body,
            loop.annotations,
            loop.span,
            thread_binding=loop.thread_binding,
        )

    def visit_IfThenElse(self, node):
        cond = self.visit(node.condition)
        if _is_const(cond):
            if cond.value:
                return self.visit(node.then_case)
            return self.visit(node.else_case) if node.else_case is not None else _no_op()
        return self.generic_visit(node.with_fields(condition=cond))

    def visit_BlockRealize(self, realize):
        values = tuple(self.visit(v) for v in realize.iter_values)
        predicate = self.visit(realize.predicate)
        block = realize.block
        table = self.bounds.var_bounds
        saved = {}
        for iv in block.iter_vars:
            saved[iv.var] = table.get(iv.var)
            lo = self.bounds.bound(iv.dom.min)
            ext = self.bounds.bound(iv.dom.extent)
            table[iv.var] = _ConstBound(lo.min_value, lo.max_value + ext.max_value - 1)
        try:
            new_block = self.generic_visit(block)
        finally:
            for var, old in saved.items():
                if old is None:
                    table.pop(var, None)
                else:
                    table[var] = old
        return realize.with_fields(
            iter_values=values
            if any(a is not b for a, b in zip(values, realize.iter_values))
            else realize.iter_values,
            predicate=predicate,
            block=new_block,
        )


def _no_op():
    from tvm.tir.stmt import Evaluate

    return Evaluate(E.IntImm("int32", 0))


def _ConstBound(lo, hi):  # noqa: N802  (reads as the bound type it returns)
    from .bound import ConstIntBound

    return ConstIntBound(lo, hi)
