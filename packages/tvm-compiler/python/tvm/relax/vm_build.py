"""relax.build: a Relax IRModule -> a VM Executable (the lowering pipeline, bytecode emission,
and the PrimFuncs compiled and linked beside the bytecode)."""

from __future__ import annotations

import collections

from tvm.ir.module import IRModule

# Recent builds by content: a structurally equal module built again with the same target,
# pipeline name and settings returns the executable built before (no pipeline, no codegen).
_RECENT: collections.OrderedDict = collections.OrderedDict()
_RECENT_LIMIT = 16


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


def _export_under_module_names(tir_mod: IRModule) -> IRModule:
    """The bytecode calls each kernel by its module name, so that is what it is exported as
    (a te.create_prim_func kernel arrives as "main", whatever the module calls it)."""
    changed = {
        gv: func.with_attr("global_symbol", gv.name_hint)
        for gv, func in tir_mod.functions.items()
        if func.attrs.get("global_symbol") != gv.name_hint
    }
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
    from tvm.ir.structural import structural_equal
    from tvm.relax.exec_builder import ExecBuilder
    from tvm.relax.vm_codegen import codegen
    from tvm.relax.vm_link import vm_link
    from tvm.target.target import Target

    if not isinstance(mod, IRModule):
        raise TypeError(
            f"relax.build: argument 'mod' must be an IRModule, got {type(mod).__name__}"
        )
    from tvm.relax.vm_link import _check_exec_mode

    _check_exec_mode("relax.build", exec_mode)
    target = Target(target if target is not None else "llvm")
    key = _cache_key(mod, target, params, relax_pipeline, exec_mode)
    cached = _RECENT.get(key) if key is not None else None
    if cached is not None and structural_equal(cached[0], mod):
        _RECENT.move_to_end(key)
        return cached[1]
    source = mod.clone()  # a snapshot: the caller may edit mod in place after this build
    mod = _bind_params(mod, params)
    pipeline = _resolve_pipeline(relax_pipeline)
    if pipeline is not None:
        with target:
            mod = pipeline(mod)
    builder = ExecBuilder()
    tir_mod = _export_under_module_names(codegen(builder, mod))
    # Constants external codegen left for its modules travel as the executable's params.
    constants = dict(mod.attrs.get("const_name_to_constant", None) or {})
    ex = vm_link(builder, target, tir_mod, exec_mode=exec_mode, params=constants)
    if key is not None:
        _RECENT[key] = (source, ex)
        while len(_RECENT) > _RECENT_LIMIT:
            _RECENT.popitem(last=False)
    return ex


def _cache_key(mod, target, params, relax_pipeline, exec_mode):
    """The build cache's key, or None when this build must run (bound params, a pipeline
    given as a Pass object, instruments that expect to see the passes)."""
    from tvm.driver import _build_key
    from tvm.ir.op import _ATTRS

    if params or not isinstance(relax_pipeline, (str, type(None))):
        return None
    key = _build_key(mod, target)
    if key is None:
        return None
    # A legalisation registered (or overridden) since changes what the pipeline produces.
    legalize = tuple((name, id(entry)) for name, entry in _ATTRS.get("FLegalize", {}).items())
    return (*key, relax_pipeline, exec_mode, legalize)
