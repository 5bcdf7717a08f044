"""RewriteDataflowReshape: a call_tir of a PrimFunc that only reshapes (has_reshape_pattern:
reshape, expand_dims, flatten, squeeze legalised to a copy) becomes a relax reshape, which
the VM runs as a view of the same data instead of a copy. Dataflow blocks only, as upstream."""

from __future__ import annotations

from tvm.ir.module import GlobalVar

from ..analysis.reshape_pattern import has_reshape_pattern
from .lowering_utils import ValueTrackingRewriter, is_op_call, relax_function_pass


class _Rewriter(ValueTrackingRewriter):
    def __init__(self, mod):
        super().__init__()
        self.mod = mod
        self.verdicts: dict = {}

    def _is_reshape(self, gv) -> bool:
        from tvm.tir.function import PrimFunc

        name = gv.name_hint
        if name not in self.verdicts:
            func = self.mod[name] if name in self.mod else None
            self.verdicts[name] = isinstance(func, PrimFunc) and has_reshape_pattern(func)
        return self.verdicts[name]

    def rewrite_binding(self, binding, emit):
        from ..block_builder import BlockBuilder
        from ..expr import ShapeExpr, Tuple, VarBinding
        from ..op import reshape
        from ..struct_info import TensorStructInfo

        value = binding.value
        if not (
            self.in_dataflow
            and isinstance(binding, VarBinding)
            and is_op_call(value, "relax.call_tir")
            and isinstance(value.args[0], GlobalVar)
            and len(value.args) == 2  # no tir_vars
        ):
            emit(binding)
            return
        args = value.args[1]
        fields = args.fields if isinstance(args, Tuple) else None
        out = value.struct_info
        if (
            fields is None
            or len(fields) != 1
            or not isinstance(out, TensorStructInfo)
            or not isinstance(out.shape, ShapeExpr)
            or getattr(fields[0].struct_info, "dtype", None) != out.dtype
            or not self._is_reshape(value.args[0])
        ):
            emit(binding)
            return
        new = BlockBuilder().normalize(reshape(fields[0], out.shape))
        emit(binding.with_fields(value=new))


def RewriteDataflowReshape():  # noqa: N802  (pass constructors are capitalised)
    """The pass (relax.transform.RewriteDataflowReshape); the reshape it leaves is lowered to
    vm.builtin.reshape by LowerRuntimeBuiltin."""

    @relax_function_pass("RewriteDataflowReshape")
    def rewrite_dataflow_reshape(func, mod, ctx):
        return _Rewriter(mod).rewrite_function(func)

    return rewrite_dataflow_reshape
