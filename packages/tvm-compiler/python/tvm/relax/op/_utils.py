"""Helpers every op family's struct-info inference shares: argument checks, axes, broadcasting,
shape arithmetic on symbolic dimensions."""

from __future__ import annotations

from tvm.tir import expr as E

from ..analysis.struct_info_analysis import _dims, _prove_equal
from ..struct_info import ShapeStructInfo, TensorStructInfo


def op_name(call) -> str:
    return call.op.name.removeprefix("relax.")


def arg_sinfo(call, index: int, arg_name: str):
    """The struct info of argument index; TypeError naming the op when it is not known."""
    if index >= len(call.args):
        raise TypeError(
            f"{op_name(call)}: expected argument {arg_name!r} (number {index}), got "
            f"{len(call.args)} arguments"
        )
    sinfo = call.args[index].__dict__.get("struct_info_")
    if sinfo is None:
        raise ValueError(f"{op_name(call)}: argument {arg_name!r} is not normalised yet")
    return sinfo


def tensor_arg(call, index: int, arg_name: str) -> TensorStructInfo:
    """Argument index's TensorStructInfo, or TypeError naming the op and the argument."""
    sinfo = arg_sinfo(call, index, arg_name)
    if not isinstance(sinfo, TensorStructInfo):
        raise TypeError(
            f"{op_name(call)}: argument {arg_name!r} must be a tensor, got struct info "
            f"{type(sinfo).__name__}"
        )
    return sinfo


def dims_of(sinfo):
    """A tensor's dims as a list of int64 PrimExprs, or None when the shape is unknown."""
    dims = _dims(sinfo)
    return None if dims is None else list(dims)


def provably_unequal(a, b) -> bool:
    """Whether the analyzer can prove a != b (upstream's CanProve(a != b) shape checks)."""
    from tvm.arith import Analyzer
    from tvm.tir import NE

    return Analyzer().can_prove(NE(a, b))


def literal_dims(sinfo):
    """A tensor's dims when its shape is a literal ShapeExpr (not a shape variable, whatever
    that variable's struct info knows), else None: what upstream's `shape.as<ShapeExprNode>()`
    sees."""
    from ..expr import ShapeExpr

    return list(sinfo.shape.values) if isinstance(sinfo.shape, ShapeExpr) else None


def dim_text(dim) -> str:
    """A dimension as an error message shows it: a constant as its number (the printer's
    `T.int64(3)` says nothing a reader of a shape needs), a symbolic one as printed."""
    return str(dim.value) if isinstance(dim, E.IntImm) else str(dim)


def fmt_shape(sinfo) -> str:
    """A tensor's shape (or a list of dims) for an error message: `(2, n)`."""
    dims = dims_of(sinfo) if isinstance(sinfo, TensorStructInfo) else sinfo
    if dims is None:
        return f"(ndim {sinfo.ndim})" if sinfo.ndim != -1 else "(unknown)"
    return "(" + ", ".join(dim_text(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def int64(value):
    if isinstance(value, E.PrimExpr):
        return value if str(value.dtype) == "int64" else value.astype("int64")
    return E.const(int(value), "int64")


def static(value):
    return value.value if isinstance(value, E.IntImm) else None


def normalize_axis(who: str, axis: int, ndim: int, arg: str = "axis") -> int:
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"{who}: {arg} must be an int, got {axis!r}")
    if ndim != -1 and not -ndim <= axis < ndim:
        raise ValueError(f"{who}: {arg} {axis} is out of range for a tensor of {ndim} dimensions")
    return axis % ndim if ndim != -1 else axis


def normalize_axes(who: str, axes, ndim: int, arg: str = "axis") -> list[int]:
    axes = [axes] if isinstance(axes, int) else list(axes)
    out = [normalize_axis(who, a, ndim, arg) for a in axes]
    if len(set(out)) != len(out):
        raise ValueError(f"{who}: {arg} {axes} repeats an axis")
    return out


def simplify(value):
    from tvm.arith import Analyzer

    return Analyzer().simplify(value)


def product(dims):
    out = E.const(1, "int64")
    for d in dims:
        out = out * d
    return simplify(out)


def broadcast_dims(who: str, lhs: TensorStructInfo, rhs: TensorStructInfo, names=("x1", "x2")):
    """NumPy's broadcast of two tensors' shapes: the dims, or None when they are not all
    known (a symbolic dim against another that cannot be proven equal); ValueError naming both
    shapes when two static extents disagree."""
    a, b = dims_of(lhs), dims_of(rhs)
    if a is None or b is None:
        return None
    ndim = max(len(a), len(b))
    a = [E.const(1, "int64")] * (ndim - len(a)) + a
    b = [E.const(1, "int64")] * (ndim - len(b)) + b
    out = []
    unknown = False
    for x, y in zip(a, b):
        sx, sy = static(x), static(y)
        if sx == 1:
            out.append(y)
        elif sy == 1:
            out.append(x)
        elif sx is not None and sy is not None:
            if sx != sy:
                raise ValueError(
                    f"{who}: {names[0]} of shape {fmt_shape(lhs)} and {names[1]} of shape "
                    f"{fmt_shape(rhs)} do not broadcast (extents {sx} and {sy})"
                )
            out.append(x)
        elif _prove_equal(x, y):
            out.append(x)
        else:
            unknown = True
            out.append(x)
    return None if unknown else out


def tensor_sinfo(dims, dtype, vdevice=None, ndim=-1) -> TensorStructInfo:
    """TensorStructInfo from dims (a list, or None for an unknown shape of ndim)."""
    if dims is None:
        return TensorStructInfo(dtype=dtype, vdevice=vdevice, ndim=ndim)
    return TensorStructInfo([simplify(int64(d)) for d in dims], dtype, vdevice)


def shape_arg_values(call, index: int, arg_name: str):
    """The values of a shape argument (a ShapeExpr or an expression with ShapeStructInfo),
    None when only its ndim is known; second result is that ndim."""
    sinfo = arg_sinfo(call, index, arg_name)
    if not isinstance(sinfo, ShapeStructInfo):
        raise TypeError(
            f"{op_name(call)}: argument {arg_name!r} must be a shape, got struct info "
            f"{type(sinfo).__name__}"
        )
    return (None if sinfo.values is None else list(sinfo.values)), sinfo.ndim
