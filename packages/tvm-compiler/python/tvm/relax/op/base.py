"""The op registry helpers and the structural ops: call_tir, call_tir_inplace,
call_dps_packed, call_pure_packed, call_packed, shape_of, null_value, print, assert_op."""

from __future__ import annotations

from tvm.ir.expr import PrimExpr, RelaxExpr
from tvm.ir.op import Op, register_op

from ..expr import Call, ExternFunc, PrimValue, ShapeExpr, StringImm, Tuple
from ..struct_info import (
    ObjectStructInfo,
    PrimStructInfo,
    ShapeStructInfo,
    StructInfo,
    TensorStructInfo,
    TupleStructInfo,
)
from ._utils import arg_sinfo, dims_of, op_name, tensor_arg


def register(name: str, infer, purity: bool = True, description: str = "") -> Op:
    """Register relax.<name> with its struct-info inference (FInferStructInfo: (call, ctx) ->
    StructInfo) and purity (FPurity)."""
    op = register_op(f"relax.{name}", description)
    op.set_attr("FInferStructInfo", infer)
    op.set_attr("FPurity", purity)
    return op


def call_op(name: str, args, attrs=None, sinfo_args=None) -> Call:
    return Call(Op.get(f"relax.{name}"), list(args), attrs, sinfo_args)


def _out_sinfo(who: str, out_sinfo) -> StructInfo:
    items = list(out_sinfo) if isinstance(out_sinfo, (list, tuple)) else [out_sinfo]
    for item in items:
        if not isinstance(item, (TensorStructInfo, TupleStructInfo)):
            raise TypeError(
                f"{who}: out_sinfo must be TensorStructInfo or a list of them, got "
                f"{type(item).__name__}"
            )
    return items[0] if len(items) == 1 else TupleStructInfo(items)


def out_struct_info(who: str, out_sinfo, out_ty):
    """The output struct info given as out_sinfo or by upstream 0.27's name for it, out_ty."""
    if out_sinfo is None and out_ty is None:
        raise TypeError(f"{who}: missing the output struct info (out_sinfo, or out_ty)")
    if out_sinfo is not None and out_ty is not None:
        raise TypeError(f"{who}: give out_sinfo or out_ty (the same argument), not both")
    return out_ty if out_sinfo is None else out_sinfo


def _args_tuple(who: str, args) -> RelaxExpr:
    if isinstance(args, (list, tuple)):
        # a symbolic scalar (`(m,)` with m a TIR variable, as upstream 0.27 passes the scalars
        # it no longer takes as tir_vars) is a PrimValue argument
        return Tuple([PrimValue(a) if isinstance(a, PrimExpr) else a for a in args])
    if isinstance(args, PrimExpr):
        return Tuple([PrimValue(args)])
    if not isinstance(args, RelaxExpr):
        raise TypeError(f"{who}: args must be a relax Expr or a list of them, got {args!r}")
    sinfo = args.__dict__.get("struct_info_")
    if isinstance(args, Tuple) or isinstance(sinfo, TupleStructInfo):
        return args
    return Tuple([args])


def _infer_from_sinfo_args(call, ctx):
    if len(call.sinfo_args) != 1:
        raise ValueError(f"{op_name(call)}: expects one sinfo_args entry, got {call.sinfo_args}")
    return call.sinfo_args[0]


def _same_tensor(a, b) -> bool:
    """Whether tensor struct infos a and b provably describe the same shape and dtype (an
    unknown shape on either side is not a mismatch, only a differing rank or dtype is)."""
    from ..analysis.struct_info_analysis import _same_values

    if not (isinstance(a, TensorStructInfo) and isinstance(b, TensorStructInfo)):
        return False
    if a.dtype != b.dtype or (a.ndim != -1 and b.ndim != -1 and a.ndim != b.ndim):
        return False
    da, db = dims_of(a), dims_of(b)
    return da is None or db is None or _same_values(da, db)


def _describe(sinfo) -> str:
    from ._utils import fmt_shape

    if isinstance(sinfo, TensorStructInfo):
        return f"{fmt_shape(sinfo)} {sinfo.dtype}"
    return type(sinfo).__name__


def _infer_call_tir_inplace(call, ctx):
    """call_tir_inplace's result, after checking that each output written in place has its
    argument's shape and dtype (the kernel writes into that very tensor)."""
    out = _infer_from_sinfo_args(call, ctx)
    outs = list(out.fields) if isinstance(out, TupleStructInfo) else [out]
    attrs = call.attrs
    indices = list(getattr(attrs, "inplace_indices", None) or attrs.get("inplace_indices", ()))
    args = arg_sinfo(call, 1, "args")
    fields = list(args.fields) if isinstance(args, TupleStructInfo) else [args]
    if len(indices) != len(outs):
        raise ValueError(
            f"call_tir_inplace: inplace_indices has {len(indices)} entries but there are "
            f"{len(outs)} outputs; give one index (or -1) per output"
        )
    seen = set()
    for i, (index, sinfo) in enumerate(zip(indices, outs)):
        index = int(index)
        if index == -1:
            continue
        if not 0 <= index < len(fields):
            raise ValueError(
                f"call_tir_inplace: inplace_indices[{i}] = {index} is out of range for "
                f"{len(fields)} arguments"
            )
        if index in seen:
            raise ValueError(
                f"call_tir_inplace: argument {index} is written in place by two outputs"
            )
        seen.add(index)
        arg = fields[index]
        if not _same_tensor(arg, sinfo):
            raise TypeError(
                f"call_tir_inplace: output {i} is written into argument {index}, so it must "
                f"have that argument's shape and dtype: argument {_describe(arg)}, output "
                f"{_describe(sinfo)}"
            )
    return out


def _tir_vars(who, tir_vars):
    if tir_vars is None:
        return []
    if isinstance(tir_vars, ShapeExpr):
        return [tir_vars]
    if not isinstance(tir_vars, (list, tuple)):
        raise TypeError(f"{who}: tir_vars must be a list of PrimExprs, got {tir_vars!r}")
    return [ShapeExpr(list(tir_vars))]


def call_tir(gvar, args, out_sinfo=None, tir_vars=None, *, out_ty=None) -> Call:
    """Call the PrimFunc gvar in destination-passing style: its outputs (out_sinfo, or out_ty
    as upstream 0.27 names it) are allocated by the caller; tir_vars are extra scalar
    arguments."""
    out_sinfo = out_struct_info("call_tir", out_sinfo, out_ty)
    args = _args_tuple("call_tir", args)
    return call_op(
        "call_tir",
        [gvar, args, *_tir_vars("call_tir", tir_vars)],
        sinfo_args=[_out_sinfo("call_tir", out_sinfo)],
    )


def call_tir_inplace(
    gvar, args, inplace_indices, out_sinfo=None, tir_vars=None, *, out_ty=None
) -> Call:
    """call_tir where output i is written into argument inplace_indices[i] (-1: a new tensor)."""
    from .op_attrs import CallTIRInplaceAttrs

    out_sinfo = out_struct_info("call_tir_inplace", out_sinfo, out_ty)
    indices = [inplace_indices] if isinstance(inplace_indices, int) else list(inplace_indices)
    return call_op(
        "call_tir_inplace",
        [gvar, _args_tuple("call_tir_inplace", args), *_tir_vars("call_tir_inplace", tir_vars)],
        CallTIRInplaceAttrs(inplace_indices=tuple(indices)),
        sinfo_args=[_out_sinfo("call_tir_inplace", out_sinfo)],
    )


def call_dps_packed(func, args, out_sinfo=None, *, out_ty=None) -> Call:
    """Call a packed function in destination-passing style."""
    out_sinfo = out_struct_info("call_dps_packed", out_sinfo, out_ty)
    if isinstance(func, str):
        func = ExternFunc(func)
    return call_op(
        "call_dps_packed",
        [func, _args_tuple("call_dps_packed", args)],
        sinfo_args=[_out_sinfo("call_dps_packed", out_sinfo)],
    )


def _sinfo_list(who, sinfo_args):
    if sinfo_args is None:
        return []
    items = list(sinfo_args) if isinstance(sinfo_args, (list, tuple)) else [sinfo_args]
    for item in items:
        if not isinstance(item, StructInfo):
            raise TypeError(f"{who}: sinfo_args must be StructInfo, got {type(item).__name__}")
    return items


def _as_arg(value):
    if isinstance(value, RelaxExpr):
        return value
    if isinstance(value, str):
        return StringImm(value)
    if isinstance(value, (int, float, PrimExpr)):
        return PrimValue(value)
    raise TypeError(f"expected a relax Expr, str or number, got {type(value).__name__}")


def call_pure_packed(func, *args, sinfo_args) -> Call:
    """Call a packed function that the compiler may treat as pure."""
    if isinstance(func, str):
        func = ExternFunc(func)
    items = _sinfo_list("call_pure_packed", sinfo_args)
    if not items:
        raise ValueError("call_pure_packed: sinfo_args must give the result's struct info")
    return call_op("call_pure_packed", [func, *(_as_arg(a) for a in args)], sinfo_args=items)


def call_packed(func, *args, sinfo_args=None) -> Call:
    """Call a packed function (impure) by name; the result has sinfo_args[0] when given."""
    if isinstance(func, str):
        func = ExternFunc(func)
    items = _sinfo_list("call_packed", sinfo_args)
    return Call(func, [_as_arg(a) for a in args], sinfo_args=items or [ObjectStructInfo()])


def call_builtin_with_ctx(func, args, *, sinfo_args=None) -> Call:
    """Call a VM builtin that takes the VM's context first (relax.call_builtin_with_ctx): func
    is its name (or an ExternFunc), args its other arguments (a tuple); the result has
    sinfo_args[0], an opaque object without."""
    if isinstance(func, str):
        func = ExternFunc(func)
    if not isinstance(func, RelaxExpr):
        raise TypeError(
            f"call_builtin_with_ctx: func must be a str or an ExternFunc, got {type(func).__name__}"
        )
    if isinstance(args, (list, tuple)):
        args = Tuple([_as_arg(a) for a in args])
    items = _sinfo_list("call_builtin_with_ctx", sinfo_args)
    return call_op("call_builtin_with_ctx", [func, args], sinfo_args=items)


def _infer_builtin_with_ctx(call, ctx):
    return call.sinfo_args[0] if call.sinfo_args else ObjectStructInfo()


def shape_of(expr) -> Call:
    """The runtime shape of a tensor."""
    return call_op("shape_of", [expr])


def null_value() -> Call:
    """A null object."""
    return call_op("null_value", [])


def _infer_shape_of(call, ctx):
    sinfo = tensor_arg(call, 0, "expr")
    dims = dims_of(sinfo)
    return ShapeStructInfo(dims) if dims is not None else ShapeStructInfo(ndim=sinfo.ndim)


def _infer_call_pure_packed(call, ctx):
    return call.sinfo_args[0] if len(call.sinfo_args) == 1 else TupleStructInfo(call.sinfo_args)


def print(*values, format: str = "") -> Call:  # noqa: A001, A002
    """Print values at run time (impure)."""
    return call_op("print", [StringImm(format), *(_as_arg(v) for v in values)])


def assert_op(condition, format_args=None, format: str = "") -> Call:  # noqa: A002
    """Raise AssertionError with the formatted message at run time when condition is false;
    condition is a scalar bool tensor or a bool PrimValue."""
    if isinstance(condition, (bool, PrimExpr)):
        condition = PrimValue(condition)
    if format_args is None:
        format_args = []
    elif not isinstance(format_args, (list, tuple)):
        format_args = [format_args]
    return call_op("assert_op", [condition, StringImm(format), *(_as_arg(a) for a in format_args)])


def _infer_assert(call, ctx):
    sinfo = arg_sinfo(call, 0, "condition")
    ok = (isinstance(sinfo, PrimStructInfo) and sinfo.dtype == "bool") or (
        isinstance(sinfo, TensorStructInfo)
        and sinfo.dtype in ("bool", "void")
        and sinfo.ndim in (0, -1)
    )
    if not ok:
        raise TypeError(
            f"assert_op: argument 'condition' must be a scalar bool tensor or a bool PrimValue, "
            f"got {sinfo}"
        )
    return TupleStructInfo([])


register("call_tir", _infer_from_sinfo_args)
register("call_tir_inplace", _infer_call_tir_inplace)
register("call_dps_packed", _infer_from_sinfo_args)
register("call_pure_packed", _infer_call_pure_packed)
register("shape_of", _infer_shape_of)
register("call_builtin_with_ctx", _infer_builtin_with_ctx, purity=False)
register("null_value", lambda call, ctx: ObjectStructInfo())
register("print", lambda call, ctx: TupleStructInfo([]), purity=False)
register("assert_op", _infer_assert, purity=False)
