"""The dataflow pattern language's nodes and constructors (tvm.relax.dpl.pattern): patterns
that describe Relax expressions, combined with |, & and ~ and matched by .match()."""

from __future__ import annotations

from tvm.ir.expr import RelaxExpr
from tvm.ir.op import Op

# What an ExprPattern can stand for: a Relax expression or an operator.
_EXPR_TYPES = (RelaxExpr, Op)


def _expect(who: str, what: str, value, types, expected: str):
    if isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise TypeError(f"{who}: {what} must be {expected}, got {type(value).__name__}")
    if not isinstance(value, types):
        raise TypeError(f"{who}: {what} must be {expected}, got {type(value).__name__}")
    return value


def _pattern(who: str, what: str, value):
    """value as a pattern: a pattern as it is, a Relax expression as an ExprPattern."""
    if isinstance(value, DFPattern):
        return value
    if isinstance(value, _EXPR_TYPES):
        return ExprPattern(value)
    raise TypeError(f"{who}: {what} must be a DFPattern, got {type(value).__name__}")


def _patterns(who: str, what: str, values) -> tuple:
    if isinstance(values, (DFPattern, str)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{who}: {what} must be a list of DFPatterns, got {type(values).__name__}")
    # A tuple, as upstream's Array: a pattern cannot be made to contain itself afterwards.
    return tuple(_pattern(who, f"{what}[{i}]", v) for i, v in enumerate(values))


class DFPattern:
    """Base of every dataflow pattern (tvm.relax.dpl.DFPattern); compared by identity.

    Patterns are immutable once made, as upstream's objects: so no pattern can contain itself
    (a cycle would recurse without end in matching, repr and dup)."""

    def __setattr__(self, name, value):
        if name in self.__dict__:
            raise AttributeError(
                f"{type(self).__name__}.{name} cannot be reassigned: patterns are immutable "
                "(build a new one)"
            )
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        raise AttributeError(
            f"{type(self).__name__}.{name} cannot be deleted: patterns are immutable"
        )

    def __call__(self, *args, varg_default_wildcard=False, add_constraint=True) -> CallPattern:
        return CallPattern(self, list(args), varg_default_wildcard, add_constraint)

    def __or__(self, other) -> OrPattern:
        return OrPattern(self, other)

    def __and__(self, other) -> AndPattern:
        return AndPattern(self, other)

    def __invert__(self) -> NotPattern:
        return NotPattern(self)

    def __xor__(self, other) -> PatternSeq:
        return self.used_by(other)

    def __rshift__(self, other) -> PatternSeq:
        return self.only_used_by(other)

    def has_attr(self, attrs: dict) -> AttrPattern:
        """This pattern, further requiring the matched call's (or function's) attributes."""
        return AttrPattern(self, attrs)

    def has_struct_info(self, struct_info) -> StructInfoPattern:
        """This pattern, further requiring struct info that struct_info covers."""
        return StructInfoPattern(self, struct_info)

    def has_ty(self, ty) -> StructInfoPattern:
        """has_struct_info under upstream's later name (StructInfo became Type)."""
        return StructInfoPattern(self, ty)

    def has_type(self, ty) -> StructInfoPattern:
        return StructInfoPattern(self, ty)

    def has_dtype(self, dtype: str) -> DataTypePattern:
        """This pattern, further requiring a tensor of element type dtype."""
        return DataTypePattern(self, dtype)

    def has_shape(self, shape) -> ShapePattern:
        """This pattern, further requiring a tensor of shape shape."""
        return ShapePattern(self, shape)

    def match(self, expr, var2val: dict | None = None) -> bool:
        """Whether expr matches this pattern; with var2val (a Var -> bound value map, as
        relax.analysis.get_var2val gives) bound variables are looked through."""
        from .matcher import match_expr

        return match_expr(self, expr, var2val, "DFPattern.match") is not None

    def extract_matched_expr(self, expr, var2val: dict | None = None) -> dict | None:
        """Each sub-pattern mapped to the expression it matched, or None without a match."""
        from .matcher import match_expr

        return match_expr(self, expr, var2val, "DFPattern.extract_matched_expr")

    def used_by(self, other, index=-1) -> PatternSeq:
        """A sequence: this pattern's value is used by other (a constraint of the current
        PatternContext)."""
        return PatternSeq([self]).used_by(other, index)

    def only_used_by(self, other, index=-1) -> PatternSeq:
        """A sequence: this pattern's value is used by other and by nothing else."""
        return PatternSeq([self]).only_used_by(other, index)

    def dup(self) -> DFPattern:
        """A copy of this pattern (sub-patterns copied too) with an identity of its own."""
        return _dup(self, {})

    def same_as(self, other) -> bool:
        return self is other

    def is_(self, other) -> bool:
        return self is other

    def __repr__(self):
        return self._text()

    def _text(self) -> str:
        return f"{type(self).__name__}()"


class ExprPattern(DFPattern):
    """Matches one given Relax expression (structurally equal)."""

    def __init__(self, expr):
        _expect("ExprPattern", "expr", expr, _EXPR_TYPES, "a Relax Expr or an Op")
        self.expr = expr

    def _text(self):
        name = getattr(self.expr, "name", None)
        return name if isinstance(name, str) else f"ExprPattern({self.expr!r})"


class VarPattern(DFPattern):
    """Matches a relax.Var (any name when name_hint is empty)."""

    def __init__(self, name_hint: str = ""):
        _expect(type(self).__name__, "name_hint", name_hint, str, "a str")
        self.name = name_hint

    def name_hint(self) -> str:
        return self.name

    def _text(self):
        return f"{type(self).__name__}({self.name})"


class DataflowVarPattern(VarPattern):
    """Matches a relax.DataflowVar."""


class GlobalVarPattern(VarPattern):
    """Matches a GlobalVar whose name contains name_hint."""


class ExternFuncPattern(DFPattern):
    """Matches a relax.ExternFunc of the given symbol (any when empty)."""

    def __init__(self, global_symbol: str = ""):
        _expect("ExternFuncPattern", "global_symbol", global_symbol, str, "a str")
        self.global_symbol = global_symbol

    def _text(self):
        return f"ExternFuncPattern({self.global_symbol})"


class ConstantPattern(DFPattern):
    """Matches a relax.Constant."""


class WildcardPattern(DFPattern):
    """Matches any expression."""

    def _text(self):
        return "*"


class CallPattern(DFPattern):
    """Matches a call of op (itself a pattern) on args; with varg_default_wildcard the call
    may have more arguments than the pattern lists, the rest matching anything."""

    def __init__(self, op, args, varg_default_wildcard: bool = False, add_constraint=True):
        self.op = _pattern("CallPattern", "op", op)
        if args is None:
            args = []
        self.args = _patterns("CallPattern", "args", args)
        self.varg_default_wildcard = bool(varg_default_wildcard)
        if add_constraint:  # inside a PatternContext each argument is used by this call
            from .context import PatternContext

            ctx = PatternContext.current()
            if ctx is not None:
                for i, arg in enumerate(self.args):
                    if not isinstance(arg, (ConstantPattern, ExprPattern, PrimArrPattern)):
                        ctx.add_constraint(arg, self, False, i)

    def _text(self):
        extra = ", ..." if self.varg_default_wildcard else ""
        return f"{self.op!r}({', '.join(repr(a) for a in self.args)}{extra})"


class FunctionPattern(DFPattern):
    """Matches a relax.Function with matching params and body."""

    def __init__(self, params, body):
        self.params = _patterns("FunctionPattern", "params", params)
        self.body = _pattern("FunctionPattern", "body", body)


class TuplePattern(DFPattern):
    """Matches a relax.Tuple whose fields match fields, in order."""

    def __init__(self, fields):
        self.fields = _patterns(type(self).__name__, "fields", fields)

    def __getitem__(self, index: int) -> TupleGetItemPattern:
        return TupleGetItemPattern(self, index)

    def _text(self):
        inner = ", ".join(repr(f) for f in self.fields)
        return f"{type(self).__name__}(({inner}{',' if len(self.fields) == 1 else ''}))"


class UnorderedTuplePattern(TuplePattern):
    """Matches a relax.Tuple whose fields match fields in some order."""


class TupleGetItemPattern(DFPattern):
    """Matches tuple_value[index] (any index when index is None or -1)."""

    def __init__(self, tuple_value, index: int | None = None):
        self.tuple = _pattern("TupleGetItemPattern", "tuple_value", tuple_value)
        if index is not None:
            _expect("TupleGetItemPattern", "index", index, int, "an int or None")
        self.index = -1 if index is None else index

    def _text(self):
        return f"{self.tuple!r}.{self.index}"


class AndPattern(DFPattern):
    """Matches what both left and right match."""

    def __init__(self, left, right):
        self.left = _pattern("AndPattern", "left", left)
        self.right = _pattern("AndPattern", "right", right)

    def _text(self):
        return f"AndPattern({self.left!r} & {self.right!r})"


class OrPattern(DFPattern):
    """Matches what left or right matches (left tried first)."""

    def __init__(self, left, right):
        self.left = _pattern("OrPattern", "left", left)
        self.right = _pattern("OrPattern", "right", right)

    def _text(self):
        return f"OrPattern({self.left!r} | {self.right!r})"


class NotPattern(DFPattern):
    """Matches what to_reject does not."""

    def __init__(self, to_reject):
        self.reject = _pattern("NotPattern", "to_reject", to_reject)

    def _text(self):
        return f"!({self.reject!r})"


class StructInfoPattern(DFPattern):
    """Matches what pattern matches when its struct info is covered by struct_info."""

    def __init__(self, pattern, struct_info):
        from tvm.relax.struct_info import StructInfo

        self.pattern = _pattern(type(self).__name__, "pattern", pattern)
        _expect(type(self).__name__, "struct_info", struct_info, StructInfo, "a StructInfo")
        self.struct_info = struct_info

    @property
    def ty(self):
        return self.struct_info


# Upstream's later name (its StructInfo became Type).
TypePattern = StructInfoPattern


class ShapePattern(DFPattern):
    """Matches what pattern matches when it is a tensor of the given shape."""

    def __init__(self, pattern, shape):
        self.pattern = _pattern("ShapePattern", "pattern", pattern)
        self.shape = _prim_list("ShapePattern", "shape", shape)


class DataTypePattern(DFPattern):
    """Matches what pattern matches when it is a tensor of element type dtype."""

    def __init__(self, pattern, dtype):
        from tvm_ffi import dtype as _dtype

        self.pattern = _pattern("DataTypePattern", "pattern", pattern)
        if not isinstance(dtype, (str, _dtype)):
            raise TypeError(
                f"DataTypePattern: dtype must be a str such as 'float32', got "
                f"{type(dtype).__name__}"
            )
        self.dtype = str(dtype)


class AttrPattern(DFPattern):
    """Matches what pattern matches when its attributes include attrs (name -> value)."""

    def __init__(self, pattern, attrs):
        self.pattern = _pattern("AttrPattern", "pattern", pattern)
        if not isinstance(attrs, dict) or not all(isinstance(k, str) for k in attrs):
            raise TypeError(
                f"AttrPattern: attrs must be a dict of str to values, got {type(attrs).__name__}"
            )
        self.attrs = dict(attrs)


class PrimArrPattern(DFPattern):
    """Matches a relax.ShapeExpr (or an array of PrimExprs) of the given values."""

    def __init__(self, shape):
        self.fields = _prim_list("PrimArrPattern", "shape", shape)

    def __getitem__(self, index: int):
        return self.fields[index]

    def __len__(self):
        return len(self.fields)


def _prim_list(who: str, what: str, values) -> tuple:
    from tvm.ir.expr import PrimExpr
    from tvm.tir.expr import IntImm

    if not isinstance(values, (list, tuple)):
        raise TypeError(
            f"{who}: {what} must be a list of ints or PrimExprs, got {type(values).__name__}"
        )
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, PrimExpr)):
            raise TypeError(
                f"{who}: {what}[{i}] must be an int or a PrimExpr, got {type(v).__name__}"
            )
        out.append(IntImm("int64", v) if isinstance(v, int) else v)
    return tuple(out)


class PatternSeq:
    """A chain of patterns linked by use (a ^ b: b uses a; a >> b: only b uses a)."""

    def __init__(self, patterns, only_use=False):
        self.patterns = _patterns("PatternSeq", "patterns", patterns)
        self.only_use = bool(only_use)

    def used_by(self, other, index=-1) -> PatternSeq:
        return self._link(other, False, index)

    def only_used_by(self, other, index=-1) -> PatternSeq:
        return self._link(other, True, index)

    def _link(self, other, only_use, index):
        from .context import PatternContext

        tail = other.patterns if isinstance(other, PatternSeq) else [other]
        tail = _patterns("PatternSeq.used_by", "other", tail)
        ctx = PatternContext.current()
        if ctx is None:
            raise ValueError(
                "DFPattern.used_by / only_used_by (^, >>): a use constraint needs an active "
                "PatternContext (`with PatternContext() as ctx:`)"
            )
        ctx.add_constraint(self.patterns[-1], tail[0], only_use, index)
        return PatternSeq([*self.patterns, *tail], only_use)

    __xor__ = used_by
    __rshift__ = only_used_by

    def __getitem__(self, index: int) -> DFPattern:
        return self.patterns[index]

    def dup(self) -> PatternSeq:
        memo: dict = {}
        return PatternSeq([_dup(p, memo) for p in self.patterns], self.only_use)


def _dup(pattern, memo: dict):
    """A copy of pattern whose sub-patterns are copies too (shared ones stay shared); the
    expressions, ops and values it names are the same objects."""
    if id(pattern) in memo:
        return memo[id(pattern)]
    new = object.__new__(type(pattern))
    memo[id(pattern)] = new
    for key, value in pattern.__dict__.items():
        if isinstance(value, DFPattern):
            value = _dup(value, memo)
        elif isinstance(value, (list, tuple)) and any(isinstance(v, DFPattern) for v in value):
            value = type(value)(_dup(v, memo) if isinstance(v, DFPattern) else v for v in value)
        new.__dict__[key] = value
    return new


# -- constructors (upstream's free functions) -------------------------------------------------


def is_op(op_name: str) -> ExprPattern:
    """A pattern for the operator op_name (call it to match a call: is_op("relax.add")(a, b))."""
    _expect("is_op", "op_name", op_name, str, "an op name such as 'relax.add'")
    return ExprPattern(Op.get(op_name))


def is_expr(expr) -> ExprPattern:
    """A pattern for one given expression."""
    _expect("is_expr", "expr", expr, RelaxExpr, "a Relax Expr")
    return ExprPattern(expr)


def is_const() -> ConstantPattern:
    """A pattern for any relax.Constant."""
    return ConstantPattern()


def is_var(name: str = "") -> VarPattern:
    """A pattern for a relax.Var named name (any Var when name is empty)."""
    _expect("is_var", "name", name, str, "a str")
    return VarPattern(name)


def is_dfv(name: str = "") -> DataflowVarPattern:
    """A pattern for a relax.DataflowVar named name (any when empty)."""
    _expect("is_dfv", "name", name, str, "a str")
    return DataflowVarPattern(name)


def is_gv(name: str = "") -> GlobalVarPattern:
    """A pattern for a GlobalVar whose name contains name (any when empty)."""
    _expect("is_gv", "name", name, str, "a str")
    return GlobalVarPattern(name)


def wildcard() -> WildcardPattern:
    """A pattern matching any expression."""
    return WildcardPattern()


def is_tuple(fields, unordered=False):
    """A pattern for a relax.Tuple of fields (in any order with unordered=True)."""
    fields = _patterns("is_tuple", "fields", fields)
    return UnorderedTuplePattern(fields) if unordered else TuplePattern(fields)


def is_tuple_get_item(tuple_value, index: int | None = None) -> TupleGetItemPattern:
    """A pattern for tuple_value[index] (any index when index is None)."""
    return TupleGetItemPattern(_pattern("is_tuple_get_item", "tuple_value", tuple_value), index)


def _dps_call(who, op_name, callee, args):
    if args is None:
        args_pattern = wildcard()
    elif isinstance(args, TuplePattern):
        args_pattern = args
    elif isinstance(args, (list, tuple)):
        args_pattern = TuplePattern(_patterns(who, "args", args))
    else:
        raise TypeError(
            f"{who}: args must be a list of DFPatterns, a TuplePattern or None, got "
            f"{type(args).__name__}"
        )
    return CallPattern(ExprPattern(Op.get(op_name)), [callee, args_pattern])


def is_call_tir(func_name: str, args=None) -> CallPattern:
    """A pattern for R.call_tir of the PrimFunc named func_name on args (any when None)."""
    _expect("is_call_tir", "func_name", func_name, str, "a str")
    return _dps_call("is_call_tir", "relax.call_tir", GlobalVarPattern(func_name), args)


def is_call_dps_packed(func_name: str, args=None) -> CallPattern:
    """A pattern for R.call_dps_packed of the extern function func_name on args."""
    _expect("is_call_dps_packed", "func_name", func_name, str, "a str")
    return _dps_call(
        "is_call_dps_packed", "relax.call_dps_packed", ExternFuncPattern(func_name), args
    )


def is_call_packed(func_name: str, args=None) -> CallPattern:
    """A pattern for a call of the extern (packed) function func_name on args."""
    _expect("is_call_packed", "func_name", func_name, str, "a str")
    if args is None:
        return CallPattern(ExternFuncPattern(func_name), [], varg_default_wildcard=True)
    return CallPattern(ExternFuncPattern(func_name), _patterns("is_call_packed", "args", args))


def is_shape(shape) -> PrimArrPattern:
    """A pattern for a shape (relax.ShapeExpr) of the given dimensions."""
    return PrimArrPattern(shape)


def has_dtype(dtype: str, pattern=None) -> DataTypePattern:
    """pattern (a wildcard when None) restricted to tensors of element type dtype."""
    return DataTypePattern(wildcard() if pattern is None else pattern, dtype)


def has_shape(shape, pattern=None) -> ShapePattern:
    """pattern (a wildcard when None) restricted to tensors of shape shape."""
    return ShapePattern(wildcard() if pattern is None else pattern, shape)


def has_struct_info(struct_info, pattern=None) -> StructInfoPattern:
    """pattern (a wildcard when None) restricted to struct info that struct_info covers."""
    return StructInfoPattern(wildcard() if pattern is None else pattern, struct_info)


def has_attr(attrs, pattern=None) -> AttrPattern:
    """pattern (a wildcard when None) restricted to calls or functions carrying attrs."""
    return AttrPattern(wildcard() if pattern is None else pattern, attrs)


def reject(pattern) -> NotPattern:
    """A pattern matching what pattern does not (as ~pattern)."""
    return NotPattern(_pattern("reject", "pattern", pattern))


def make_fused_bias_activation_pattern(
    op_name, with_bias=False, activation=None, allow_reshape=False
):
    """op_name(x, w), then an add of a bias (with_bias), then activation (an op name).
    allow_reshape lets a reshape stand between the op and the bias add."""
    out = is_op(op_name)(wildcard(), wildcard())
    if with_bias:
        if allow_reshape:
            out = out | is_op("relax.reshape")(out, wildcard())
        out = is_op("relax.add")(out, wildcard())
    if activation:
        return is_op(activation)(out)
    return out
