"""TIR expressions: variables, constants, arithmetic, comparisons, logic, Select, Let, calls."""

from __future__ import annotations

import enum

from tvm.ir.dtype import DataType, dtype_of_python_value
from tvm.ir.expr import PrimExpr, Range  # noqa: F401  (Range: tir.Range and tir.expr.Range name it too)
from tvm.ir.op import Op


class PrimExprWithOp(PrimExpr):
    """Base of TIR's expressions: a PrimExpr whose Python operators build new expressions."""

    _key_namespace = "tir"
    __hash__ = object.__hash__  # defining __eq__ below would otherwise unset it

    def _rebuild(self, changes: dict):
        if "dtype" in self._fields:
            return self.with_fields(**changes)
        # The dtype is derived from the operands (arithmetic, loads): the constructor derives
        # it again and checks the new operands, and its error is the caller's to see.
        fields = {name: changes.get(name, getattr(self, name)) for name in self._fields}
        return type(self)(**fields, span=getattr(self, "span", None))

    def __add__(self, other):
        return _binary(Add, self, other)

    def __radd__(self, other):
        return _binary(Add, other, self)

    def __sub__(self, other):
        return _binary(Sub, self, other)

    def __rsub__(self, other):
        return _binary(Sub, other, self)

    def __mul__(self, other):
        return _binary(Mul, self, other)

    def __rmul__(self, other):
        return _binary(Mul, other, self)

    def __truediv__(self, other):
        return _binary(Div, self, other)

    def __rtruediv__(self, other):
        return _binary(Div, other, self)

    def __floordiv__(self, other):
        return _binary(FloorDiv, self, other)

    def __rfloordiv__(self, other):
        return _binary(FloorDiv, other, self)

    def __mod__(self, other):
        return _binary(FloorMod, self, other)

    def __rmod__(self, other):
        return _binary(FloorMod, other, self)

    def __neg__(self):
        return _binary(Sub, const(0, self.dtype), self)

    def __lt__(self, other):
        return _binary(LT, self, other)

    def __le__(self, other):
        return _binary(LE, self, other)

    def __gt__(self, other):
        return _binary(GT, self, other)

    def __ge__(self, other):
        return _binary(GE, self, other)

    def __eq__(self, other):
        return _binary(EQ, self, other)

    def __ne__(self, other):
        return _binary(NE, self, other)

    # On bools, & | ~ are the logical operators; on integers they are bitwise, as in C.
    def __and__(self, other):
        return _logical_or_bitwise(And, "bitwise_and", self, other)

    def __rand__(self, other):
        return _logical_or_bitwise(And, "bitwise_and", other, self)

    def __or__(self, other):
        return _logical_or_bitwise(Or, "bitwise_or", self, other)

    def __ror__(self, other):
        return _logical_or_bitwise(Or, "bitwise_or", other, self)

    def __xor__(self, other):
        return _bitwise("bitwise_xor", self, other)

    def __rxor__(self, other):
        return _bitwise("bitwise_xor", other, self)

    def __lshift__(self, other):
        return _bitwise("shift_left", self, other)

    def __rlshift__(self, other):
        return _bitwise("shift_left", other, self)

    def __rshift__(self, other):
        return _bitwise("shift_right", self, other)

    def __rrshift__(self, other):
        return _bitwise("shift_right", other, self)

    def __invert__(self):
        if self.dtype.is_bool:
            return Not(self)
        if not self.dtype.is_integer:
            raise TypeError(f"~ needs a bool or integer expression, got dtype {self.dtype}")
        return Call(self.dtype, "tir.bitwise_not", [self])

    def __bool__(self):
        raise TypeError(
            f"cannot use the symbolic expression {self!r} as a Python bool; "
            "use tvm.tir.Select, tvm.tir.all or tvm.tir.any"
        )

    def astype(self, dtype) -> PrimExpr:
        dtype = DataType(dtype)
        if dtype == self.dtype:
            return self
        if isinstance(self, IntImm) and dtype.is_integer:
            return IntImm(dtype, self.value)
        if isinstance(self, (IntImm, FloatImm)) and dtype.is_float:
            return FloatImm(dtype, float(self.value))
        return Cast(dtype, self)


def const(value, dtype=None) -> PrimExpr:
    """An IntImm or FloatImm for a Python scalar."""
    if isinstance(value, PrimExpr):
        return value if dtype is None else value.astype(dtype)
    dtype = DataType(dtype) if dtype is not None else dtype_of_python_value(value)
    if dtype.is_float:
        return FloatImm(dtype, float(value))
    if isinstance(value, float) and not float(value).is_integer():
        raise ValueError(f"const: {value!r} is not an integer, so it cannot have dtype {dtype}")
    return IntImm(dtype, int(value))


def convert(value) -> PrimExpr:
    """A PrimExpr for a PrimExpr or a Python bool/int/float; TypeError for anything else."""
    if isinstance(value, PrimExpr):
        return value
    if isinstance(value, (bool, int, float)):
        return const(value)
    if _is_iter_var(value):
        return value.var
    if hasattr(value, "__index__"):
        return const(int(value))
    raise TypeError(f"expected a PrimExpr or a number, got {type(value).__name__}: {value!r}")


def _is_iter_var(value) -> bool:
    from .stmt import IterVar  # here, not at the top: tir.stmt imports this module

    return isinstance(value, IterVar)


def _unify(a: PrimExpr, b: PrimExpr) -> tuple[PrimExpr, PrimExpr]:
    if a.dtype == b.dtype:
        return a, b
    da, db = a.dtype, b.dtype
    if da.lanes != db.lanes:
        raise TypeError(f"cannot combine expressions of dtypes {da} and {db}")
    if da.is_float or db.is_float:
        target = da if (da.is_float and (not db.is_float or da.bits >= db.bits)) else db
    elif da.is_bool or db.is_bool:
        target = db if da.is_bool else da
    else:
        target = da if da.bits >= db.bits else db
    return a.astype(target), b.astype(target)


def _operand(value, other) -> PrimExpr:
    # A Python scalar takes the dtype of the expression it meets, as in `i + 1` or `x * 2.0`.
    if isinstance(value, PrimExpr):
        return value
    if _is_iter_var(value):
        return value.var
    if _is_iter_var(other):
        other = other.var
    if (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and isinstance(other, PrimExpr)
    ):
        if isinstance(value, float) and not other.dtype.is_float:
            return const(value)
        return const(value, other.dtype if not other.dtype.is_bool else None)
    return convert(value)


def _binary(cls, a, b):
    a_expr = _operand(a, b)
    b_expr = _operand(b, a_expr)
    a_expr, b_expr = _unify(a_expr, b_expr)
    folded = _fold(cls, a_expr, b_expr)
    return folded if folded is not None else cls(a_expr, b_expr)


def _bitwise(name, a, b):
    """An integer bitwise operator as a call to the builtin tir.<name>."""
    a_expr = _operand(a, b)
    b_expr = _operand(b, a_expr)
    a_expr, b_expr = _unify(a_expr, b_expr)
    if not a_expr.dtype.is_integer:
        raise TypeError(f"{name} needs integer expressions, got dtype {a_expr.dtype}")
    return Call(a_expr.dtype, f"tir.{name}", [a_expr, b_expr])


def _logical_or_bitwise(logical_cls, bitwise_name, a, b):
    a_expr = _operand(a, b)
    b_expr = _operand(b, a_expr)
    if a_expr.dtype.is_bool and b_expr.dtype.is_bool:
        return _binary(logical_cls, a_expr, b_expr)
    return _bitwise(bitwise_name, a_expr, b_expr)


def _fold(cls, a, b):
    """Fold operators on two integer constants so shape arithmetic stays constant."""
    if not (isinstance(a, IntImm) and isinstance(b, IntImm)) or cls not in _INT_FOLDERS:
        return None
    if cls in (Div, FloorDiv, FloorMod, Mod) and b.value == 0:
        raise ZeroDivisionError(f"{cls.__name__}: division by the constant zero")
    value = _INT_FOLDERS[cls](a.value, b.value)
    if cls in (LT, LE, GT, GE, EQ, NE):
        return IntImm("bool", int(value))
    return IntImm(a.dtype, value)


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


_INT_FOLDERS = {}  # filled after the classes exist


class Var(PrimExprWithOp):
    """A variable; two Vars are the same variable only when they are the same object."""

    _fields = ("name", "dtype")
    _ignored_fields = ("span", "name")
    _is_var = True
    # What structural equality compares and hashes a variable by, besides how it is bound:
    # two TIR variables can stand for each other only when their dtypes agree.
    _var_compare_fields = ("dtype",)

    def __init__(self, name: str = "v", dtype="int32", span=None):
        if not isinstance(name, str):
            raise TypeError(f"Var: name must be a str, got {type(name).__name__}")
        self._set(name=name, dtype=DataType(dtype), span=span)


class SizeVar(Var):
    """A variable known to be non-negative (a shape dimension)."""


class IntImm(PrimExprWithOp):
    _fields = ("dtype", "value")

    def __init__(self, dtype, value: int, span=None):
        dtype = DataType(dtype)
        if not (dtype.is_integer or dtype.is_bool):
            raise TypeError(f"IntImm: dtype must be an integer or bool type, got {dtype}")
        if isinstance(value, bool):
            value = int(value)
        if not isinstance(value, int):
            raise TypeError(f"IntImm: value must be an int, got {type(value).__name__}")
        if dtype.is_bool:
            value = int(bool(value))
        elif dtype.is_int and not -(2 ** (dtype.bits - 1)) <= value < 2 ** (dtype.bits - 1):
            raise ValueError(f"IntImm: {value} does not fit in {dtype}")
        elif dtype.is_uint and not 0 <= value < 2**dtype.bits:
            raise ValueError(f"IntImm: {value} does not fit in {dtype}")
        self._set(dtype=dtype, value=value, span=span)

    def __int__(self):
        return self.value

    def __index__(self):
        return self.value


class FloatImm(PrimExprWithOp):
    _fields = ("dtype", "value")

    def __init__(self, dtype, value: float, span=None):
        dtype = DataType(dtype)
        if not dtype.is_float:
            raise TypeError(f"FloatImm: dtype must be a float type, got {dtype}")
        self._set(dtype=dtype, value=float(value), span=span)

    def __float__(self):
        return self.value


class StringImm(PrimExprWithOp):
    _fields = ("value",)

    def __init__(self, value: str, span=None):
        if not isinstance(value, str):
            raise TypeError(f"StringImm: value must be a str, got {type(value).__name__}")
        self._set(value=value, dtype=DataType("handle"), span=span)


class Cast(PrimExprWithOp):
    _fields = ("dtype", "value")

    def __init__(self, dtype, value, span=None):
        self._set(dtype=DataType(dtype), value=convert(value), span=span)


class BinaryOpExpr(PrimExprWithOp):
    _fields = ("a", "b")
    symbol = "?"

    def __init__(self, a, b, span=None):
        a, b = _unify(convert(a), convert(b))
        self._set(a=a, b=b, dtype=self._result_dtype(a, b), span=span)

    @staticmethod
    def _result_dtype(a, b):
        return a.dtype


class Add(BinaryOpExpr):
    symbol = "+"


class Sub(BinaryOpExpr):
    symbol = "-"


class Mul(BinaryOpExpr):
    symbol = "*"


class Div(BinaryOpExpr):
    """Division: true division on floats, truncating on integers (as in C)."""

    symbol = "/"


class Mod(BinaryOpExpr):
    """Truncating remainder (as in C)."""

    symbol = "%"


class FloorDiv(BinaryOpExpr):
    symbol = "//"


class FloorMod(BinaryOpExpr):
    symbol = "%"


class Min(BinaryOpExpr):
    symbol = "min"


class Max(BinaryOpExpr):
    symbol = "max"


class CmpExpr(BinaryOpExpr):
    @staticmethod
    def _result_dtype(a, b):
        return DataType("bool").with_lanes(a.dtype.lanes)


class EQ(CmpExpr):
    symbol = "=="

    def __bool__(self):
        # Lets Vars serve as dict keys and list members: `==` on two nodes means identity.
        return self.a is self.b or _same_constant(self.a, self.b)


class NE(CmpExpr):
    symbol = "!="

    def __bool__(self):
        return not (self.a is self.b or _same_constant(self.a, self.b))


def _same_constant(a, b) -> bool:
    return isinstance(a, (IntImm, FloatImm)) and type(a) is type(b) and a.value == b.value


class LT(CmpExpr):
    symbol = "<"


class LE(CmpExpr):
    symbol = "<="


class GT(CmpExpr):
    symbol = ">"


class GE(CmpExpr):
    symbol = ">="


class And(CmpExpr):
    symbol = "and"

    def __init__(self, a, b, span=None):
        super().__init__(_as_bool(a, "And"), _as_bool(b, "And"), span)


class Or(CmpExpr):
    symbol = "or"

    def __init__(self, a, b, span=None):
        super().__init__(_as_bool(a, "Or"), _as_bool(b, "Or"), span)


def _as_bool(value, who: str) -> PrimExpr:
    expr = convert(value)
    if not expr.dtype.is_bool:
        raise TypeError(f"{who}: expected a bool expression, got dtype {expr.dtype}")
    return expr


class Not(PrimExprWithOp):
    _fields = ("a",)

    def __init__(self, a, span=None):
        a = _as_bool(a, "Not")
        self._set(a=a, dtype=a.dtype, span=span)


class Select(PrimExprWithOp):
    """condition ? true_value : false_value (both sides may be evaluated)."""

    _fields = ("condition", "true_value", "false_value")

    def __init__(self, condition, true_value, false_value, span=None):
        condition = _as_bool(condition, "Select")
        true_value = _operand(true_value, false_value)
        false_value = _operand(false_value, true_value)
        true_value, false_value = _unify(true_value, false_value)
        self._set(
            condition=condition,
            true_value=true_value,
            false_value=false_value,
            dtype=true_value.dtype,
            span=span,
        )


class Let(PrimExprWithOp):
    _fields = ("var", "value", "body")
    _def_fields = ("var",)

    def __init__(self, var, value, body, span=None):
        if not isinstance(var, Var):
            raise TypeError(f"Let: var must be a Var, got {type(var).__name__}")
        value, body = convert(value), convert(body)
        if value.dtype != var.dtype:
            raise TypeError(
                f"Let: value dtype {value.dtype} does not match var {var.name}: {var.dtype}"
            )
        self._set(var=var, value=value, body=body, dtype=body.dtype, span=span)


class CallEffectKind(enum.IntEnum):
    """What calling an op does besides computing its value; purity analysis reads it."""

    EXPR_ANNOTATION = 0
    PURE = 1
    READ_STATE = 2
    UPDATE_STATE = 3
    OPAQUE = 4
    CONTROL_JUMP = 5


class Call(PrimExprWithOp):
    """A call of a registered Op (by Op or name)."""

    _fields = ("dtype", "op", "args")

    def __init__(self, dtype, op, args, span=None):
        if isinstance(op, str):
            op = Op.get(op)
        if not isinstance(op, Op):
            raise TypeError(f"Call: op must be an Op or an op name, got {type(op).__name__}")
        args = tuple(StringImm(a) if isinstance(a, str) else convert(a) for a in args)
        self._set(dtype=DataType(dtype), op=op, args=args, span=span)


class BufferLoad(PrimExprWithOp):
    _fields = ("buffer", "indices")
    _unvisited_fields = ("buffer",)

    def __init__(self, buffer, indices, span=None):
        from .buffer import Buffer

        if not isinstance(buffer, Buffer):
            raise TypeError(f"BufferLoad: buffer must be a Buffer, got {type(buffer).__name__}")
        indices = tuple(convert(i) for i in indices)
        if len(indices) != len(buffer.shape):
            raise ValueError(
                f"BufferLoad: buffer {buffer.name!r} has {len(buffer.shape)} dimensions, "
                f"got {len(indices)} indices"
            )
        for i in indices:
            if not (i.dtype.is_integer):
                raise TypeError(f"BufferLoad: index {i!r} of {buffer.name!r} must be an integer")
        self._set(buffer=buffer, indices=indices, dtype=access_dtype(buffer, indices), span=span)


def access_dtype(buffer, indices) -> DataType:
    """The dtype a load gives or a store takes: a vector index (a Ramp) reads that many elements."""
    lanes = buffer.dtype.lanes
    for index in indices:
        lanes *= index.dtype.lanes
    return buffer.dtype.with_lanes(lanes)


class Ramp(PrimExprWithOp):
    """The vector (base, base + stride, ..., base + (lanes - 1) * stride) of integer indices."""

    _fields = ("base", "stride", "lanes")

    def __init__(self, base, stride, lanes: int, span=None):
        base, stride = convert(base), convert(stride)
        if not isinstance(lanes, int) or isinstance(lanes, bool) or lanes < 2:
            raise ValueError(f"Ramp: lanes must be an int of at least 2, got {lanes!r}")
        for name, value in (("base", base), ("stride", stride)):
            if not value.dtype.is_integer or value.dtype.lanes != 1:
                raise TypeError(f"Ramp: {name} must be a scalar integer, got dtype {value.dtype}")
        base, stride = _unify(base, stride)
        self._set(
            base=base, stride=stride, lanes=lanes, dtype=base.dtype.with_lanes(lanes), span=span
        )


class Broadcast(PrimExprWithOp):
    """A vector of lanes copies of a scalar value."""

    _fields = ("value", "lanes")

    def __init__(self, value, lanes: int, span=None):
        value = convert(value)
        if not isinstance(lanes, int) or isinstance(lanes, bool) or lanes < 2:
            raise ValueError(f"Broadcast: lanes must be an int of at least 2, got {lanes!r}")
        if value.dtype.lanes != 1:
            raise TypeError(f"Broadcast: value must be a scalar, got dtype {value.dtype}")
        self._set(value=value, lanes=lanes, dtype=value.dtype.with_lanes(lanes), span=span)


_INT_FOLDERS.update(
    {
        Add: lambda x, y: x + y,
        Sub: lambda x, y: x - y,
        Mul: lambda x, y: x * y,
        FloorDiv: lambda x, y: x // y,
        FloorMod: lambda x, y: x % y,
        Div: _trunc_div,
        Mod: lambda x, y: x - _trunc_div(x, y) * y,
        Min: min,
        Max: max,
        LT: lambda x, y: x < y,
        LE: lambda x, y: x <= y,
        GT: lambda x, y: x > y,
        GE: lambda x, y: x >= y,
        EQ: lambda x, y: x == y,
        NE: lambda x, y: x != y,
    }
)
