"""FuseTransposeMatmul: matmul(x, permute_dims(w)) with the last two axes of w swapped becomes
one call_tir of an "NT_matmul" kernel reading w untransposed (x @ w^T, not x^T @ w), so no
transposed copy of w is made. Run it before LegalizeOps, as upstream."""

from __future__ import annotations

from tvm.tir import expr as E

from .dead_code_elimination import remove_unused_bindings
from .lowering_utils import ValueTrackingRewriter


def _swaps_last_two(call) -> bool:
    ndim = call.args[0].struct_info.ndim
    if ndim < 2:
        return False
    axes = call.attrs.axes
    if axes is None:
        return ndim == 2
    want = list(range(ndim))
    want[-1], want[-2] = want[-2], want[-1]
    return [int(a) for a in axes] == want


def _nt_matmul(out_dims, out_dtype):
    """A te function (a, b) -> a @ b^T with NumPy batch broadcasting into out_dims."""
    from tvm import te

    def compute(a, b):
        k = te.reduce_axis((0, a.shape[-1]), name="k")
        batch = len(out_dims) - 2

        def index(t, idx):
            dims = list(t.shape[:-2])
            lead = idx[batch - len(dims) : batch] if dims else []
            return [
                0 if isinstance(d, E.IntImm) and d.value == 1 else i for d, i in zip(dims, lead)
            ]

        def body(*idx):
            i, j = idx[-2], idx[-1]
            lhs = a[(*index(a, idx), i, k)]
            rhs = b[(*index(b, idx), j, k)]
            if out_dtype is not None:
                lhs, rhs = lhs.astype(out_dtype), rhs.astype(out_dtype)
            return te.sum(lhs * rhs, axis=k)

        return te.compute(out_dims, body, name="NT_matmul")

    return compute


class _Fuser(ValueTrackingRewriter):
    def __init__(self, builder):
        super().__init__()
        self.builder = builder

    def rewrite_binding(self, binding, emit):

        value = self.tracked_call(binding, "relax.matmul")
        if value is None:
            emit(binding)
            return
        x, wt = value.args
        transpose = self.bound_call(wt, "relax.permute_dims")
        if transpose is None:
            emit(binding)
            return
        w = transpose.args[0]
        out = value.struct_info
        dims = getattr(getattr(out, "shape", None), "values", None)
        if (
            not _swaps_last_two(transpose)
            or x.struct_info.ndim < 2
            or dims is None
            or len(dims) < 2
        ):
            emit(binding)
            return
        out_dtype = value.attrs.out_dtype
        out_dtype = None if str(out_dtype) in ("", "void") else str(out_dtype)
        call = self.builder.call_te(
            _nt_matmul(list(dims), out_dtype), x, w, primfunc_name_hint="NT_matmul"
        )
        emit(binding.with_fields(value=self.builder.normalize(call)))


def FuseTransposeMatmul():  # noqa: N802  (pass constructors are capitalised)
    """The pass (relax.transform.FuseTransposeMatmul)."""
    from tvm.transform import module_pass

    @module_pass(opt_level=0, name="FuseTransposeMatmul")
    def fuse_transpose_matmul(mod, ctx):
        from ..block_builder import BlockBuilder
        from .private_functions import relax_functions

        builder = BlockBuilder(mod)
        changed = False
        for gv, func in relax_functions(mod).items():
            new = _Fuser(builder).rewrite_function(func)
            if new is not func:
                builder.update_func(gv, remove_unused_bindings(new, mod))
                changed = True
        return builder.get() if changed else mod

    return fuse_transpose_matmul
