"""The R.* functions of TVMScript: struct info annotations, binding helpers and every op of
tvm.relax.op under its R. name (looked up generically, not listed one by one)."""

from __future__ import annotations

import builtins as _b
import threading

from tvm import relax as _rx
from tvm.ir.expr import PrimExpr, RelaxExpr
from tvm.relax import op as _op
from tvm.relax.op.base import out_struct_info
from tvm.relax.struct_info import (
    FuncStructInfo,
    ObjectStructInfo,
    PrimStructInfo,
    ShapeStructInfo,
    StructInfo,
    TensorStructInfo,
    TupleStructInfo,
)
from tvm.tir import expr as E

from ..ir import resolve_vdevice

_STATE = threading.local()


def _symbols() -> dict | None:
    """The symbolic dimensions of the function being parsed (name -> int64 tir Var)."""
    return getattr(_STATE, "symbols", None)


def set_symbols(symbols: dict | None):
    previous = _symbols()
    _STATE.symbols = symbols
    return previous


def _symbol(name: _b.str):
    table = _symbols()
    if table is None:  # Python evaluating an annotation before the parser runs
        return E.Var(name, "int64")
    var = table.get(name)
    if var is None:
        var = table[name] = E.Var(name, "int64")
    return var


def _dim_expression(text: _b.str, who: str):
    """A dimension written as an expression of symbolic names ("N-2", "n*4 + 1"), as
    upstream reads them: names are the function's int64 symbolic variables."""
    import ast
    import operator

    binary = {
        ast.Add: operator.add,
        ast.Sub: operator.sub,
        ast.Mult: operator.mul,
        ast.FloorDiv: operator.floordiv,
        ast.Mod: operator.mod,
    }

    def build(node):
        if isinstance(node, ast.Name):
            return _symbol(node.id)
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return E.const(node.value, "int64")
        if isinstance(node, ast.BinOp) and type(node.op) in binary:
            return binary[type(node.op)](build(node.left), build(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return E.const(0, "int64") - build(node.operand)
        raise ValueError(
            f"{who}: dimension {text!r} must be a name or an integer expression of names "
            "(+, -, *, //, %)"
        )

    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise ValueError(f"{who}: dimension {text!r} is not an expression") from None
    return build(tree.body)


def _dim(value, who: str):
    if isinstance(value, _b.str):
        if value.isidentifier():
            return _symbol(value)
        return _dim_expression(value, who)
    if isinstance(value, bool) or not isinstance(value, (int, PrimExpr)):
        raise TypeError(f"{who}: a dimension must be an int, a PrimExpr or a name, got {value!r}")
    return E.const(value, "int64") if isinstance(value, int) else value


def _dims(values, who: str) -> list:
    if not isinstance(values, (list, _b.tuple)):
        raise TypeError(f"{who}: expected a tuple or list of dimensions, got {values!r}")
    return [_dim(v, who) for v in values]


def _dtype(dtype, who: str) -> str:
    from tvm.ir.dtype import DataType

    if dtype is None or (isinstance(dtype, _b.str) and dtype == ""):
        return "void"  # upstream spells an unknown dtype "" as well as None
    text = _b.str(dtype)
    try:
        DataType(text)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{who}: {err}") from None  # names the R. function once
    return text


# -- struct info annotations ------------------------------------------------------------
def Tensor(shape=None, dtype=None, vdevice=None, ndim: int = -1):  # noqa: N802
    """R.Tensor((n, 4), "float32"): a TensorStructInfo; names in the shape are symbolic dims."""
    if isinstance(shape, _b.str) and dtype is None:  # R.Tensor("float32"): only a dtype
        shape, dtype = None, shape
    if shape is not None and not isinstance(shape, RelaxExpr):
        shape = _dims(shape, "R.Tensor")
    if isinstance(vdevice, _b.str) and _symbols() is None:
        vdevice = None  # Python evaluating annotations; the parser evaluates them again
    return TensorStructInfo(
        shape, _dtype(dtype, "R.Tensor"), resolve_vdevice(vdevice, "R.Tensor"), ndim
    )


def Shape(values=None, ndim: int = -1):  # noqa: N802
    """R.Shape([n, 4]) or R.Shape(ndim=2)."""
    return ShapeStructInfo(None if values is None else _dims(values, "R.Shape"), ndim)


def Prim(dtype=None, value=None):  # noqa: N802
    """R.Prim("bool") or R.Prim(value=n)."""
    if isinstance(value, (_b.str, int)) and not isinstance(value, bool):
        value = _dim(value, "R.Prim")
    return PrimStructInfo(dtype, value)


def Tuple(*fields):  # noqa: N802
    """R.Tuple(R.Tensor(...), ...)."""
    if len(fields) == 1 and isinstance(fields[0], (list, _b.tuple)):
        fields = _b.tuple(fields[0])
    return TupleStructInfo([as_struct_info(f, "R.Tuple") for f in fields])


def Object():  # noqa: N802
    """R.Object: any object."""
    return ObjectStructInfo()


def Callable(params=None, ret=None, purity: bool = True):  # noqa: N802
    """R.Callable([params], ret): a function's struct info (params None: opaque)."""
    ret = ObjectStructInfo() if ret is None else as_struct_info(ret, "R.Callable")
    if params is None:
        return FuncStructInfo.opaque_func(ret=ret, purity=purity)
    return FuncStructInfo([as_struct_info(p, "R.Callable") for p in params], ret, purity)


_BARE = (Tensor, Shape, Object, Callable, Tuple)


def as_struct_info(value, who: str) -> StructInfo:
    """value (an annotation) as struct info; a bare R.Tensor or R.Object means 'any'."""
    if value in _BARE:
        return value()
    if not isinstance(value, StructInfo):
        raise TypeError(
            f'{who}: expected struct info such as R.Tensor((n,), "float32"), R.Shape, '
            f"R.Prim, R.Tuple or R.Object, got {value!r}"
        )
    return value


# -- binding helpers the parser gives meaning to ---------------------------------------
class DataflowMarker:
    """What `with R.dataflow():` evaluates to; the parser opens a dataflow block."""


def dataflow() -> DataflowMarker:
    return DataflowMarker()


class OutputMarker:
    def __init__(self, values):
        self.values = values


def output(*values):
    """R.output(y, ...): the dataflow block's results, visible after it."""
    return OutputMarker(values)


class MatchCastMarker:
    def __init__(self, value, struct_info):
        self.value = value
        self.struct_info = struct_info


def match_cast(value, struct_info):
    """y = R.match_cast(x, R.Tensor(...)): bind x as y, checked against struct_info."""
    if not isinstance(value, RelaxExpr):
        raise TypeError(f"R.match_cast: value must be a relax Expr, got {value!r}")
    return MatchCastMarker(value, as_struct_info(struct_info, "R.match_cast"))


class FuncAttrMarker:
    def __init__(self, attrs):
        self.attrs = attrs


def func_attr(attrs: dict):
    """R.func_attr({...}): attributes of the function being parsed."""
    if not isinstance(attrs, dict):
        raise TypeError(f"R.func_attr: expected a dict, got {type(attrs).__name__}")
    return FuncAttrMarker(attrs)


# -- values -----------------------------------------------------------------------------
def const(value, dtype=None):
    """R.const(1.0, "float32"): a constant tensor."""
    return _rx.const(value, dtype)


def prim_value(value):
    """R.prim_value(n): a PrimValue (a Python int is int64)."""
    if isinstance(value, bool):
        value = E.const(value, "bool")
    elif isinstance(value, int):
        value = E.const(value, "int64")
    return _rx.PrimValue(value)


def shape(values):
    """R.shape([n, 4]): a ShapeExpr."""
    return _rx.ShapeExpr(_dims(values, "R.shape"))


def tuple(*fields):  # noqa: A001
    """R.tuple(a, b): a relax Tuple of the fields (R.tuple() is the empty tuple)."""
    return _rx.Tuple([_as_relax(f) for f in fields])


def str(value):  # noqa: A001
    """R.str("text"): a StringImm."""
    return _rx.StringImm(value)


def dtype(value):
    """R.dtype("float32"): a DataTypeImm."""
    return _rx.DataTypeImm(value)


def _sinfo_args(value, who):
    if value is None:
        return None
    items = value if isinstance(value, (list, _b.tuple)) else [value]
    return [as_struct_info(v, who) for v in items]


def _out_sinfo(value, who):
    if isinstance(value, (list, _b.tuple)):
        return [as_struct_info(v, who) for v in value]
    return as_struct_info(value, who)


def _tir_vars(tir_vars):
    if isinstance(tir_vars, _rx.ShapeExpr):
        return list(tir_vars.values)
    return tir_vars


def call_tir(gvar, args, out_sinfo=None, tir_vars=None, *, out_ty=None):
    """R.call_tir(cls.f, (x,), out_sinfo=R.Tensor(...)) (out_ty=: upstream 0.27's name)."""
    out_sinfo = out_struct_info("R.call_tir", out_sinfo, out_ty)
    return _op.call_tir(gvar, args, _out_sinfo(out_sinfo, "R.call_tir"), _tir_vars(tir_vars))


def emit_te(func, *args, **kwargs):
    """R.emit_te(topi.add, x, y): the te computation func(*args) becomes a private PrimFunc of
    the module being parsed (named after func, or primfunc_name_hint=), called through
    R.call_tir on the Relax arguments, as BlockBuilder.call_te does."""
    from tvm.ir.module import GlobalVar

    from ..ir import module_frame

    if not callable(func):
        raise TypeError(f"R.emit_te: func must be a te function, got {type(func).__name__}")
    frame = module_frame()
    if frame is None:
        raise ValueError(
            "R.emit_te must be used inside an @I.ir_module class: the te computation becomes "
            "a PrimFunc of that module"
        )
    builder = _rx.BlockBuilder()
    call = builder.call_te(func, *args, **kwargs)
    built_gv, prim = next(iter(builder.get().functions.items()))
    # The PrimFunc shares the Relax function's symbolic variables (its buffers are shaped by
    # them); structural equality scopes each function's variables, so the printed and parsed
    # module, whose PrimFunc declares its own, is still equal.
    taken = set(frame.reserved_names) | {gv.name_hint for gv in frame.functions}
    name, suffix = built_gv.name_hint, 0
    while name in taken:
        suffix += 1
        name = f"{built_gv.name_hint}{suffix}"
    gv = GlobalVar(name)
    frame.functions[gv] = prim
    return call.with_fields(args=(gv, *call.args[1:]))


def call_tir_inplace(gvar, args, inplace_indices, out_sinfo=None, tir_vars=None, *, out_ty=None):
    """R.call_tir_inplace(cls.f, (x,), inplace_indices=[0], out_sinfo=...)."""
    out_sinfo = out_struct_info("R.call_tir_inplace", out_sinfo, out_ty)
    return _op.call_tir_inplace(
        gvar,
        args,
        inplace_indices,
        _out_sinfo(out_sinfo, "R.call_tir_inplace"),
        _tir_vars(tir_vars),
    )


def call_dps_packed(func, args, out_sinfo=None, *, out_ty=None):
    """R.call_dps_packed("name", (x,), out_sinfo=...)."""
    out_sinfo = out_struct_info("R.call_dps_packed", out_sinfo, out_ty)
    return _op.call_dps_packed(func, args, _out_sinfo(out_sinfo, "R.call_dps_packed"))


def call_packed(func, *args, sinfo_args=None):
    """R.call_packed("name", x, sinfo_args=R.Object). With an R.ExternFunc callee it is the
    lowering's relax.call_packed op (as printed), which means the same call."""
    if isinstance(func, _rx.ExternFunc):
        return GenericOp("relax.call_packed")(func, *args, sinfo_args=sinfo_args)
    return _op.call_packed(func, *args, sinfo_args=_sinfo_args(sinfo_args, "R.call_packed"))


def call_builtin_with_ctx(func, args, *, sinfo_args=None):
    """R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", [R.prim_value(2)], sinfo_args=...):
    a VM builtin called with the VM's context (what VMShapeLower and LowerRuntimeBuiltin emit)."""
    return _op.call_builtin_with_ctx(
        func, args, sinfo_args=_sinfo_args(sinfo_args, "R.call_builtin_with_ctx")
    )


def invoke_closure(closure, args, sinfo_args):
    """R.invoke_closure(f, (x,), sinfo_args=(R.Object,)): sinfo_args in R. spellings, as
    printed (a bare R.Object is the struct info it makes)."""
    return _op.invoke_closure(closure, args, _sinfo_args(sinfo_args, "R.invoke_closure"))


def invoke_pure_closure(closure, args, sinfo_args):
    """R.invoke_pure_closure: invoke_closure of a closure known to be pure."""
    return _op.invoke_pure_closure(closure, args, _sinfo_args(sinfo_args, "R.invoke_pure_closure"))


def call_pure_packed(func, *args, sinfo_args):
    """R.call_pure_packed("name", x, sinfo_args=R.Tensor(...))."""
    return _op.call_pure_packed(
        func, *args, sinfo_args=_sinfo_args(sinfo_args, "R.call_pure_packed")
    )


def _format_text(value):
    return value.value if isinstance(value, _rx.StringImm) else value


def print(*values, format=""):  # noqa: A001, A002
    """R.print(x, format="..."): print at run time."""
    return _op.print(*values, format=_format_text(format))


def assert_op(condition, format_args=None, format=""):  # noqa: A002
    """R.assert_op(cond, format_args, format="..."): fail at run time when cond is false."""
    return _op.assert_op(condition, format_args, format=_format_text(format))


def ExternFunc(global_symbol: str):  # noqa: N802
    """R.ExternFunc("name"): a packed function named at run time."""
    return _rx.ExternFunc(global_symbol)


def _as_relax(value):
    if isinstance(value, RelaxExpr):
        return value
    if isinstance(value, (list, _b.tuple)):
        return _rx.Tuple([_as_relax(v) for v in value])
    if isinstance(value, _b.str):
        return _rx.StringImm(value)
    if isinstance(value, (int, float, PrimExpr)):
        return prim_value(value)
    raise TypeError(f"expected a relax Expr, got {value!r}")


class GenericOp:
    """An op registered as relax.<name> without a constructor in tvm.relax.op (the lowering's
    relax.memory.*, relax.vm.*, relax.call_builtin_with_ctx, ...): a Call of the Op itself."""

    def __init__(self, name: _b.str):
        self.op_name = name
        self.__name__ = name.removeprefix("relax.")
        self.__module__ = __name__

    def __call__(self, *args, sinfo_args=None, **attrs):
        from tvm.ir.op import Op
        from tvm.relax.op.op_attrs import Attrs

        items = _sinfo_args(sinfo_args, f"R.{self.__name__}") or []
        op = Op.get(self.op_name)
        call = _rx.Call(op, [_as_relax(a) for a in args], Attrs(**attrs) if attrs else None, items)
        if op.get_attr("FInferStructInfo") is None and items:
            # no inference: the call's struct info is what sinfo_args says, as lowering made it
            call._fill_late_field(
                "struct_info_", items[0] if len(items) == 1 else TupleStructInfo(items)
            )
        return call


class OpNamespace:
    """R.memory, R.vm, ...: the registered ops under relax.<prefix>."""

    def __init__(self, prefix: _b.str):
        self._prefix = prefix

    def __getattr__(self, name: _b.str):
        return _registered(f"{self._prefix}.{name}")


def _registered(full: _b.str):
    from tvm.ir.op import list_op_names

    names = list_op_names()
    if full in names:
        return GenericOp(full)
    if any(n.startswith(full + ".") for n in names):
        return OpNamespace(full)
    raise AttributeError(
        f"module 'tvm.script.relax' has no attribute {full.removeprefix('relax.')!r}"
    )


def __getattr__(name: _b.str):
    """Every other op of tvm.relax.op (R.add, R.matmul, R.nn, ...) under its own name, and
    every other registered relax.* op as a Call of it."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return getattr(_op, name)
    except AttributeError:
        return _registered(f"relax.{name}")
