"""LowerAllocTensor: each builtin.alloc_tensor that StaticPlanBlockMemory left (an output, or
a tensor whose storage is not planned) gets a storage of its own, sized in bytes."""

from __future__ import annotations

from .lowering_utils import (
    BindingRewriter,
    call,
    dtype_bytes,
    dtype_imm,
    is_op_call,
    new_var,
    object_sinfo,
    prim,
    relax_function_pass,
    shape_expr,
)


class _LowerAllocTensor(BindingRewriter):
    def rewrite_binding(self, binding, emit):
        from tvm.relax.expr import ShapeExpr, VarBinding
        from tvm.tir.expr import IntImm

        value = binding.value
        if not is_op_call(value, "relax.builtin.alloc_tensor"):
            emit(binding)
            return
        shape, dtype, device, scope = value.args[:4]
        if not isinstance(shape, ShapeExpr):
            emit(binding)  # a shape known only as a value: the VM builtin allocates it
            return
        nbytes = IntImm("int64", dtype_bytes(dtype.value))
        for dim in shape.values:
            nbytes = nbytes * dim
        storage = new_var("storage", object_sinfo())
        emit(
            VarBinding(
                storage,
                call(
                    "relax.memory.alloc_storage",
                    [shape_expr([nbytes]), device, scope, dtype_imm("uint8")],
                    object_sinfo(),
                ),
            )
        )
        alloc = call(
            "relax.memory.alloc_tensor",
            [storage, prim(0), shape, dtype],
            binding.var.struct_info,
        )
        emit(binding.with_fields(value=alloc))


def LowerAllocTensor():  # noqa: N802
    """Lower the remaining builtin.alloc_tensor into memory.alloc_storage + alloc_tensor."""

    @relax_function_pass("LowerAllocTensor")
    def lower_alloc_tensor(func, mod, ctx):
        return _LowerAllocTensor().rewrite_function(func)

    return lower_alloc_tensor
