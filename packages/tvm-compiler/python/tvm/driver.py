"""tvm.compile: lower a module, generate code for the target's backend and load the result."""

from __future__ import annotations

from tvm.ir.module import IRModule
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


def compile(mod_or_func, target="c"):  # noqa: A001  (the public name is tvm.compile)
    """Compile an IRModule or PrimFunc for target and return the loaded runtime Module."""
    mod = _as_module(mod_or_func)
    target = Target(target if target is not None else "c")
    if target.kind.codegen not in _BUILDERS and target.kind.codegen == "c":
        import tvm.codegen.c.build  # noqa: F401  (registers the C backend)
    builder = _BUILDERS.get(target.kind.codegen)
    if builder is None:
        raise ValueError(
            f"tvm.compile: no code generator {target.kind.codegen!r} is registered for target "
            f"{str(target)!r}"
        )
    return builder(lower(mod), target)


build = compile
