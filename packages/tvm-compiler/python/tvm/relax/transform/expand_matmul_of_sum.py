"""ExpandMatmulOfSum: matmul(x, A + B) becomes matmul(x, A) + matmul(x, B), so that a LoRA
update (Base + LoraA @ LoraB) can then be reordered and combined; not when A + B is known at
compile time (then it is better folded once) (relax.transform.ExpandMatmulOfSum)."""

from __future__ import annotations

from ..analysis.compile_time import computable_at_compile_time
from .dead_code_elimination import remove_unused_bindings
from .lowering_utils import ValueTrackingRewriter, relax_function_pass


class _Rewriter(ValueTrackingRewriter):
    def __init__(self, compile_time):
        super().__init__()
        self.compile_time = compile_time

    def rewrite_binding(self, binding, emit):
        from ..block_builder import BlockBuilder
        from ..expr import DataflowVar, Var, VarBinding
        from ..op import add, matmul

        value = self.tracked_call(binding, "relax.matmul")
        if value is None:
            emit(binding)
            return
        x, rhs = value.args
        total = self.bound_call(rhs, "relax.add")
        if total is None or rhs in self.compile_time:
            emit(binding)
            return
        a, b = total.args
        rhs_sinfo = rhs.struct_info
        if any(
            getattr(t.struct_info, "ndim", -1) != rhs_sinfo.ndim
            or getattr(t.struct_info, "dtype", None) != rhs_sinfo.dtype
            for t in (a, b)
        ):
            emit(binding)  # a broadcast add: the parts are not matrices of the same shape
            return
        out_dtype = value.attrs.out_dtype
        out_dtype = None if str(out_dtype) in ("", "void") else out_dtype
        bb = BlockBuilder()
        cls = DataflowVar if self.in_dataflow else Var
        parts = []
        for operand in (a, b):
            part = bb.normalize(matmul(x, operand, out_dtype))
            var = cls("lv", part.struct_info)
            emit(VarBinding(var, part))
            parts.append(var)
        emit(binding.with_fields(value=bb.normalize(add(*parts))))


def ExpandMatmulOfSum():  # noqa: N802  (pass constructors are capitalised)
    """The pass (relax.transform.ExpandMatmulOfSum)."""

    @relax_function_pass("ExpandMatmulOfSum")
    def expand_matmul_of_sum(func, mod, ctx):
        compile_time = set(computable_at_compile_time(func))
        new = _Rewriter(compile_time).rewrite_function(func)
        return func if new is func else remove_unused_bindings(new, mod)

    return expand_matmul_of_sum
