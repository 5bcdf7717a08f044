"""LiftTransformParams: in a function whose "num_input" attribute says which parameters are
run-time inputs (the rest are model weights), the bindings that depend only on weights move
into <name>_transform_params(model_params), run once; the function takes their results."""

from __future__ import annotations

from tvm.ir.module import IRModule
from tvm.transform import PassContext, module_pass

from .lowering_utils import BindingRewriter, free_relax_uses, substitute_vars, with_sinfo


def _lift(func, name):
    """(the transform function, the rewritten function), or None when nothing lifts."""
    from tvm.relax.expr import (
        DataflowBlock,
        DataflowVar,
        Function,
        SeqExpr,
        Tuple,
        TupleGetItem,
        Var,
        VarBinding,
    )
    from tvm.relax.struct_info import TupleStructInfo

    from .eliminate_common_subexpr import _is_pure_call

    num_input = int(func.attrs["num_input"])
    weights = list(func.params[num_input:])
    if not weights or not isinstance(func.body, SeqExpr):
        return None
    index = {w: i for i, w in enumerate(weights)}
    lifted, lifted_set = [], set()
    for block in func.body.blocks:
        if not isinstance(block, DataflowBlock):
            continue
        for b in block.bindings:
            uses = free_relax_uses(b.value)
            if not isinstance(b, VarBinding) or not uses:
                continue
            if not all(u in index or u in lifted_set for u in uses):
                continue
            if hasattr(b.value, "op") and not _is_pure_call(b.value, IRModule({})):
                continue
            lifted.append(b)
            lifted_set.add(b.var)
    if not lifted:
        return None
    rest_uses = set()
    for block in func.body.blocks:
        for b in block.bindings:
            if b.var not in lifted_set:
                rest_uses.update(free_relax_uses(b.value))
    rest_uses.update(free_relax_uses(func.body.body))
    passthrough = [w for w in weights if w in rest_uses]
    outputs = [b.var for b in lifted if b.var in rest_uses]

    model_params = Var("model_params", TupleStructInfo([w.struct_info for w in weights]))

    def item(w):
        value = with_sinfo(TupleGetItem(model_params, index[w]), w.struct_info)
        return DataflowVar(w.name_hint, w.struct_info), value

    bindings, inner = [], {}
    for b in lifted:
        for u in free_relax_uses(b.value):
            if u in index and u not in inner:
                var, value = item(u)
                bindings.append(VarBinding(var, value))
                inner[u] = var
        var = DataflowVar(b.var.name_hint, b.var.struct_info)
        bindings.append(VarBinding(var, substitute_vars(b.value, inner)))
        inner[b.var] = var
    fields = []
    for w in passthrough:
        var, value = item(w)
        bindings.append(VarBinding(var, value))
        fields.append(var)
    fields += [inner[v] for v in outputs]
    tup = with_sinfo(Tuple(fields), TupleStructInfo([f.struct_info for f in fields]))
    result = Var("output_tuple", tup.struct_info)
    bindings.append(VarBinding(result, tup))
    body = with_sinfo(SeqExpr([DataflowBlock(bindings)], result), result.struct_info)
    attrs = {"num_input": 0, "global_symbol": f"{name}_transform_params"}
    transform = Function([model_params], body, result.struct_info, True, attrs)

    new_params = [Var(v.name_hint, v.struct_info) for v in (*passthrough, *outputs)]
    rewriter = _DropLifted(lifted_set, dict(zip((*passthrough, *outputs), new_params)))
    new_body = rewriter.rewrite_expr(func.body)
    new_func = Function(
        [*func.params[:num_input], *new_params],
        new_body,
        func.ret_struct_info,
        func.is_pure,
        func.attrs,
        func.span,
    )
    return transform, new_func


class _DropLifted(BindingRewriter):
    def __init__(self, lifted, var_map):
        super().__init__()
        self.var_map = var_map
        # visit_binding_value renames a lifted output to its new parameter before the hook.
        self.lifted = set(lifted) | {var_map[v] for v in lifted if v in var_map}

    def rewrite_binding(self, binding, emit):
        if binding.var not in self.lifted:
            emit(binding)


def LiftTransformParams(shared_transform=False):  # noqa: N802  (pass constructors are capitalised)
    """Lift the weight-only computations of each function with a "num_input" attribute into
    <name>_transform_params (relax.transform.LiftTransformParams); the transform takes the
    weights as one tuple and returns, in order, the weights the function still reads and then
    the lifted values. Functions without num_input, or with nothing to lift, stay as they are."""
    if not isinstance(shared_transform, (bool, list, tuple)):
        raise TypeError(
            f"relax.transform.LiftTransformParams: shared_transform must be a bool or a list "
            f"of function names, got {type(shared_transform).__name__}"
        )
    if shared_transform is not False:
        raise NotImplementedError(
            "relax.transform.LiftTransformParams: shared_transform (one transform for several "
            "functions) is not supported yet"
        )

    @module_pass(opt_level=0, name="LiftTransformParams")
    def lift(mod: IRModule, ctx: PassContext) -> IRModule:
        from tvm.ir.module import GlobalVar
        from tvm.relax.expr import Function

        functions = dict(mod.functions.items())
        changed = False
        for gv, func in list(mod.functions.items()):
            if not isinstance(func, Function) or "num_input" not in func.attrs:
                continue
            lifted = _lift(func, gv.name_hint)
            if lifted is None:
                continue
            transform, new_func = lifted
            name = f"{gv.name_hint}_transform_params"
            if any(g.name_hint == name for g in functions):
                raise ValueError(
                    f"relax.transform.LiftTransformParams: the module already has a function "
                    f"{name!r}"
                )
            functions[gv] = new_func
            functions[GlobalVar(name)] = transform
            changed = True
        return mod._with_functions(functions) if changed else mod

    return lift
