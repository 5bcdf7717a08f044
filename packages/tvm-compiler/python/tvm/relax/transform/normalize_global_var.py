"""NormalizeGlobalVar: every public function is stored under its "global_symbol", private
functions whose names collide are renamed (name, name1, ...), and every reference follows."""

from __future__ import annotations

from tvm.ir.module import GlobalVar
from tvm.transform import module_pass

from .private_functions import relax_functions, replace_global_vars


def NormalizeGlobalVar():  # noqa: N802  (pass constructors are capitalised)
    """The pass (relax.transform.NormalizeGlobalVar)."""

    @module_pass(opt_level=0, name="NormalizeGlobalVar")
    def normalize_global_var(mod, ctx):
        symbol = {
            gv.name_hint: (f.attrs or {}).get("global_symbol") for gv, f in mod.functions.items()
        }
        taken = {str(s) for s in symbol.values() if s is not None}
        renames: dict = {}
        for name, sym in symbol.items():
            if sym is not None and str(sym) != name:
                renames[name] = str(sym)
        used = set(taken)
        for name, sym in symbol.items():
            if sym is None and name in taken:
                fresh, i = name, 1
                while fresh in used or fresh in symbol:
                    fresh, i = f"{name}{i}", i + 1
                used.add(fresh)
                renames[name] = fresh
        if not renames:
            return mod
        new_gvs = {}
        for gv in mod.functions:
            new_name = renames.get(gv.name_hint)
            if new_name is not None:
                new_gv = GlobalVar(new_name)
                sinfo = gv.__dict__.get("struct_info_")
                if sinfo is not None:
                    new_gv._fill_late_field("struct_info_", sinfo)
                new_gvs[gv.name_hint] = new_gv
        relax_funcs = relax_functions(mod)
        functions = {}
        for gv, func in mod.functions.items():
            if gv in relax_funcs:
                func = replace_global_vars(func, new_gvs)
            functions[new_gvs.get(gv.name_hint, gv)] = func
        return mod._with_functions(functions)

    return normalize_global_var
