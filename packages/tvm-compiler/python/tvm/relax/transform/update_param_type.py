"""UpdateParamType: each Relax function parameter gets the struct info (type) a user function
returns for it; bindings and the return type are inferred again from there."""

from __future__ import annotations

from tvm.transform import module_pass

from ..expr import Function, _sinfo_of
from ..expr_functor import ExprMutator
from ..struct_info import StructInfo


def UpdateParamType(ty_func):  # noqa: N802  (pass constructors are capitalised)
    """The pass: ty_func(param) returns the new struct info, or None to keep the parameter.
    Errors of the new inference (an op given incompatible shapes) reach the caller."""
    if not callable(ty_func):
        raise TypeError(
            f"UpdateParamType: ty_func must be callable (Var -> StructInfo or None), got "
            f"{type(ty_func).__name__}"
        )

    @module_pass(opt_level=0, name="UpdateParamType")
    def update_param_type(mod, ctx):
        changed = {}
        for gv, func in mod.functions.items():
            if not isinstance(func, Function):
                continue
            mutator = ExprMutator(mod)
            params = []
            for p in func.params:
                new = ty_func(p)
                if new is None:
                    params.append(p)
                    continue
                if not isinstance(new, StructInfo):
                    raise TypeError(
                        f"UpdateParamType: ty_func must return a relax Type (StructInfo) or "
                        f"None for parameter {p.name_hint!r} of {gv.name_hint!r}, got "
                        f"{type(new).__name__}"
                    )
                if new is _sinfo_of(p):
                    params.append(p)
                    continue
                fresh = type(p)(p.name_hint, new, p.span)
                mutator.set_var_remap(p, fresh)
                params.append(fresh)
            if all(a is b for a, b in zip(params, func.params)):
                continue
            body = mutator.visit_with_new_scope(func.body)
            changed[gv] = Function(params, body, None, func.is_pure, func.attrs, func.span)
        return mod._with_replaced_functions(changed) if changed else mod

    return update_param_type
