"""matmul (batched, broadcasting the batch dims as NumPy does) and linear."""

from __future__ import annotations

from tvm.tir import expr as E

from ..struct_info import TensorStructInfo
from ._utils import (
    arg_sinfo,
    broadcast_dims,
    dims_of,
    fmt_shape,
    static,
    tensor_arg,
    tensor_sinfo,
)
from .base import call_op, register
from .op_attrs import EinsumAttrs, MatmulAttrs


def _infer_matmul(call, ctx):
    a, b = tensor_arg(call, 0, "x1"), tensor_arg(call, 1, "x2")
    out_dtype = call.attrs.out_dtype if call.attrs is not None else "void"
    if out_dtype == "void":
        if "void" not in (a.dtype, b.dtype) and a.dtype != b.dtype:
            raise TypeError(
                f"matmul: x1 has dtype {a.dtype} and x2 has dtype {b.dtype}; they must be "
                "equal unless out_dtype is given"
            )
        out_dtype = a.dtype if a.dtype != "void" else b.dtype
    for sinfo, name in ((a, "x1"), (b, "x2")):
        if sinfo.ndim == 0:
            raise ValueError(f"matmul: {name} must have at least one dimension, got a scalar")
    vdevice = a.vdevice or b.vdevice
    if a.ndim == -1 or b.ndim == -1:
        return TensorStructInfo(dtype=out_dtype, vdevice=vdevice, ndim=-1)
    out_ndim = max(a.ndim, b.ndim) - (a.ndim == 1) - (b.ndim == 1)
    if a.ndim == 1 and b.ndim == 1:
        out_ndim = 0
    da, db = dims_of(a), dims_of(b)
    if da is None or db is None:
        return TensorStructInfo(dtype=out_dtype, vdevice=vdevice, ndim=out_ndim)
    a_mat = ([E.const(1, "int64")] + da) if a.ndim == 1 else da
    b_mat = (db + [E.const(1, "int64")]) if b.ndim == 1 else db
    k_a, k_b = a_mat[-1], b_mat[-2]
    if static(k_a) is not None and static(k_b) is not None and static(k_a) != static(k_b):
        raise ValueError(
            f"matmul: x1 of shape {fmt_shape(a)} and x2 of shape {fmt_shape(b)} disagree on "
            f"the reduction axis ({k_a} vs {k_b})"
        )
    batch_a = TensorStructInfo(a_mat[:-2], a.dtype) if len(a_mat) > 2 else None
    batch_b = TensorStructInfo(b_mat[:-2], b.dtype) if len(b_mat) > 2 else None
    if batch_a is not None and batch_b is not None:
        try:
            batch = broadcast_dims("matmul", batch_a, batch_b)
        except ValueError:
            raise ValueError(
                f"matmul: x1 of shape {fmt_shape(a)} and x2 of shape {fmt_shape(b)} have batch "
                "dimensions that do not broadcast"
            ) from None
        if batch is None:
            return TensorStructInfo(dtype=out_dtype, vdevice=vdevice, ndim=out_ndim)
    else:
        batch = a_mat[:-2] if batch_a is not None else b_mat[:-2]
    out = list(batch)
    if a.ndim != 1:
        out.append(a_mat[-2])
    if b.ndim != 1:
        out.append(b_mat[-1])
    return tensor_sinfo(out, out_dtype, vdevice)


register("matmul", _infer_matmul)


def matmul(x1, x2, out_dtype=None):
    """The matrix product of x1 and x2 (NumPy's matmul: 1-D operands, broadcast batches)."""
    return call_op("matmul", [x1, x2], MatmulAttrs(out_dtype=str(out_dtype or "void")))


def linear(data, weight, bias=None, out_dtype=None):
    """data @ weight.T (+ bias): a fully connected layer, weight of shape (out, in)."""
    from .manipulate import permute_dims

    out = matmul(data, permute_dims(weight), out_dtype)
    if bias is not None:
        from .binary import add

        out = add(out, bias)
    return out


__all__ = ["linear", "matmul"]


def _infer_einsum(call, ctx):
    from tvm.topi.einsum import einsum_shape

    from ..struct_info import TupleStructInfo

    operands = arg_sinfo(call, 0, "operands")
    if not isinstance(operands, TupleStructInfo):
        raise TypeError("einsum: argument 'operands' must be a tuple of tensors")
    fields = list(operands.fields)
    if not all(isinstance(f, TensorStructInfo) for f in fields):
        raise TypeError("einsum: argument 'operands' must be a tuple of tensors")
    dtypes = {f.dtype for f in fields} - {"void"}
    if len(dtypes) > 1:
        raise TypeError(f"einsum: the operands have different dtypes {sorted(dtypes)}")
    dtype = dtypes.pop() if dtypes else "void"
    shapes = [dims_of(f) for f in fields]
    if any(shape is None for shape in shapes):
        return TensorStructInfo(dtype=dtype, ndim=-1)
    try:
        out = einsum_shape(call.attrs.subscripts, shapes)
    except ValueError as err:
        raise ValueError(str(err).replace("topi.einsum", "einsum", 1)) from None
    return tensor_sinfo(out, dtype, fields[0].vdevice)


register("einsum", _infer_einsum)


def einsum(operands, subscripts: str):
    """NumPy's einsum of the operands (a list or tuple of tensors) by subscripts."""
    from ..expr import Tuple

    if not isinstance(subscripts, str):
        raise TypeError(f"einsum: subscripts must be a str, got {type(subscripts).__name__}")
    if isinstance(operands, (list, tuple)):
        operands = Tuple(list(operands))
    return call_op("einsum", [operands], EinsumAttrs(subscripts=subscripts))
