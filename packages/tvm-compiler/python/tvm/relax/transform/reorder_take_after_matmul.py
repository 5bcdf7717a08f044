"""ReorderTakeAfterMatmul: matmul(x, take(W, idx, axis=-1)) is take(matmul(x, W), idx,
axis=-1): the columns are selected after the product, so W is used as is (LoRA weights
picked per request). The batched form (take along W's first axis, which upstream rewrites
through einsum) is left alone."""

from __future__ import annotations

from .dead_code_elimination import remove_unused_bindings
from .lowering_utils import ValueTrackingRewriter, relax_function_pass


class _Rewriter(ValueTrackingRewriter):
    def rewrite_binding(self, binding, emit):
        from ..block_builder import BlockBuilder
        from ..expr import DataflowVar, Var, VarBinding
        from ..op import matmul, take

        value = self.tracked_call(binding, "relax.matmul")
        if value is None:
            emit(binding)
            return
        x, rhs = value.args
        picked = self.bound_call(rhs, "relax.take")
        if picked is None:
            emit(binding)
            return
        weights, indices = picked.args
        w_ndim = weights.struct_info.ndim
        x_ndim = x.struct_info.ndim
        axis = picked.attrs.axis
        if w_ndim < 2 or x_ndim < 2 or axis is None or int(axis) % w_ndim != w_ndim - 1:
            emit(binding)
            return
        if indices.struct_info.ndim != 1:
            emit(binding)
            return
        out_dtype = value.attrs.out_dtype
        out_dtype = None if str(out_dtype) in ("", "void") else out_dtype
        bb = BlockBuilder()
        product = bb.normalize(matmul(x, weights, out_dtype))
        cls = DataflowVar if self.in_dataflow else Var
        product_var = cls("lv", product.struct_info)
        emit(VarBinding(product_var, product))
        result = take(
            product_var, indices, axis=product.struct_info.ndim - 1, mode=picked.attrs.mode
        )
        emit(binding.with_fields(value=bb.normalize(result)))


def ReorderTakeAfterMatmul():  # noqa: N802  (pass constructors are capitalised)
    """The pass (relax.transform.ReorderTakeAfterMatmul)."""

    @relax_function_pass("ReorderTakeAfterMatmul")
    def reorder_take_after_matmul(func, mod, ctx):
        new = _Rewriter().rewrite_function(func)
        return func if new is func else remove_unused_bindings(new, mod)

    return reorder_take_after_matmul
