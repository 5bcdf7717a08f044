"""Closure ops: make_closure (a module function with trailing arguments bound) and
invoke_closure / invoke_pure_closure (call such a value), what LambdaLift emits."""

from __future__ import annotations

from tvm.ir.expr import RelaxExpr
from tvm.ir.module import GlobalVar

from ..expr import Call, Tuple
from ..struct_info import FuncStructInfo, ObjectStructInfo, StructInfo, TupleStructInfo
from ._utils import arg_sinfo, op_name
from .base import _sinfo_list, call_op, register


def _tuple_arg(who: str, name: str, args) -> RelaxExpr:
    if isinstance(args, (list, tuple)):
        return Tuple(list(args))
    if isinstance(args, Tuple):
        return args
    if isinstance(args, RelaxExpr) and isinstance(
        args.__dict__.get("struct_info_"), TupleStructInfo
    ):
        return args
    raise TypeError(
        f"{who}: argument {name!r} must be a relax Tuple or a list of relax Exprs, got "
        f"{type(args).__name__}"
    )


def make_closure(func, args) -> Call:
    """A closure of the module function func with args bound as its last parameters."""
    if not isinstance(func, GlobalVar):
        raise TypeError(
            f"make_closure: argument 'func' must be a GlobalVar of the module, got "
            f"{type(func).__name__}"
        )
    return call_op("make_closure", [func, _tuple_arg("make_closure", "args", args)])


def _check_closure(who: str, closure) -> None:
    if not isinstance(closure, RelaxExpr):
        raise TypeError(
            f"{who}: argument 'closure' must be a relax Expr, got {type(closure).__name__}"
        )


def invoke_closure(closure, args, sinfo_args) -> Call:
    """Call closure (a value make_closure built, or any callable) on args; the result has
    sinfo_args (impure: the callee may have effects)."""
    _check_closure("invoke_closure", closure)
    args = _tuple_arg("invoke_closure", "args", args)
    items = _sinfo_list("invoke_closure", sinfo_args)
    return call_op("invoke_closure", [closure, args], sinfo_args=items)


def invoke_pure_closure(closure, args, sinfo_args) -> Call:
    """invoke_closure of a closure known to be pure (what LambdaLift emits for pure functions)."""
    _check_closure("invoke_pure_closure", closure)
    args = _tuple_arg("invoke_pure_closure", "args", args)
    items = _sinfo_list("invoke_pure_closure", sinfo_args)
    return call_op("invoke_pure_closure", [closure, args], sinfo_args=items)


def _infer_make_closure(call, ctx) -> StructInfo:
    if not isinstance(call.args[0], GlobalVar):
        raise TypeError(
            f"make_closure: argument 'func' must be a GlobalVar of the module, got "
            f"{type(call.args[0]).__name__}"
        )
    if not isinstance(arg_sinfo(call, 1, "args"), TupleStructInfo):
        raise TypeError("make_closure: argument 'args' must be a tuple of the captured values")
    return ObjectStructInfo()


def _infer_invoke(call, ctx) -> StructInfo:
    who = op_name(call)
    closure = arg_sinfo(call, 0, "closure")
    if not isinstance(closure, (ObjectStructInfo, FuncStructInfo)):
        raise TypeError(
            f"{who}: argument 'closure' must be a closure (Object or Callable struct info), "
            f"got {type(closure).__name__}"
        )
    if not isinstance(arg_sinfo(call, 1, "args"), TupleStructInfo):
        raise TypeError(f"{who}: argument 'args' must be a tuple of the call's arguments")
    items = list(call.sinfo_args)
    if not items:
        return ObjectStructInfo()
    return items[0] if len(items) == 1 else TupleStructInfo(items)


register("make_closure", _infer_make_closure)
register("invoke_closure", _infer_invoke, purity=False)
register("invoke_pure_closure", _infer_invoke)
