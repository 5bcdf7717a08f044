"""RemoveUnusedParameters: parameters an internal (private, only called) function never reads
are dropped, from the function and from every call of it. A parameter that alone defines a
symbolic variable the function still uses is kept."""

from __future__ import annotations

from tvm.transform import module_pass

from ..analysis.symbolic_vars import _function_symbolic_vars, definable_tir_vars_in_struct_info
from .dead_code_elimination import remove_unused_bindings
from .lowering_utils import BindingRewriter, free_relax_uses, with_sinfo
from .private_functions import new_global_var, only_called, rebuild_module, relax_functions


def _kept_params(func) -> list[int] | None:
    """Indices of the parameters to keep, or None when all are."""
    from ..expr import Function, _sinfo_of

    read = {id(v) for v in free_relax_uses(func.body)}
    keep = [i for i, p in enumerate(func.params) if id(p) in read]
    # symbolic variables the body or result still needs must stay defined
    _, needed = _function_symbolic_vars(Function([], func.body, func.ret_struct_info))
    for var in needed:
        definers = [
            i
            for i, p in enumerate(func.params)
            if any(var is d for d in definable_tir_vars_in_struct_info(_sinfo_of(p)))
        ]
        if definers and not set(definers) & set(keep):
            keep.append(definers[0])
    keep.sort()
    return None if len(keep) == len(func.params) else keep


class _CallRewriter(BindingRewriter):
    def __init__(self, plan):
        super().__init__()
        self.plan = plan  # name -> (kept indices, new GlobalVar)

    def rewrite_binding(self, binding, emit):
        from tvm.ir.module import GlobalVar

        from ..expr import Call

        value = binding.value
        if (
            isinstance(value, Call)
            and isinstance(value.op, GlobalVar)
            and value.op.name_hint in self.plan
        ):
            keep, gv = self.plan[value.op.name_hint]
            call = Call(gv, [value.args[i] for i in keep], value.attrs, value.sinfo_args)
            binding = binding.with_fields(value=with_sinfo(call, value.struct_info))
        emit(binding)


def RemoveUnusedParameters():  # noqa: N802  (pass constructors are capitalised)
    """The pass (relax.transform.RemoveUnusedParameters); public functions keep their
    signature."""

    @module_pass(opt_level=0, name="RemoveUnusedParameters")
    def remove_unused_parameters(mod, ctx):
        from ..expr import Function

        candidates = only_called(mod)
        plan, replaced, renamed = {}, {}, {}
        for gv, func in relax_functions(mod).items():
            if gv.name_hint not in candidates:
                continue
            keep = _kept_params(func)
            if keep is None:
                continue
            new = Function(
                [func.params[i] for i in keep],
                func.body,
                func.ret_struct_info,
                func.is_pure,
                func.attrs,
                func.span,
            )
            new_gv = new_global_var(gv.name_hint, new)
            plan[gv.name_hint] = (keep, new_gv)
            replaced[gv.name_hint] = new
            renamed[gv.name_hint] = new_gv
        if not plan:
            return mod
        for gv, func in relax_functions(mod).items():
            func = replaced.get(gv.name_hint, func)
            new = _CallRewriter(plan).rewrite_function(func)
            if new is not func:
                # arguments only the dropped parameters read are now dead
                new = remove_unused_bindings(new, mod)
            replaced[gv.name_hint] = new
        return rebuild_module(mod, replaced, renamed)

    return remove_unused_parameters
