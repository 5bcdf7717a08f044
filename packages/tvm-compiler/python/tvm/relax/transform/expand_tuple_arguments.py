"""ExpandTupleArguments: a tuple parameter of an internal (private, only called) function
becomes one parameter per field (t -> t_0, t_1, ...), rebuilt as a tuple at the top of the
body; every call passes the fields instead."""

from __future__ import annotations

from tvm.ir.module import GlobalVar
from tvm.transform import module_pass

from .lowering_utils import BindingRewriter, new_var, with_sinfo
from .private_functions import new_global_var, only_called, rebuild_module, relax_functions

# Nested tuples expand one level per round.
_MAX_ROUNDS = 16


def _expand(func):
    """func with its tuple parameters expanded, or None when it has none."""
    from ..expr import BindingBlock, Function, SeqExpr, Tuple, Var, VarBinding, _sinfo_of
    from ..struct_info import TupleStructInfo

    if not any(isinstance(_sinfo_of(p), TupleStructInfo) for p in func.params):
        return None
    params, rebuild = [], []
    for p in func.params:
        sinfo = _sinfo_of(p)
        if not isinstance(sinfo, TupleStructInfo):
            params.append(p)
            continue
        fields = [Var(f"{p.name_hint}_{i}", s) for i, s in enumerate(sinfo.fields)]
        params.extend(fields)
        rebuild.append(VarBinding(p, with_sinfo(Tuple(fields), sinfo)))
    body = func.body
    blocks = [BindingBlock(rebuild), *body.blocks] if isinstance(body, SeqExpr) else None
    if blocks is None:
        body = SeqExpr([BindingBlock(rebuild)], body)
    else:
        body = with_sinfo(SeqExpr(blocks, body.body), _sinfo_of(body))
    return Function(params, body, func.ret_struct_info, func.is_pure, func.attrs, func.span)


class _CallRewriter(BindingRewriter):
    def __init__(self, plan):
        super().__init__()
        self.plan = plan  # name -> (old param struct infos, new GlobalVar)

    def rewrite_binding(self, binding, emit):
        from ..expr import Call, Tuple, TupleGetItem, VarBinding
        from ..struct_info import TupleStructInfo

        value = binding.value
        if not (
            isinstance(value, Call)
            and isinstance(value.op, GlobalVar)
            and value.op.name_hint in self.plan
        ):
            emit(binding)
            return
        param_sinfos, gv = self.plan[value.op.name_hint]
        args = []
        for sinfo, arg in zip(param_sinfos, value.args):
            if not isinstance(sinfo, TupleStructInfo):
                args.append(arg)
            elif isinstance(arg, Tuple):
                args.extend(arg.fields)
            else:
                for i in range(len(sinfo.fields)):
                    field = TupleGetItem(arg, i)
                    var = new_var(f"{getattr(arg, 'name_hint', 'arg')}_{i}", field.struct_info)
                    emit(VarBinding(var, field))
                    args.append(var)
        call = with_sinfo(Call(gv, args, value.attrs, value.sinfo_args), value.struct_info)
        emit(binding.with_fields(value=call))


def ExpandTupleArguments():  # noqa: N802  (pass constructors are capitalised)
    """The pass (relax.transform.ExpandTupleArguments)."""

    @module_pass(opt_level=0, name="ExpandTupleArguments")
    def expand_tuple_arguments(mod, ctx):
        from ..expr import _sinfo_of

        current = mod
        for _ in range(_MAX_ROUNDS):
            candidates = only_called(current)
            plan, replaced, renamed = {}, {}, {}
            for gv, func in relax_functions(current).items():
                if gv.name_hint not in candidates:
                    continue
                new = _expand(func)
                if new is None:
                    continue
                new_gv = new_global_var(gv.name_hint, new)
                plan[gv.name_hint] = ([_sinfo_of(p) for p in func.params], new_gv)
                replaced[gv.name_hint] = new
                renamed[gv.name_hint] = new_gv
            if not plan:
                break
            for gv, func in relax_functions(current).items():
                func = replaced.get(gv.name_hint, func)
                replaced[gv.name_hint] = _CallRewriter(plan).rewrite_function(func)
            current = rebuild_module(current, replaced, renamed)
        return current

    return expand_tuple_arguments
