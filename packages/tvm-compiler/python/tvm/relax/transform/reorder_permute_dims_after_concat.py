"""ReorderPermuteDimsAfterConcat: concat(permute_dims(A, p), permute_dims(B, p), axis=k) is
permute_dims(concat(A, B, axis=p[k]), p): one transpose after the concat, so that the
matmul(x, permute_dims(W)) pattern of a linear layer survives CombineParallelMatmul."""

from __future__ import annotations

from .dead_code_elimination import remove_unused_bindings
from .lowering_utils import ValueTrackingRewriter, is_op_call, relax_function_pass


def _axes(call, ndim):
    axes = call.attrs.axes
    return list(range(ndim - 1, -1, -1)) if axes is None else [int(a) for a in axes]


class _Rewriter(ValueTrackingRewriter):
    def rewrite_binding(self, binding, emit):
        from ..block_builder import BlockBuilder
        from ..expr import DataflowVar, Tuple, Var, VarBinding
        from ..op import concat, permute_dims

        value = self.tracked_call(binding, "relax.concat")
        if value is None:
            emit(binding)
            return
        fields = value.args[0]
        if not isinstance(fields, Tuple):
            fields = self.values.get(fields)
        if not isinstance(fields, Tuple) or not fields.fields:
            emit(binding)
            return
        permutes = [self.values.get(f) for f in fields.fields]
        if not all(p is not None and is_op_call(p, "relax.permute_dims") for p in permutes):
            emit(binding)
            return
        ndim = value.struct_info.ndim
        axes = [_axes(p, ndim) for p in permutes]
        if ndim < 0 or any(a != axes[0] for a in axes):
            emit(binding)
            return
        axis = int(value.attrs.axis) % ndim
        bb = BlockBuilder()
        inner = bb.normalize(concat([p.args[0] for p in permutes], axis=axes[0][axis]))
        cls = DataflowVar if self.in_dataflow else Var
        inner_var = cls("lv", inner.struct_info)
        emit(VarBinding(inner_var, inner))
        outer = permute_dims(inner_var, permutes[0].attrs.axes)
        emit(binding.with_fields(value=bb.normalize(outer)))


def ReorderPermuteDimsAfterConcat():  # noqa: N802  (pass constructors are capitalised)
    """The pass (relax.transform.ReorderPermuteDimsAfterConcat)."""

    @relax_function_pass("ReorderPermuteDimsAfterConcat")
    def reorder_permute_dims_after_concat(func, mod, ctx):
        new = _Rewriter().rewrite_function(func)
        return func if new is func else remove_unused_bindings(new, mod)

    return reorder_permute_dims_after_concat
