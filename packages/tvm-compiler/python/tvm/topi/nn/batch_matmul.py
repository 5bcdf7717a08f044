"""batch_matmul (3-D, a batch of 1 broadcasts) and nn.matmul (2-D with an optional bias)."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E


def _static(value):
    return value.value if isinstance(value, E.IntImm) else None


def batch_matmul(
    tensor_a,
    tensor_b,
    oshape=None,
    out_dtype=None,
    transpose_a=False,
    transpose_b=True,
    auto_scheduler_rewritten_layout="",
    meta_schedule_original_shape=None,
):
    """out[b] = op(tensor_a[b]) @ op(tensor_b[b]) for 3-D operands (b transposed by
    default, as upstream); a batch extent of 1 serves every batch."""
    for name, t in (("tensor_a", tensor_a), ("tensor_b", tensor_b)):
        if not isinstance(t, te.Tensor) or t.ndim != 3:
            raise ValueError(f"topi.nn.batch_matmul: argument {name!r} must be a 3-D te.Tensor")
    if transpose_a:
        ba, ka, ma = tensor_a.shape[0], tensor_a.shape[1], tensor_a.shape[2]
    else:
        ba, ma, ka = tensor_a.shape
    if transpose_b:
        bb, nb, kb = tensor_b.shape
    else:
        bb, kb, nb = tensor_b.shape
    if None not in (_static(ka), _static(kb)) and _static(ka) != _static(kb):
        raise ValueError(
            f"topi.nn.batch_matmul: the reduced extents differ: {_static(ka)} and {_static(kb)}"
        )
    sa, sb = _static(ba), _static(bb)
    if None not in (sa, sb) and sa != sb and 1 not in (sa, sb):
        raise ValueError(f"topi.nn.batch_matmul: batch extents {sa} and {sb} do not broadcast")
    batch = bb if sa == 1 else ba
    out_dtype = out_dtype or tensor_a.dtype
    k = te.reduce_axis((0, ka), name="k")

    def body(b, i, j):
        pa = 0 if sa == 1 else b
        pb = 0 if sb == 1 else b
        lhs = tensor_a[pa, k, i] if transpose_a else tensor_a[pa, i, k]
        rhs = tensor_b[pb, j, k] if transpose_b else tensor_b[pb, k, j]
        return te.sum(lhs.astype(out_dtype) * rhs.astype(out_dtype), axis=k)

    shape = oshape if oshape is not None else (batch, ma, nb)
    return te.compute(shape, body, name="T_batch_matmul_NT")


def matmul(
    tensor_a,
    tensor_b,
    bias=None,
    out_dtype=None,
    transpose_a=False,
    transpose_b=False,
    auto_scheduler_rewritten_layout="",
    meta_schedule_original_shape=None,
):
    """op(tensor_a) @ op(tensor_b) (+ bias[j]) for 2-D operands."""
    for name, t in (("tensor_a", tensor_a), ("tensor_b", tensor_b)):
        if not isinstance(t, te.Tensor) or t.ndim != 2:
            raise ValueError(f"topi.nn.matmul: argument {name!r} must be a 2-D te.Tensor")
    m, ka = (tensor_a.shape[1], tensor_a.shape[0]) if transpose_a else tensor_a.shape
    kb, n = (tensor_b.shape[1], tensor_b.shape[0]) if transpose_b else tensor_b.shape
    if None not in (_static(ka), _static(kb)) and _static(ka) != _static(kb):
        raise ValueError(
            f"topi.nn.matmul: the reduced extents differ: {_static(ka)} and {_static(kb)}"
        )
    out_dtype = out_dtype or tensor_a.dtype
    k = te.reduce_axis((0, ka), name="k")

    def body(i, j):
        lhs = tensor_a[k, i] if transpose_a else tensor_a[i, k]
        rhs = tensor_b[j, k] if transpose_b else tensor_b[k, j]
        return te.sum(lhs.astype(out_dtype) * rhs.astype(out_dtype), axis=k)

    out = te.compute((m, n), body, name="T_matmul")
    if bias is None:
        return out
    return te.compute(out.shape, lambda i, j: out[i, j] + bias[j].astype(out_dtype), name="T_add")
