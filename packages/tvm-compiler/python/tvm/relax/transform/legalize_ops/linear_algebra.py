"""Legalisation of matmul: a te reduction with NumPy's batch broadcasting and 1-D operands."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E
from tvm.topi.broadcast import broadcast_shape

from ...op._utils import dims_of
from .common import assert_dims_agree, fmt_dims, index_at, register_legalize


def matmul_te(a, b, out_dtype=None):
    """a @ b as NumPy's matmul, accumulating in out_dtype (a's dtype by default)."""
    out_dtype = out_dtype or a.dtype
    a_vec, b_vec = len(a.shape) == 1, len(b.shape) == 1
    batch_a = list(a.shape[:-2]) if not a_vec else []
    batch_b = list(b.shape[:-2]) if not b_vec else []
    batch = broadcast_shape("matmul", batch_a, batch_b) if batch_a or batch_b else []
    rows = [] if a_vec else [a.shape[-2]]
    cols = [] if b_vec else [b.shape[-1]]
    k = te.reduce_axis((0, a.shape[-1]), name="k")

    def body(*idx):
        nb = len(batch)
        b_idx = idx[:nb]
        i = None if a_vec else idx[nb]
        j = None if b_vec else idx[-1]
        a_batch = _batch_index(a, b_idx, 1 if a_vec else 2)
        b_batch = _batch_index(b, b_idx, 1 if b_vec else 2)
        a_at = (*a_batch, *(() if a_vec else (i,)), k)
        b_at = (*b_batch, k, *(() if b_vec else (j,)))
        lhs, rhs = a[a_at], b[b_at]
        if str(lhs.dtype) != str(out_dtype):
            lhs, rhs = lhs.astype(out_dtype), rhs.astype(out_dtype)
        return te.sum(lhs * rhs, axis=k)

    return te.compute(batch + rows + cols, body, name="matmul")


def _batch_index(tensor, batch_idx, matrix_dims):
    """The batch part of tensor's index for batch_idx of the broadcast batch shape."""
    batch_ndim = len(tensor.shape) - matrix_dims
    if batch_ndim <= 0:
        return ()

    class _View:
        shape = tensor.shape[:batch_ndim]

        def __getitem__(self, idx):
            return idx

    return tuple(index_at(_View(), batch_idx))


@register_legalize("relax.matmul")
def _matmul(bb, call):
    out_dtype = call.attrs.out_dtype
    out_dtype = None if out_dtype == "void" else out_dtype
    lowered = bb.call_te(
        matmul_te, call.args[0], call.args[1], out_dtype, primfunc_name_hint="matmul"
    )
    a, b = dims_of(call.args[0].struct_info), dims_of(call.args[1].struct_info)
    if a is not None and b is not None:
        # symbolic dims that disagree at run time: the kernel would read past the shorter
        # operand's reduction axis and pair the wrong batches
        k_b = b[-1] if len(b) == 1 else b[-2]
        agree = [E.EQ(a[-1], k_b)]
        for x, y in zip(reversed(a[:-2]), reversed(b[:-2])):
            if not any(isinstance(d, E.IntImm) and d.value == 1 for d in (x, y)):
                agree.append(E.EQ(x, y))  # index_at broadcasts only a constant 1
        message = (
            f"matmul: x1 of shape {fmt_dims(a)} and x2 of shape {fmt_dims(b)} disagree at run "
            "time on the reduction axis or a batch axis"
        )
        assert_dims_agree(bb, lowered, agree, message)
    return lowered
