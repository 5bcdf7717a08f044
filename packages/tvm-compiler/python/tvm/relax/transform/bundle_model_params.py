"""BundleModelParams: a function's weights (its parameters after "num_input") become one tuple
parameter, each weight read back as model_params[i] in the block that uses it."""

from __future__ import annotations

from tvm.ir.module import IRModule
from tvm.transform import PassContext, module_pass

from .lazy_transform_params import num_input_of
from .lowering_utils import free_relax_uses, substitute_vars, with_sinfo

_PASS = "relax.transform.BundleModelParams"


def _bundle(func, param_tuple_name):
    """func with its weights bundled, or func itself when it has no "num_input"."""
    from tvm.relax.expr import (
        BindingBlock,
        DataflowBlock,
        DataflowVar,
        Function,
        SeqExpr,
        TupleGetItem,
        Var,
        VarBinding,
    )
    from tvm.relax.struct_info import TupleStructInfo

    num_input = num_input_of(func, _PASS)
    if num_input is None:
        return func
    weights = list(func.params[num_input:])
    bundle = Var(
        param_tuple_name or "model_params", TupleStructInfo([w.struct_info for w in weights])
    )
    index = {w: i for i, w in enumerate(weights)}

    def read_weights(expr, dataflow, local, out):
        # a block reads each weight it uses through one binding of its own, made before the
        # first binding that uses it; a dataflow block's stays inside it (a DataflowVar)
        for use in free_relax_uses(expr):
            if use in index and use not in local:
                var = (DataflowVar if dataflow else Var)(use.name_hint, use.struct_info)
                item = with_sinfo(TupleGetItem(bundle, index[use]), use.struct_info)
                out.append(VarBinding(var, item))
                local[use] = var
        return substitute_vars(expr, local) if local else expr

    blocks = []
    for block in func.body.blocks:
        dataflow, local, out = isinstance(block, DataflowBlock), {}, []
        for binding in block.bindings:
            value = read_weights(binding.value, dataflow, local, out)
            out.append(binding if value is binding.value else binding.with_fields(value=value))
        blocks.append(type(block)(out))
    tail, local = [], {}
    result = read_weights(func.body.body, False, local, tail)
    if tail:
        blocks.append(BindingBlock(tail))
    body = with_sinfo(SeqExpr(blocks, result), func.body.struct_info)
    params = [*func.params[:num_input], bundle]
    return Function(params, body, func.ret_struct_info, func.is_pure, func.attrs, func.span)


def BundleModelParams(param_tuple_name: str | None = None):  # noqa: N802  (as upstream)
    """Bundle the model weights into one tuple parameter (relax.transform.BundleModelParams):
    in each Relax function with a "num_input" attribute, the parameters after the first
    num_input run-time inputs become the fields of one tuple parameter, named param_tuple_name
    ("model_params" when None), placed last; "num_input" is unchanged. A function whose
    parameters are all inputs gets an empty tuple parameter, so callers can always pass one."""
    if param_tuple_name is not None and (
        not isinstance(param_tuple_name, str) or not param_tuple_name
    ):
        raise TypeError(
            f"{_PASS}: param_tuple_name must be a non-empty str or None, got {param_tuple_name!r}"
        )

    @module_pass(opt_level=1, name="BundleModelParams")
    def bundle_model_params(mod: IRModule, ctx: PassContext) -> IRModule:
        from tvm.relax.block_builder import BlockBuilder
        from tvm.relax.expr import Function

        builder, changed = BlockBuilder(mod), False
        for gv, func in list(mod.functions.items()):
            if isinstance(func, Function):
                new = _bundle(func, param_tuple_name)
                if new is not func:
                    builder.update_func(gv, new)
                    changed = True
        return builder.get() if changed else mod

    return bundle_model_params
