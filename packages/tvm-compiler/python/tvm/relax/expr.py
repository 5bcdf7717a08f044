"""Relax expressions, bindings and functions: the graph-level IR's nodes (type keys "relax.*")."""

from __future__ import annotations

from tvm.ir.expr import PrimExpr, RelaxExpr
from tvm.ir.module import BaseFunc, GlobalVar
from tvm.ir.node import Node
from tvm.ir.op import Op
from tvm.ir.structural import tensor_content

from .struct_info import (
    FuncStructInfo,
    ObjectStructInfo,
    PrimStructInfo,
    ShapeStructInfo,
    StructInfo,
    TensorStructInfo,
    TupleStructInfo,
    _prim_value,
)


def _sinfo_of(expr):
    """The struct info of expr, or None while it is not normalised."""
    return expr.__dict__.get("struct_info_")


def _check_expr(value, who: str, what: str):
    if not isinstance(value, RelaxExpr):
        raise TypeError(f"{who}: {what} must be a relax Expr, got {type(value).__name__}")
    return value


def _check_sinfo(value, who: str, what: str):
    if value is not None and not isinstance(value, StructInfo):
        raise TypeError(f"{who}: {what} must be a StructInfo, got {type(value).__name__}")
    return value


class Expr(RelaxExpr):
    """Base of Relax's expressions (tvm.relax.Expr)."""

    _key_namespace = "relax"
    _ignored_fields = ("span",)
    __hash__ = object.__hash__

    def _rebuild(self, changes: dict):
        # Rebuilt through the constructor: struct info that depended on the old children is
        # dropped (a normaliser derives it again) and the constructor's checks run.
        fields = {name: changes.get(name, getattr(self, name)) for name in self._fields}
        return type(self)(**fields, span=getattr(self, "span", None))


class ExprWithOp(Expr):
    """An expression with Python operators that build Relax op calls."""

    def astype(self, dtype):
        from . import op

        return op.astype(self, dtype)

    def __neg__(self):
        from . import op

        return op.negative(self)

    def __add__(self, other):
        from . import op

        return op.add(self, _as_operand(other))

    def __radd__(self, other):
        from . import op

        return op.add(_as_operand(other), self)

    def __sub__(self, other):
        from . import op

        return op.subtract(self, _as_operand(other))

    def __rsub__(self, other):
        from . import op

        return op.subtract(_as_operand(other), self)

    def __mul__(self, other):
        from . import op

        return op.multiply(self, _as_operand(other))

    def __rmul__(self, other):
        from . import op

        return op.multiply(_as_operand(other), self)

    def __truediv__(self, other):
        from . import op

        return op.divide(self, _as_operand(other))

    def __rtruediv__(self, other):
        from . import op

        return op.divide(_as_operand(other), self)

    def __floordiv__(self, other):
        from . import op

        return op.floor_divide(self, _as_operand(other))

    def __pow__(self, other):
        from . import op

        return op.power(self, _as_operand(other))

    def __lt__(self, other):
        from . import op

        return op.less(self, _as_operand(other))

    def __le__(self, other):
        from . import op

        return op.less_equal(self, _as_operand(other))

    def __gt__(self, other):
        from . import op

        return op.greater(self, _as_operand(other))

    def __ge__(self, other):
        from . import op

        return op.greater_equal(self, _as_operand(other))

    def __call__(self, *args, attrs=None):
        return Call(self, [_as_operand(a) for a in args], attrs)

    def __getitem__(self, index):
        if not isinstance(index, int):
            raise TypeError(f"{type(self).__name__}[...]: index must be an int, got {index!r}")
        return TupleGetItem(self, index)


def _as_operand(value):
    if isinstance(value, Expr):
        return value
    if isinstance(value, (bool, int, float)):
        return const(value)
    raise TypeError(f"relax operator: expected a relax Expr or a number, got {value!r}")


class Id(Node):
    """The identity of a Relax variable (tvm.relax.Id); only its name is visible."""

    _fields = ("name_hint",)

    def __init__(self, name_hint: str):
        self._set(name_hint=name_hint)


class Var(ExprWithOp):
    """A variable, bound by a function parameter, a VarBinding or a MatchCast."""

    _fields = ("name_hint",)
    _ignored_fields = ("span", "name_hint")
    _is_var = True
    # Two variables can stand for each other only when their struct info agrees; symbolic
    # dimensions in it are defined where the variable is defined.
    _var_compare_fields = ("struct_info_",)

    def __init__(self, name_hint: str = "v", struct_info: StructInfo | None = None, span=None):
        if isinstance(name_hint, Id):
            name_hint = name_hint.name_hint
        if not isinstance(name_hint, str):
            raise TypeError(
                f"{type(self).__name__}: name_hint must be a str, got {type(name_hint).__name__}"
            )
        _check_sinfo(struct_info, type(self).__name__, "struct_info")
        self._set(name_hint=name_hint, struct_info_=struct_info, span=span)

    @property
    def vid(self) -> Id:
        return Id(self.name_hint)

    @property
    def name(self) -> str:
        """The variable's name (upstream's newer spelling of name_hint)."""
        return self.name_hint


class DataflowVar(Var):
    """A variable local to a dataflow block: invisible outside it."""


class Constant(ExprWithOp):
    """A constant tensor (tvm.runtime.Tensor); compared by dtype, shape and content."""

    _fields = ("data", "_content")
    _ignored_fields = ("span", "data")
    _unvisited_fields = ("data",)

    def __init__(self, data, struct_info: StructInfo | None = None, span=None):
        import numpy as np
        import tvm.runtime

        if not isinstance(data, tvm.runtime.Tensor):
            data = tvm.runtime.tensor(np.asarray(data))
        array = data.numpy()
        content = tensor_content(array)
        if struct_info is None:
            struct_info = TensorStructInfo(list(array.shape), str(data.dtype))
        _check_sinfo(struct_info, "Constant", "struct_info")
        self._set(data=data, _content=content, struct_info_=struct_info, span=span)

    def _rebuild(self, changes):
        return self  # a leaf


class PrimValue(ExprWithOp):
    """A scalar value (a PrimExpr: a constant or an expression of symbolic dimensions)."""

    _fields = ("value",)

    def __init__(self, value, span=None):
        value = _prim_value(value, "PrimValue")
        self._set(value=value, struct_info_=PrimStructInfo(value=value), span=span)


class ShapeExpr(ExprWithOp):
    """A shape made of int64 PrimExprs."""

    _fields = ("values",)

    def __init__(self, values, span=None):
        if isinstance(values, ShapeExpr):
            values = values.values
        if not isinstance(values, (list, tuple)):
            raise TypeError(
                f"ShapeExpr: values must be a list of dimensions, got {type(values).__name__}"
            )
        dims = []
        for i, v in enumerate(values):
            dim = _prim_value(v, "ShapeExpr")
            if not (dim.dtype.is_int or dim.dtype.is_uint):
                raise TypeError(
                    f"ShapeExpr: dimension {i} must be an integer, got dtype {dim.dtype}"
                )
            dims.append(dim if str(dim.dtype) == "int64" else dim.astype("int64"))
        dims = tuple(dims)
        self._set(values=dims, struct_info_=ShapeStructInfo(dims), span=span)

    def __len__(self):
        return len(self.values)

    def __getitem__(self, index):
        return self.values[index]


class StringImm(ExprWithOp):
    """A string value."""

    _fields = ("value",)

    def __init__(self, value: str, span=None):
        if not isinstance(value, str):
            raise TypeError(f"StringImm: value must be a str, got {type(value).__name__}")
        self._set(value=value, struct_info_=ObjectStructInfo(), span=span)


class DataTypeImm(ExprWithOp):
    """A dtype value."""

    _fields = ("value",)

    def __init__(self, value, span=None):
        from tvm.ir.dtype import DataType

        self._set(value=str(DataType(value)), struct_info_=ObjectStructInfo(), span=span)


class Tuple(ExprWithOp):
    """A tuple of expressions."""

    _fields = ("fields",)

    def __init__(self, fields, span=None):
        if isinstance(fields, Expr):
            raise TypeError("Tuple: fields must be a list of expressions, got one Expr")
        fields = tuple(_check_expr(f, "Tuple", f"field {i}") for i, f in enumerate(fields))
        sinfos = [_sinfo_of(f) for f in fields]
        sinfo = TupleStructInfo(sinfos) if all(s is not None for s in sinfos) else None
        self._set(fields=fields, struct_info_=sinfo, span=span)

    def __len__(self):
        return len(self.fields)

    def __getitem__(self, index):
        return self.fields[index]


class TupleGetItem(ExprWithOp):
    """Field `index` of a tuple."""

    _fields = ("tuple_value", "index")

    def __init__(self, tuple_value, index: int, span=None):
        _check_expr(tuple_value, "TupleGetItem", "tuple_value")
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise ValueError(f"TupleGetItem: index must be a non-negative int, got {index!r}")
        sinfo = _sinfo_of(tuple_value)
        field = None
        if isinstance(sinfo, TupleStructInfo):
            if index >= len(sinfo.fields):
                raise IndexError(
                    f"TupleGetItem: index {index} is out of range for a tuple of "
                    f"{len(sinfo.fields)} fields"
                )
            field = sinfo.fields[index]
        elif sinfo is not None and not isinstance(sinfo, ObjectStructInfo):
            raise TypeError(f"TupleGetItem: tuple_value must be a tuple, got struct info {sinfo}")
        self._set(tuple_value=tuple_value, index=index, struct_info_=field, span=span)


class Call(ExprWithOp):
    """A call of an Op, a function-valued expression (Var, GlobalVar, ExternFunc, Function)
    with args, op attributes and, for ops that cannot infer it, the result's struct info."""

    _fields = ("op", "args", "attrs", "sinfo_args")
    _unvisited_fields = ("attrs", "sinfo_args")

    def __init__(self, op, args, attrs=None, sinfo_args=None, span=None):
        if not isinstance(op, (Op, RelaxExpr)):
            raise TypeError(f"Call: op must be an Op or a relax Expr, got {type(op).__name__}")
        args = tuple(_check_expr(a, "Call", f"argument {i}") for i, a in enumerate(args))
        sinfo_args = tuple(_check_sinfo(s, "Call", "sinfo_args entry") for s in (sinfo_args or ()))
        self._set(
            op=op, args=args, attrs=attrs, sinfo_args=sinfo_args, struct_info_=None, span=span
        )

    @property
    def ty_args(self):
        """The 0.26+ name of sinfo_args (upstream renamed StructInfo to Type)."""
        return self.sinfo_args


class If(ExprWithOp):
    """cond ? true_branch : false_branch; cond is a scalar bool tensor or a bool PrimValue."""

    _fields = ("cond", "true_branch", "false_branch")

    def __init__(self, cond, true_branch, false_branch, span=None):
        _check_expr(cond, "If", "cond")
        _check_expr(true_branch, "If", "true_branch")
        _check_expr(false_branch, "If", "false_branch")
        self._set(
            cond=cond,
            true_branch=true_branch,
            false_branch=false_branch,
            struct_info_=None,
            span=span,
        )


class Binding(Node):
    """Base of VarBinding and MatchCast: a variable bound to a value."""

    _key_namespace = "relax"
    __hash__ = object.__hash__

    def _rebuild(self, changes: dict):
        fields = {name: changes.get(name, getattr(self, name)) for name in self._fields}
        return type(self)(**fields, span=getattr(self, "span", None))


class VarBinding(Binding):
    """var = value."""

    _fields = ("var", "value")
    _def_fields = ("var",)

    def __init__(self, var, value, span=None):
        if not isinstance(var, Var):
            raise TypeError(f"VarBinding: var must be a relax Var, got {type(var).__name__}")
        _check_expr(value, "VarBinding", "value")
        self._set(var=var, value=value, span=span)


class MatchCast(Binding):
    """var = value, checked (at run time if need be) to have struct_info; symbolic
    dimensions first seen in struct_info are defined by the match."""

    _fields = ("var", "value", "struct_info")
    _def_fields = ("var", "struct_info")
    _unvisited_fields = ("struct_info",)

    def __init__(self, var, value, struct_info, span=None):
        if not isinstance(var, Var):
            raise TypeError(f"MatchCast: var must be a relax Var, got {type(var).__name__}")
        _check_expr(value, "MatchCast", "value")
        if not isinstance(struct_info, StructInfo):
            raise TypeError(
                f"MatchCast: struct_info must be a StructInfo, got {type(struct_info).__name__}"
            )
        self._set(var=var, value=value, struct_info=struct_info, span=span)

    @property
    def ty(self):
        """The 0.26+ name of struct_info (upstream renamed StructInfo to Type)."""
        return self.struct_info


class BindingBlock(Node):
    """A sequence of bindings."""

    _fields = ("bindings",)
    _key_namespace = "relax"
    __hash__ = object.__hash__

    def __init__(self, bindings, span=None):
        bindings = tuple(bindings)
        for i, b in enumerate(bindings):
            if not isinstance(b, Binding):
                raise TypeError(
                    f"{type(self).__name__}: binding {i} must be a VarBinding or MatchCast, "
                    f"got {type(b).__name__}"
                )
        self._set(bindings=bindings, span=span)

    def _rebuild(self, changes: dict):
        return type(self)(changes.get("bindings", self.bindings), span=self.span)


class DataflowBlock(BindingBlock):
    """A block of pure bindings whose DataflowVars are local to it."""


class SeqExpr(ExprWithOp):
    """Blocks of bindings followed by a body expression."""

    _fields = ("blocks", "body")

    def __init__(self, blocks, body, span=None):
        blocks = tuple(blocks)
        for i, b in enumerate(blocks):
            if not isinstance(b, BindingBlock):
                raise TypeError(
                    f"SeqExpr: block {i} must be a BindingBlock, got {type(b).__name__}"
                )
        _check_expr(body, "SeqExpr", "body")
        self._set(blocks=blocks, body=body, struct_info_=_sinfo_of(body), span=span)


def _refined_ret(ret, body_sinfo, params):
    """The body's struct info where it is finer than the declared return struct info (upstream's
    Function does the same), when it names no symbolic dimension the parameters do not define."""
    if body_sinfo is None or body_sinfo is ret:
        return ret
    from .analysis.struct_info_analysis import struct_info_base_check, tir_vars_in

    if not struct_info_base_check(ret, body_sinfo):
        return ret
    defined = {id(v) for v in tir_vars_in([_sinfo_of(p) for p in params])}
    if any(id(v) not in defined for v in tir_vars_in(body_sinfo)):
        return ret
    if _shape_held_by_var(body_sinfo):
        return ret  # a shape held by a Relax variable of the body is out of scope outside it
    return body_sinfo


def _shape_held_by_var(sinfo) -> bool:
    from .struct_info import FuncStructInfo, TensorStructInfo, TupleStructInfo

    if isinstance(sinfo, TensorStructInfo):
        return sinfo.shape is not None and not isinstance(sinfo.shape, ShapeExpr)
    if isinstance(sinfo, TupleStructInfo):
        return any(_shape_held_by_var(f) for f in sinfo.fields)
    return isinstance(sinfo, FuncStructInfo)


class Function(BaseFunc, ExprWithOp):
    """A Relax function. Public when attrs carry "global_symbol", private otherwise."""

    _fields = ("params", "body", "ret_struct_info", "is_pure", "attrs")
    _def_fields = ("params",)
    _unvisited_fields = ("ret_struct_info", "attrs")
    _key_namespace = "relax"
    _type_key = "relax.Function"
    __hash__ = object.__hash__

    def __init__(
        self, params, body, ret_struct_info=None, is_pure: bool = True, attrs=None, span=None
    ):
        params = tuple(params)
        for i, p in enumerate(params):
            if not isinstance(p, Var):
                raise TypeError(f"Function: param {i} must be a relax Var, got {type(p).__name__}")
            if _sinfo_of(p) is None:
                raise ValueError(f"Function: param {p.name_hint!r} has no struct info")
        _check_expr(body, "Function", "body")
        _check_sinfo(ret_struct_info, "Function", "ret_struct_info")
        if ret_struct_info is None:
            ret_struct_info = _sinfo_of(body)
        else:
            ret_struct_info = _refined_ret(ret_struct_info, _sinfo_of(body), params)
        attrs = dict(attrs.items() if hasattr(attrs, "items") else (attrs or {}))
        sinfo = (
            FuncStructInfo([_sinfo_of(p) for p in params], ret_struct_info, bool(is_pure))
            if ret_struct_info is not None
            else None
        )
        self._set(
            params=params,
            body=body,
            ret_struct_info=ret_struct_info,
            is_pure=bool(is_pure),
            attrs=attrs,
            struct_info_=sinfo,
            span=span,
        )

    def _rebuild(self, changes: dict):
        return Expr._rebuild(self, changes)

    def with_fields(self, **changes):
        # The function's struct info follows its params, result and purity.
        new = super().with_fields(**changes)
        if new is self or not {"params", "ret_struct_info", "is_pure"} & set(changes):
            return new
        return Function(new.params, new.body, new.ret_struct_info, new.is_pure, new.attrs, new.span)

    @staticmethod
    def create_empty(params, ret_struct_info, is_pure: bool = True, attrs=None, span=None):
        """A function with no body yet (a placeholder for a recursive or forward reference)."""
        body = Var("_empty", ret_struct_info)
        return Function(params, body, ret_struct_info, is_pure, attrs, span)

    def __call__(self, *args):
        return Call(self, [_as_operand(a) for a in args])

    @property
    def ret_ty(self):
        """The 0.26+ name of ret_struct_info (upstream renamed StructInfo to Type)."""
        return self.ret_struct_info

    def bind_params(self, binding_map) -> Function:
        """This function with params (keyed by Var or by name) replaced by values: relax
        Exprs as they are, arrays as Constants; the bound params leave the signature."""
        from .transform.bind_params import bind_params

        if not hasattr(binding_map, "items"):
            got = type(binding_map).__name__
            raise TypeError(f"Function.bind_params: binding_map must be a dict, got {got}")
        return bind_params(self, dict(binding_map.items()))


class ExternFunc(BaseFunc, ExprWithOp):
    """A function found by name at run time (a packed function)."""

    _fields = ("global_symbol",)
    _key_namespace = "relax"
    _type_key = "relax.ExternFunc"
    __hash__ = object.__hash__

    def __init__(self, global_symbol: str, struct_info: StructInfo | None = None, span=None):
        if not isinstance(global_symbol, str) or not global_symbol:
            raise ValueError(
                f"ExternFunc: global_symbol must be a non-empty str, got {global_symbol!r}"
            )
        if struct_info is None:
            struct_info = FuncStructInfo.opaque_func()
        _check_sinfo(struct_info, "ExternFunc", "struct_info")
        self._set(global_symbol=global_symbol, attrs={}, struct_info_=struct_info, span=span)

    def _rebuild(self, changes):
        return self  # a leaf


def extern(name: str, struct_info: StructInfo | None = None, span=None) -> ExternFunc:
    """An ExternFunc naming a packed function."""
    return ExternFunc(name, struct_info, span)


def const(value, dtype: str | None = None, span=None) -> Constant:
    """A Constant from a scalar, a nested list, a NumPy array or a tvm Tensor.

    Without dtype, as in apache-tvm, Python ints (and lists of them) become int32 and Python
    floats float32; ints outside int32's range stay int64 rather than wrap. A NumPy array or
    Tensor keeps its own dtype."""
    import numpy as np
    import tvm.runtime

    if isinstance(value, tvm.runtime.Tensor):
        if dtype is not None and str(value.dtype) != str(dtype):
            value = value.numpy().astype(dtype)
        return Constant(value, span=span)
    if isinstance(value, bool):
        dtype = dtype or "bool"
    elif isinstance(value, float):
        dtype = dtype or "float32"
    array = np.asarray(value, dtype=dtype)
    if dtype is None and not isinstance(value, (np.ndarray, np.generic)):
        if array.dtype == np.float64:
            array = array.astype("float32")
        elif array.dtype == np.int64 and _fits_int32(array):
            array = array.astype("int32")
    return Constant(tvm.runtime.tensor(array), span=span)


def _fits_int32(array) -> bool:
    return array.size == 0 or (int(array.min()) >= -(2**31) and int(array.max()) < 2**31)


def prim_value(value, span=None) -> PrimValue:
    return PrimValue(value, span)


def get_shape_of(expr):
    """The shape of a tensor expression: its ShapeExpr when known, else a shape_of call."""
    sinfo = _sinfo_of(expr)
    if not isinstance(sinfo, TensorStructInfo):
        raise TypeError(f"get_shape_of: expected a tensor expression, got struct info {sinfo}")
    if sinfo.shape is not None:
        return sinfo.shape
    from .op import shape_of

    return shape_of(expr)


__all__ = [
    "Binding",
    "BindingBlock",
    "Call",
    "Constant",
    "DataTypeImm",
    "DataflowBlock",
    "DataflowVar",
    "Expr",
    "ExprWithOp",
    "ExternFunc",
    "Function",
    "GlobalVar",
    "Id",
    "If",
    "MatchCast",
    "PrimExpr",
    "PrimValue",
    "SeqExpr",
    "ShapeExpr",
    "StringImm",
    "Tuple",
    "TupleGetItem",
    "Var",
    "VarBinding",
    "const",
    "extern",
    "get_shape_of",
    "prim_value",
]


def _update_struct_info(expr: Expr, struct_info: StructInfo) -> None:
    """Give expr (one not normalised yet: a fresh GlobalVar, Call, ...) its struct info, as
    upstream's helper of that name does; an expr that already has other struct info keeps it
    and this raises ValueError."""
    _check_expr(expr, "_update_struct_info", "expr")
    if not isinstance(struct_info, StructInfo):
        got = type(struct_info).__name__
        raise TypeError(f"_update_struct_info: struct_info must be a StructInfo, got {got}")
    expr._fill_late_field("struct_info_", struct_info)
