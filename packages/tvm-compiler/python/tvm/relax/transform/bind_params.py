"""BindParams: parameters of a function given as constants (by name or Var) are replaced by
relax.Constant in its body and dropped from its signature."""

from __future__ import annotations

from tvm.transform import module_pass

from .lowering_utils import substitute_vars


def _as_constant(value, param):
    import numpy as np
    import tvm.runtime
    from tvm.ir.expr import RelaxExpr
    from tvm.relax.expr import Constant

    if isinstance(value, RelaxExpr):
        return value  # an expression (a Constant, another function's variable) is bound as is
    if not isinstance(value, tvm.runtime.Tensor):
        value = tvm.runtime.tensor(np.asarray(value))
    sinfo = param.struct_info
    shape = tuple(value.shape)
    expected = getattr(getattr(sinfo, "shape", None), "values", None)
    if expected is not None:
        from tvm.tir.expr import IntImm

        dims = [int(d.value) if isinstance(d, IntImm) else None for d in expected]
        if len(dims) != len(shape) or any(d is not None and d != s for d, s in zip(dims, shape)):
            raise ValueError(
                f"BindParams: parameter {param.name_hint!r} is declared with shape "
                f"{tuple(d if d is not None else '?' for d in dims)}, got a value of shape {shape}"
            )
    return Constant(value)


def bind_params(func, params: dict):
    from tvm.relax.expr import Function

    vmap = {}
    for key, value in params.items():
        matches = [p for p in func.params if p is key or p.name_hint == key]
        if not matches:
            continue
        if len(matches) > 1:
            raise ValueError(f"BindParams: more than one parameter is named {key!r}")
        vmap[matches[0]] = _as_constant(value, matches[0])
    if not vmap:
        return func
    body = substitute_vars(func.body, vmap)
    params_left = [p for p in func.params if p not in vmap]
    return Function(params_left, body, func.ret_struct_info, func.is_pure, func.attrs, func.span)


def BindParams(func_name: str, params: dict):  # noqa: N802
    """Bind params (name or Var -> array) into the function func_name as constants."""
    if not isinstance(params, dict):
        raise TypeError(f"BindParams: params must be a dict, got {type(params).__name__}")

    @module_pass(opt_level=0, name="BindParams")
    def bind_params_pass(mod, ctx):
        if func_name not in mod:
            raise ValueError(f"BindParams: the module has no function named {func_name!r}")
        func = mod[func_name]
        new = bind_params(func, params)
        return mod if new is func else mod.with_function(func_name, new)

    return bind_params_pass
