"""tvm.compile: lower a module, generate code for the target's backend and load the result."""

from __future__ import annotations

import collections
import os

from tvm.ir.module import IRModule
from tvm.ir.structural import structural_equal, structural_hash
from tvm.target.target import Target
from tvm.tir.function import PrimFunc

_BUILDERS: dict = {}


def register_codegen(name: str, build_fn=None, override: bool = False):
    """Register build_fn(lowered_mod, target) -> runtime Module for the code generator name."""

    def register(fn):
        if name in _BUILDERS and not override:
            raise ValueError(f"register_codegen: a code generator {name!r} is already registered")
        _BUILDERS[name] = fn
        return fn

    return register if build_fn is None else register(build_fn)


def _as_module(mod_or_func) -> IRModule:
    if isinstance(mod_or_func, IRModule):
        return mod_or_func
    if isinstance(mod_or_func, PrimFunc):
        name = mod_or_func.attrs.get("global_symbol", "main")
        return IRModule({name: mod_or_func})
    raise TypeError(
        f"tvm.compile: expected an IRModule or a PrimFunc, got {type(mod_or_func).__name__}"
    )


def lower(mod_or_func) -> IRModule:
    """The module after the default lowering passes (what code generators take)."""
    from tvm.tir.transform import default_lowering

    return default_lowering()(_as_module(mod_or_func))


# Recent builds by content: a structurally equal module compiled again for the same target and
# settings skips lowering and code generation and loads the library built before.
_RECENT_BUILDS: collections.OrderedDict = collections.OrderedDict()
_RECENT_LIMIT = 64


def _build_key(mod, target):
    from tvm.transform import PassContext

    ctx = PassContext.current()
    if ctx.instruments:
        return None  # instruments expect to see the passes run
    settings = (
        str(target),
        ctx.opt_level,
        tuple(ctx.disabled_pass),
        tuple(ctx.required_pass),
        repr(sorted(ctx.config.items())),
        os.environ.get("TVM_STACK_CFLAGS", ""),
        os.environ.get("TVM_STACK_KERNEL_CACHE", ""),
    )
    return structural_hash(mod), settings


def _cached_build(key, mod):
    entry = _RECENT_BUILDS.get(key)
    if entry is None:
        return None
    built_mod, path = entry
    if not os.path.exists(path) or not structural_equal(built_mod, mod):
        return None
    import tvm.runtime

    _RECENT_BUILDS.move_to_end(key)
    return tvm.runtime.load_module(path)


def _holds_relax(mod) -> bool:
    if not isinstance(mod, IRModule) or all(isinstance(f, PrimFunc) for _, f in mod.items()):
        return False
    from tvm.relax.vm_build import has_relax_function

    return has_relax_function(mod)


def compile(  # noqa: A001  (the public name is tvm.compile)
    mod_or_func, target="c", *, relax_pipeline="default", exec_mode="bytecode"
):
    """Compile an IRModule or PrimFunc for target and return the loaded runtime Module; a
    module holding Relax functions becomes a VM Executable (relax.build)."""
    if _holds_relax(mod_or_func):
        from tvm.relax.vm_build import build as relax_build

        return relax_build(mod_or_func, target, relax_pipeline=relax_pipeline, exec_mode=exec_mode)
    mod = _as_module(mod_or_func)
    target = Target(target if target is not None else "c")
    key = _build_key(mod, target)
    if key is not None:
        cached = _cached_build(key, mod)
        if cached is not None:
            return cached
    if target.kind.codegen not in _BUILDERS and target.kind.codegen == "c":
        import tvm.codegen.c.build  # noqa: F401  (registers the C backend)
    builder = _BUILDERS.get(target.kind.codegen)
    if builder is None:
        raise ValueError(
            f"tvm.compile: no code generator {target.kind.codegen!r} is registered for target "
            f"{str(target)!r}"
        )
    with target:  # lowering passes read target facts such as the SIMD width
        lowered = lower(mod)
    runtime_mod = builder(lowered, target)
    path = getattr(runtime_mod, "path", None)
    if key is not None and path:
        # A snapshot: the caller may edit mod in place (mod["f"] = g) after this build.
        _RECENT_BUILDS[key] = (mod.clone(), path)
        while len(_RECENT_BUILDS) > _RECENT_LIMIT:
            _RECENT_BUILDS.popitem(last=False)
    return runtime_mod


build = compile
