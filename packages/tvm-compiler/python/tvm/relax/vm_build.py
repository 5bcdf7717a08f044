"""relax.build: a Relax IRModule -> a VM Executable (the lowering pipeline, bytecode emission,
and the PrimFuncs compiled and linked beside the bytecode)."""

from __future__ import annotations

from tvm.ir.module import IRModule


def has_relax_function(mod) -> bool:
    from tvm.relax.expr import Function

    return isinstance(mod, IRModule) and any(isinstance(f, Function) for _, f in mod.items())


def _resolve_pipeline(relax_pipeline):
    import tvm.transform
    from tvm.relax.pipeline import get_pipeline

    if relax_pipeline is None:
        return None
    if isinstance(relax_pipeline, str):
        return get_pipeline(relax_pipeline)
    if isinstance(relax_pipeline, tvm.transform.Pass):
        return relax_pipeline
    raise TypeError(
        f"relax.build: relax_pipeline must be a pipeline name, a Pass or None, got "
        f"{type(relax_pipeline).__name__}"
    )


def _bind_params(mod, params):
    if not params:
        return mod
    from tvm.relax.transform import BindParams

    return BindParams("main", params)(mod)


def _attach_global_symbols(tir_mod: IRModule) -> IRModule:
    """Every kernel is exported under its module name, which is how the bytecode calls it."""
    changed = {}
    for gv, func in tir_mod.functions.items():
        if func.attrs.get("global_symbol") != gv.name_hint:
            changed[gv] = func.with_attr("global_symbol", gv.name_hint)
    return tir_mod._with_replaced_functions(changed) if changed else tir_mod


def build(
    mod,
    target=None,
    params=None,
    relax_pipeline="default",
    tir_pipeline="default",
    exec_mode: str = "bytecode",
    *,
    system_lib=None,
):
    """Build mod (an IRModule holding Relax functions) into a relax Executable that
    tvm.relax.VirtualMachine(ex, device) runs."""
    from tvm.relax.exec_builder import ExecBuilder
    from tvm.relax.vm_codegen import codegen
    from tvm.relax.vm_link import vm_link
    from tvm.target.target import Target

    if not isinstance(mod, IRModule):
        raise TypeError(
            f"relax.build: argument 'mod' must be an IRModule, got {type(mod).__name__}"
        )
    if exec_mode not in ("bytecode", "compiled"):
        raise ValueError(
            f"relax.build: argument 'exec_mode' must be 'bytecode' or 'compiled', got {exec_mode!r}"
        )
    if exec_mode == "compiled":
        raise NotImplementedError(
            "relax.build: exec_mode='compiled' (the VM function compiled to native code) is not "
            "implemented yet; use exec_mode='bytecode'"
        )
    target = Target(target if target is not None else "llvm")
    mod = _bind_params(mod, params)
    pipeline = _resolve_pipeline(relax_pipeline)
    if pipeline is not None:
        with target:
            mod = pipeline(mod)
    builder = ExecBuilder()
    tir_mod = _attach_global_symbols(codegen(builder, mod))
    return vm_link(builder, target, tir_mod)
