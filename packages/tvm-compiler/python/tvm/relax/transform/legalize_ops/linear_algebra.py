"""Legalisation of matmul: a te reduction with NumPy's batch broadcasting and 1-D operands."""

from __future__ import annotations

from tvm import te
from tvm.topi.broadcast import broadcast_shape

from .common import index_at, register_legalize


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
    return bb.call_te(matmul_te, call.args[0], call.args[1], out_dtype, primfunc_name_hint="matmul")
