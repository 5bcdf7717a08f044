"""Small ops upstream Relax has beside the families: size, outer, masked_fill, ewise_fma, eye,
eye_like (each a constructor, its struct-info inference, and, in legalize_ops, its TIR)."""

from __future__ import annotations

from tvm.tir import expr as E

from ..expr import PrimValue
from ..struct_info import PrimStructInfo, TensorStructInfo
from ._utils import arg_sinfo, dims_of, fmt_shape, tensor_arg, tensor_sinfo
from .base import call_op, register
from .create import _dtype, full_like
from .op_attrs import InitAttrs
from .search import where


def _infer_size(call, ctx):
    tensor_arg(call, 0, "x")
    return TensorStructInfo([], "int64")


register("size", _infer_size)


def size(expr):
    """The number of elements of a tensor, as a 0-d int64 tensor."""
    return call_op("size", [expr])


def _infer_outer(call, ctx):
    x1, x2 = tensor_arg(call, 0, "x1"), tensor_arg(call, 1, "x2")
    for name, sinfo in (("x1", x1), ("x2", x2)):
        if sinfo.ndim not in (-1, 1):
            raise ValueError(f"outer: {name} must be 1-D, got shape {fmt_shape(sinfo)}")
    if "void" not in (x1.dtype, x2.dtype) and x1.dtype != x2.dtype:
        raise TypeError(f"outer: x1 has dtype {x1.dtype} and x2 has dtype {x2.dtype}")
    dtype = x1.dtype if x1.dtype != "void" else x2.dtype
    d1, d2 = dims_of(x1), dims_of(x2)
    if d1 is None or d2 is None:
        return TensorStructInfo(dtype=dtype, ndim=2)
    return tensor_sinfo([d1[0], d2[0]], dtype, x1.vdevice)


register("outer", _infer_outer)


def outer(x1, x2):
    """The outer product of two 1-D tensors: out[i, j] = x1[i] * x2[j]."""
    return call_op("outer", [x1, x2])


def masked_fill(x, mask, value):
    """x with value (a scalar tensor) where mask is true: where(mask, full_like(x, value), x)."""
    return where(mask, full_like(x, value, dtype=_dtype_of(x)), x)


def _dtype_of(x):
    sinfo = getattr(x, "struct_info", None)
    return sinfo.dtype if isinstance(sinfo, TensorStructInfo) and sinfo.dtype != "void" else None


def _infer_fma(call, ctx):
    args = [tensor_arg(call, i, name) for i, name in enumerate(("x1", "x2", "x3"))]
    dtypes = {a.dtype for a in args} - {"void"}
    if len(dtypes) > 1:
        raise TypeError(f"ewise_fma: the arguments have different dtypes {sorted(dtypes)}")
    shapes = [dims_of(a) for a in args]
    known = [s for s in shapes if s is not None]
    for s in known[1:]:
        same = len(s) == len(known[0]) and all(
            not (isinstance(a, E.IntImm) and isinstance(b, E.IntImm)) or a.value == b.value
            for a, b in zip(s, known[0])
        )
        if not same:
            raise ValueError(
                f"ewise_fma: the arguments must have one shape, got "
                f"{', '.join(fmt_shape(a) for a in args)}"
            )
    dtype = dtypes.pop() if dtypes else "void"
    for a in args:
        if dims_of(a) is not None:
            return TensorStructInfo(a.shape, dtype, a.vdevice)
    return TensorStructInfo(dtype=dtype, ndim=args[0].ndim)


register("ewise_fma", _infer_fma)


def ewise_fma(x1, x2, x3):
    """x1 * x2 + x3 elementwise (the three of one shape)."""
    return call_op("ewise_fma", [x1, x2, x3])


def _prim(value, name):
    if isinstance(value, PrimValue):
        return value
    if isinstance(value, (int, E.PrimExpr)) and not isinstance(value, bool):
        return PrimValue(value if isinstance(value, E.PrimExpr) else E.IntImm("int64", value))
    raise TypeError(f"eye: {name} must be an int or PrimExpr, got {type(value).__name__}")


def _infer_eye(call, ctx):
    values = []
    for i, name in enumerate(("n", "m", "k")):
        sinfo = arg_sinfo(call, i, name)
        if not isinstance(sinfo, PrimStructInfo):
            raise TypeError(f"eye: argument {name!r} must be a PrimValue, got {sinfo}")
        values.append(sinfo.value)
    n, m, _ = values
    if n is None or m is None:
        return TensorStructInfo(dtype=call.attrs.dtype, ndim=2)
    return tensor_sinfo([n, m], call.attrs.dtype)


register("eye", _infer_eye)


def eye(n, m=None, k=0, dtype="float32"):
    """An n x m matrix with ones on diagonal k (above the main one when k > 0)."""
    n = _prim(n, "n")
    m = n if m is None else _prim(m, "m")
    return call_op("eye", [n, m, _prim(k, "k")], InitAttrs(dtype=_dtype(dtype)))


def _infer_eye_like(call, ctx):
    x = tensor_arg(call, 0, "x")
    if x.ndim not in (-1, 2):
        raise ValueError(f"eye_like: x must be 2-D, got shape {fmt_shape(x)}")
    dtype = call.attrs.dtype if call.attrs.dtype != "void" else x.dtype
    return TensorStructInfo(x.shape, dtype, x.vdevice, ndim=2)


register("eye_like", _infer_eye_like)


def eye_like(x, k=0, dtype=None):
    """A matrix of x's shape with ones on diagonal k."""
    return call_op("eye_like", [x, _prim(k, "k")], InitAttrs(dtype=_dtype(dtype)))


__all__ = ["ewise_fma", "eye", "eye_like", "masked_fill", "outer", "size"]
