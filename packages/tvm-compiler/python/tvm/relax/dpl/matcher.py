"""The dataflow pattern matcher: does an expression match a DFPattern, and what did each
sub-pattern match (looking through bound variables with var2val, as upstream's matcher)."""

from __future__ import annotations

from tvm.ir.expr import RelaxExpr
from tvm.ir.module import GlobalVar
from tvm.ir.op import Op

from . import pattern as P

# Ops whose two arguments may be matched in either order (as upstream).
_COMMUTATIVE = ("relax.add", "relax.multiply")


def match_expr(pattern, expr, var2val, who: str):
    """{sub-pattern: matched expression} when expr matches pattern, else None."""
    if not isinstance(pattern, P.DFPattern):
        raise TypeError(f"{who}: the pattern must be a DFPattern, got {type(pattern).__name__}")
    if not isinstance(expr, (RelaxExpr, Op)):
        raise TypeError(f"{who}: expr must be a relax Expr, got {type(expr).__name__}")
    if var2val is not None and not isinstance(var2val, dict):
        raise TypeError(
            f"{who}: var2val must be a dict of relax Var to Expr or None, got "
            f"{type(var2val).__name__}"
        )
    matcher = Matcher(var2val or {})
    if not matcher.visit(pattern, expr):
        return None
    return {p: e for p, e in matcher.memo.values()}


class Matcher:
    """One match: memo maps id(pattern) -> (pattern, expr) for what has matched so far; a
    pattern met again must match the very same expression."""

    def __init__(self, var2val: dict):
        self.var2val = var2val
        self.memo: dict = {}

    def lookup(self, expr):
        from tvm.relax.expr import Var

        if isinstance(expr, Var) and expr in self.var2val:
            return self.var2val[expr]
        return expr

    def visit(self, pattern, expr0) -> bool:
        expr = self.lookup(expr0)
        seen = self.memo.get(id(pattern))
        if seen is not None:  # a pattern met again must match the very same expression
            if isinstance(expr, Op) and isinstance(seen[1], Op):
                return expr.name == seen[1].name
            return seen[1] is expr
        saved = dict(self.memo)
        method = getattr(self, "visit_" + type(pattern).__name__, None)
        if method is None:  # a subclass of a known pattern (user code may derive one)
            for base in type(pattern).__mro__[1:]:
                method = getattr(self, "visit_" + base.__name__, None)
                if method is not None:
                    break
        ok = bool(method(pattern, expr))
        if ok:
            self.memo[id(pattern)] = (pattern, expr)
        else:
            self.memo = saved
        return ok

    def visit_seq(self, pairs) -> bool:
        saved = dict(self.memo)
        for p, e in pairs:
            if not self.visit(p, e):
                self.memo = saved
                return False
        return True

    # -- leaves ---------------------------------------------------------------------------------
    def visit_WildcardPattern(self, p, expr):  # noqa: N802  (dispatch on the class name)
        return True

    def visit_ExprPattern(self, p, expr):  # noqa: N802
        from tvm.ir import structural_equal

        if isinstance(p.expr, Op) or isinstance(expr, Op):
            return isinstance(expr, Op) and expr.name == p.expr.name
        return p.expr is expr or structural_equal(p.expr, expr)

    def visit_ConstantPattern(self, p, expr):  # noqa: N802
        from tvm.relax.expr import Constant

        return isinstance(expr, Constant)

    def visit_VarPattern(self, p, expr):  # noqa: N802
        from tvm.relax.expr import Var

        return isinstance(expr, Var) and (not p.name or p.name == expr.name_hint)

    def visit_DataflowVarPattern(self, p, expr):  # noqa: N802
        from tvm.relax.expr import DataflowVar

        return isinstance(expr, DataflowVar) and (not p.name or p.name == expr.name_hint)

    def visit_GlobalVarPattern(self, p, expr):  # noqa: N802
        return isinstance(expr, GlobalVar) and p.name in expr.name_hint

    def visit_ExternFuncPattern(self, p, expr):  # noqa: N802
        from tvm.relax.expr import ExternFunc

        return isinstance(expr, ExternFunc) and (
            not p.global_symbol or p.global_symbol == expr.global_symbol
        )

    # -- compound -------------------------------------------------------------------------------
    def visit_CallPattern(self, p, expr):  # noqa: N802
        from tvm.relax.expr import Call

        if not isinstance(expr, Call):
            return False
        args = list(expr.args)
        if len(p.args) > len(args) or (len(p.args) < len(args) and not p.varg_default_wildcard):
            return False
        saved = dict(self.memo)
        if not self.visit(p.op, expr.op):
            return False
        if self.visit_seq(list(zip(p.args, args))):
            return True
        if (
            isinstance(expr.op, Op)
            and expr.op.name in _COMMUTATIVE
            and len(args) == 2
            and len(p.args) == 2
            and self.visit_seq(list(zip(p.args, reversed(args))))
        ):
            return True
        self.memo = saved
        return False

    def visit_FunctionPattern(self, p, expr):  # noqa: N802
        from tvm.relax.expr import Function

        if not isinstance(expr, Function) or len(expr.params) != len(p.params):
            return False
        return self.visit_seq([*zip(p.params, expr.params), (p.body, expr.body)])

    def visit_TuplePattern(self, p, expr):  # noqa: N802
        from tvm.relax.expr import Tuple

        if not isinstance(expr, Tuple) or len(expr.fields) != len(p.fields):
            return False
        return self.visit_seq(list(zip(p.fields, expr.fields)))

    def visit_UnorderedTuplePattern(self, p, expr):  # noqa: N802
        from itertools import permutations

        from tvm.relax.expr import Tuple

        if not isinstance(expr, Tuple) or len(expr.fields) != len(p.fields):
            return False
        for order in permutations(expr.fields):
            if self.visit_seq(list(zip(p.fields, order))):
                return True
        return False

    def visit_TupleGetItemPattern(self, p, expr):  # noqa: N802
        from tvm.relax.expr import TupleGetItem

        if not isinstance(expr, TupleGetItem):
            return False
        if p.index != -1 and p.index != expr.index:
            return False
        return self.visit(p.tuple, expr.tuple_value)

    def visit_AndPattern(self, p, expr):  # noqa: N802
        return self.visit_seq([(p.left, expr), (p.right, expr)])

    def visit_OrPattern(self, p, expr):  # noqa: N802
        return self.visit(p.left, expr) or self.visit(p.right, expr)

    def visit_NotPattern(self, p, expr):  # noqa: N802
        saved = dict(self.memo)
        matched = self.visit(p.reject, expr)
        self.memo = saved
        return not matched

    # -- properties -----------------------------------------------------------------------------
    def visit_StructInfoPattern(self, p, expr):  # noqa: N802
        from tvm.relax.analysis import struct_info_base_check

        sinfo = _sinfo(expr)
        if sinfo is None or not struct_info_base_check(p.struct_info, sinfo):
            return False
        return self.visit(p.pattern, expr)

    def visit_DataTypePattern(self, p, expr):  # noqa: N802
        from tvm.relax.struct_info import TensorStructInfo

        sinfo = _sinfo(expr)
        if not isinstance(sinfo, TensorStructInfo) or str(sinfo.dtype) != p.dtype:
            return False
        return self.visit(p.pattern, expr)

    def visit_ShapePattern(self, p, expr):  # noqa: N802
        from tvm.relax.struct_info import TensorStructInfo

        sinfo = _sinfo(expr)
        if not isinstance(sinfo, TensorStructInfo) or sinfo.shape is None:
            return False
        dims = getattr(sinfo.shape, "values", None)
        if dims is None:
            dims = getattr(_sinfo(sinfo.shape), "values", None)
        if dims is None or not _dims_equal(dims, p.shape):
            return False
        return self.visit(p.pattern, expr)

    def visit_PrimArrPattern(self, p, expr):  # noqa: N802
        from tvm.relax.expr import ShapeExpr

        if isinstance(expr, ShapeExpr):
            return _dims_equal(expr.values, p.fields)
        if isinstance(expr, (list, tuple)):
            return _dims_equal(expr, p.fields)
        return False

    def visit_AttrPattern(self, p, expr):  # noqa: N802
        from tvm.relax.expr import Call, Function

        if isinstance(expr, Call):
            attrs = expr.attrs
            get = (lambda k: getattr(attrs, k)) if attrs is not None else None
        elif isinstance(expr, Function):
            attrs = expr.attrs or {}
            get = attrs.__getitem__ if len(attrs) else None
        elif isinstance(expr, Op):
            get = expr.get_attr
        else:
            get = None
        if get is None:
            return False
        for key, want in p.attrs.items():
            try:
                have = get(key)
            except (AttributeError, KeyError):
                return False
            if have is None or not _attr_equal(have, want):
                return False
        return self.visit(p.pattern, expr)


def _sinfo(expr):
    return expr.__dict__.get("struct_info_") if hasattr(expr, "__dict__") else None


def _dims_equal(have, want) -> bool:
    from tvm.arith import Analyzer

    if len(have) != len(want):
        return False
    analyzer = Analyzer()
    for a, b in zip(have, want):
        if not analyzer.can_prove_equal(a, b):
            return False
    return True


def _attr_equal(have, want) -> bool:
    """Whether an attribute value equals the value a pattern asks for (an int and an IntImm of
    the same value are equal, as are a list and a tuple of equal items, a str and a StringImm)."""
    from tvm.ir import structural_equal
    from tvm.ir.expr import PrimExpr

    if isinstance(want, (list, tuple)):
        if not isinstance(have, (list, tuple)) or len(have) != len(want):
            return False
        return all(_attr_equal(h, w) for h, w in zip(have, want))
    have, want = _plain(have), _plain(want)
    if isinstance(want, PrimExpr) or isinstance(have, PrimExpr):
        if not isinstance(want, PrimExpr) or not isinstance(have, PrimExpr):
            return False
        return structural_equal(have, want)
    if isinstance(want, (bool, int, float, str)):
        return type(have) in (bool, int, float, str) and have == want
    try:
        return bool(structural_equal(have, want))
    except Exception:  # values of kinds structural equality cannot compare
        return have == want


def _plain(value):
    """A constant PrimExpr or string object as the Python value it holds."""
    from tvm.tir.expr import FloatImm, IntImm, StringImm

    if isinstance(value, IntImm):
        return bool(value.value) if str(value.dtype) == "bool" else int(value.value)
    if isinstance(value, FloatImm):
        return float(value.value)
    if isinstance(value, StringImm):
        return value.value
    if hasattr(value, "dtype") and not hasattr(value, "shape") and isinstance(value, str):
        return str(value)
    return value
