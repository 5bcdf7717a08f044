"""BindSymbolicVars: replace symbolic (TIR) variables, named by Var or by name, with the given
values throughout the module's Relax functions (or one of them)."""

from __future__ import annotations

from tvm.error import InternalError
from tvm.ir.expr import PrimExpr
from tvm.tir import expr as E
from tvm.transform import module_pass

from ..analysis.symbolic_vars import _function_symbolic_vars
from .symbolic_binder import SymbolicBinder


def _check_binding_map(binding_map) -> dict:
    if not hasattr(binding_map, "items"):
        raise TypeError(
            "BindSymbolicVars: binding_map must be a dict of tir Var or str to PrimExpr, got "
            f"{type(binding_map).__name__}"
        )
    out = {}
    for key, value in binding_map.items():
        if not isinstance(key, (str, E.Var)):
            raise TypeError(
                f"BindSymbolicVars: binding_map keys must be tir Vars or str, got {key!r}"
            )
        if isinstance(value, bool) or not isinstance(value, (int, PrimExpr)):
            raise TypeError(
                f"BindSymbolicVars: binding_map[{key!r}] must be an int or PrimExpr, got "
                f"{type(value).__name__}"
            )
        prim = E.const(value, "int64") if isinstance(value, int) else value
        if prim.dtype != "int64":
            raise TypeError(
                f"BindSymbolicVars: binding_map[{key!r}] must be int64 (a shape value), got "
                f"dtype {prim.dtype}"
            )
        out[key] = prim
    return out


def BindSymbolicVars(binding_map, func_name: str | None = None):  # noqa: N802
    """The pass: each key (a tir Var, or the name of one) is replaced by its value in every
    Relax function, or only in func_name's. A key that names no symbolic variable is an
    error, as upstream."""
    bindings = _check_binding_map(binding_map)
    if func_name is not None and not isinstance(func_name, str):
        raise TypeError(f"BindSymbolicVars: func_name must be a str, got {func_name!r}")

    @module_pass(opt_level=0, name="BindSymbolicVars")
    def bind_symbolic_vars(mod, ctx):
        from ..expr import Function

        funcs = {gv: f for gv, f in mod.functions.items() if isinstance(f, Function)}
        if func_name is not None:
            funcs = {gv: f for gv, f in funcs.items() if gv.name_hint == func_name}
            if not funcs:
                names = sorted(gv.name_hint for gv in mod.functions)
                raise ValueError(
                    f"BindSymbolicVars: func_name {func_name!r} is not a Relax function of the "
                    f"module; candidates are: {names}"
                )
        unused = set(bindings)
        changed = {}
        for gv, func in funcs.items():
            defined, used = _function_symbolic_vars(func)
            tir_map = {}
            for var in [*defined, *used]:
                for key in (var, var.name):
                    if key in bindings and var not in tir_map:
                        tir_map[var] = bindings[key]
                        unused.discard(key)
            if tir_map:
                new = SymbolicBinder(tir_map=tir_map, mod=mod).visit_expr(func)
                if new is not func:
                    changed[gv] = new
        if unused:
            raise InternalError(
                "BindSymbolicVars: binding_map contains keys "
                f"{sorted(str(k) for k in unused)}, which did not correspond to any symbolic "
                "variables in the module"
            )
        return mod._with_replaced_functions(changed) if changed else mod

    return bind_symbolic_vars
