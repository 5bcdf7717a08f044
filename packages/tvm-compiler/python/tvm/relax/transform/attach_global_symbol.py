"""AttachGlobalSymbol: every function gets the global_symbol it is exported under (its name in
the module), which is how the VM's bytecode finds the kernels in the linked library."""

from __future__ import annotations

from tvm.transform import module_pass


def AttachGlobalSymbol():  # noqa: N802
    """Set global_symbol = the function's name on each function that has none."""

    @module_pass(opt_level=0, name="AttachGlobalSymbol")
    def attach_global_symbol(mod, ctx):
        changed = {
            gv: func.with_attr("global_symbol", gv.name_hint)
            for gv, func in mod.functions.items()
            if "global_symbol" not in func.attrs
        }
        return mod._with_replaced_functions(changed) if changed else mod

    return attach_global_symbol
