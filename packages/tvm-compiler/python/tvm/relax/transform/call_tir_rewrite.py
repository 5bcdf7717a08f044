"""CallTIRRewrite: destination-passing calls (call_tir, call_dps_packed, call_tir_inplace)
become an explicit allocation of each output followed by a call that writes into it."""

from __future__ import annotations

from .lowering_utils import (
    BindingRewriter,
    call,
    dtype_imm,
    is_op_call,
    new_var,
    prim,
    relax_function_pass,
    shape_expr,
    string,
    void_sinfo,
    with_sinfo,
)

_DPS_OPS = ("relax.call_tir", "relax.call_dps_packed", "relax.call_tir_inplace")


def _tensor_fields(sinfo) -> list:
    from tvm.relax.struct_info import TensorStructInfo, TupleStructInfo

    if isinstance(sinfo, TensorStructInfo):
        return [sinfo]
    if isinstance(sinfo, TupleStructInfo):
        return list(sinfo.fields)
    raise TypeError(
        f"CallTIRRewrite: the output of a destination-passing call must be a tensor or a "
        f"tuple of tensors, got {sinfo}"
    )


def alloc_tensor_call(sinfo):
    """builtin.alloc_tensor(shape, dtype, runtime_device_index=0, "global") for a tensor sinfo."""
    from tvm.relax.expr import ShapeExpr

    shape = sinfo.shape
    if shape is None:
        raise ValueError(
            f"CallTIRRewrite: cannot allocate an output of unknown shape ({sinfo}); "
            "give call_tir an out_sinfo with a shape"
        )
    if not isinstance(shape, ShapeExpr):
        shape_arg = shape
    else:
        shape_arg = shape_expr(shape.values)
    args = [shape_arg, dtype_imm(sinfo.dtype), prim(0), string("global")]
    return call("relax.builtin.alloc_tensor", args, sinfo)


class _CallTIRRewrite(BindingRewriter):
    def rewrite_binding(self, binding, emit):
        from tvm.relax.expr import Tuple, VarBinding

        value = binding.value
        if not any(is_op_call(value, name) for name in _DPS_OPS):
            emit(binding)
            return
        func, packed_args = value.args[0], value.args[1]
        args = list(packed_args.fields) if isinstance(packed_args, Tuple) else [packed_args]
        out_sinfo = value.sinfo_args[0] if value.sinfo_args else value.struct_info
        fields = _tensor_fields(out_sinfo)
        outs = []
        if is_op_call(value, "relax.call_tir_inplace"):
            indices = [int(i) for i in value.attrs.inplace_indices]
            for i, field in zip(indices, fields):
                if i >= 0:  # this output is written over input i
                    outs.append(args[i])
                    continue
                var = new_var("alloc", field)
                emit(VarBinding(var, alloc_tensor_call(field)))
                outs.append(var)
            new_outs = [o for o, i in zip(outs, indices) if i < 0]
        else:
            for i, field in enumerate(fields):
                var = new_var("alloc" if i == 0 else f"alloc{i}", field)
                emit(VarBinding(var, alloc_tensor_call(field)))
                outs.append(var)
            new_outs = outs
        call_args = args + new_outs
        if len(value.args) > 2:  # tir_vars: the symbolic values the kernel takes as scalars
            tir_vars = value.args[2]
            dyn_args = with_sinfo(Tuple([*call_args, tir_vars]), None)
            kernel = call("relax.vm.call_tir_dyn", [func, dyn_args], void_sinfo())
        else:
            from tvm.relax.expr import Call

            kernel = with_sinfo(Call(func, call_args), void_sinfo())
        emit(VarBinding(new_var("_", void_sinfo()), kernel))
        if isinstance(out_sinfo, _tuple_sinfo_class()):
            result = with_sinfo(Tuple(outs), out_sinfo)
        else:
            result = outs[0]
        emit(VarBinding(binding.var, result))


def _tuple_sinfo_class():
    from tvm.relax.struct_info import TupleStructInfo

    return TupleStructInfo


def CallTIRRewrite():  # noqa: N802
    """Make the outputs of call_tir / call_dps_packed explicit allocations."""

    @relax_function_pass("CallTIRRewrite")
    def call_tir_rewrite(func, mod, ctx):
        return _CallTIRRewrite().rewrite_function(func)

    return call_tir_rewrite
