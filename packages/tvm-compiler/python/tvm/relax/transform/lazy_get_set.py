"""LazyGetInput and LazySetOutput: a public function fetches its weights through a callback
parameter where first needed, or hands each output to a callback parameter once computed."""

from __future__ import annotations

from .lazy_transform_params import num_input_of
from .lowering_utils import free_relax_uses, prim, relax_function_pass, string, with_sinfo
from .to_non_dataflow import _ToNonDataflow


def _bindings(func):
    return [b for block in func.body.blocks for b in block.bindings]


def _seq(bindings, result):
    from tvm.relax.expr import BindingBlock, SeqExpr

    blocks = [BindingBlock(bindings)] if bindings else []
    return with_sinfo(SeqExpr(blocks, result), result.struct_info)


def _lazy_inputs(func):
    from tvm.relax.analysis import definable_tir_vars_in_struct_info, erase_to_well_defined
    from tvm.relax.expr import Call, Function, MatchCast, Var, VarBinding
    from tvm.relax.struct_info import (
        FuncStructInfo,
        ObjectStructInfo,
        PrimStructInfo,
        TupleStructInfo,
    )

    num_input = num_input_of(func, "relax.transform.LazyGetInput") or 0
    pending = {p: i for i, p in enumerate(func.params[num_input:])}
    fget = Var(
        "fget_param",
        FuncStructInfo([PrimStructInfo("int64"), ObjectStructInfo()], ObjectStructInfo()),
    )
    params = [*func.params[:num_input], fget]
    visible = definable_tir_vars_in_struct_info(TupleStructInfo([p.struct_info for p in params]))
    ret = erase_to_well_defined(func.ret_struct_info, {v: v for v in visible})

    out = []

    def load_used_by(expr):
        # each weight is fetched once, before the first top-level binding that reads it
        # (anywhere inside, an If branch included), and rebound under its own name
        for use in free_relax_uses(expr):
            index = pending.pop(use, None)
            if index is None:
                continue
            untyped = Var(f"{use.name_hint}_untyped", ObjectStructInfo())
            value = with_sinfo(Call(fget, [prim(index), string(use.name_hint)]), ObjectStructInfo())
            out.append(VarBinding(untyped, value))
            out.append(MatchCast(use, untyped, use.struct_info))

    for b in _bindings(func):
        load_used_by(b.value)
        out.append(b)
    load_used_by(func.body.body)
    attrs = {**func.attrs, "num_input": num_input + 1}
    return Function(params, _seq(out, func.body.body), ret, func.is_pure, attrs, func.span)


def _lazy_outputs(func):
    from tvm.relax.expr import Call, Function, Tuple, Var, VarBinding
    from tvm.relax.struct_info import (
        FuncStructInfo,
        ObjectStructInfo,
        PrimStructInfo,
        TupleStructInfo,
    )

    num_input = num_input_of(func, "relax.transform.LazySetOutput")
    result = func.body.body
    fields = list(result.fields) if isinstance(result, Tuple) else [result]
    slots, inline = {}, []
    for i, field in enumerate(fields):
        if isinstance(field, Var):
            slots.setdefault(field, []).append(i)
        else:
            inline.append((i, field))
    void = TupleStructInfo([])
    fset = Var(
        "fset_output",
        FuncStructInfo([PrimStructInfo("int64"), ObjectStructInfo()], void, purity=False),
    )

    def set_output(index, value):
        return VarBinding(Var("_void", void), with_sinfo(Call(fset, [prim(index), value]), void))

    out = []
    for param in func.params:  # a returned parameter is handed over first
        out.extend(set_output(i, param) for i in slots.get(param, ()))
    for b in _bindings(func):
        out.append(b)
        out.extend(set_output(i, b.var) for i in slots.get(b.var, ()))
    out.extend(set_output(i, value) for i, value in inline)
    params = list(func.params)
    params.insert(len(params) if num_input is None else num_input, fset)
    attrs = dict(func.attrs)
    if num_input is not None:
        attrs["num_input"] = num_input + 1
    empty = with_sinfo(Tuple([]), void)
    return Function(params, _seq(out, empty), void, False, attrs, func.span)


def _public(func) -> bool:
    return "global_symbol" in func.attrs


def LazyGetInput():  # noqa: N802  (pass constructors are capitalised, as upstream)
    """Fetch weights on demand (relax.transform.LazyGetInput): in each public function, the
    parameters after "num_input" (all of them without it) are replaced by one callback
    parameter fget_param(index, name) -> Object, placed after the run-time inputs, which is
    called where each weight is first read and its result match_cast to the weight's struct
    info; "num_input" becomes the run-time inputs plus one."""

    @relax_function_pass("LazyGetInput")
    def lazy_get_input(func, mod, ctx):
        if not _public(func):
            return func
        return _lazy_inputs(_ToNonDataflow().rewrite_function(func))

    return lazy_get_input


def LazySetOutput():  # noqa: N802
    """Hand outputs over when computed (relax.transform.LazySetOutput): each public function
    takes a callback fset_output(index, value) (after its "num_input" run-time inputs, else
    last), calls it right after each element of its returned tuple is bound (a returned
    parameter at the start, an inline constant at the end; a non-tuple result is index 0) and
    returns an empty tuple."""

    @relax_function_pass("LazySetOutput")
    def lazy_set_output(func, mod, ctx):
        if not _public(func):
            return func
        return _lazy_outputs(_ToNonDataflow().rewrite_function(func))

    return lazy_set_output


__all__ = ["LazyGetInput", "LazySetOutput"]
