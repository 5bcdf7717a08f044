"""Pass infrastructure: Pass, PassContext, Sequential, the pass decorators, with copy-on-write."""

from __future__ import annotations

import functools
import inspect
import sys
import threading

from tvm.ir.module import BaseFunc, IRModule

_CONFIG_OPTIONS: dict[str, type] = {}


def register_config_option(key: str, value_type: type) -> None:
    """Declare a PassContext config key and the type its value must have."""
    if not isinstance(key, str) or "." not in key:
        raise ValueError(f"register_config_option: key must look like 'ns.name', got {key!r}")
    _CONFIG_OPTIONS[key] = value_type


def list_config_options() -> dict[str, type]:
    return dict(_CONFIG_OPTIONS)


class PassInfo:
    """A pass's name, the lowest opt_level that runs it, and the passes it requires."""

    def __init__(self, opt_level: int, name: str, required=None, traceable: bool = False):
        if not isinstance(opt_level, int):
            raise TypeError(f"PassInfo: opt_level must be an int, got {opt_level!r}")
        if not isinstance(name, str) or not name:
            raise ValueError(f"PassInfo: name must be a non-empty str, got {name!r}")
        self.opt_level = opt_level
        self.name = name
        self.required = list(required or [])
        self.traceable = traceable

    def __repr__(self):
        return f"PassInfo(name={self.name!r}, opt_level={self.opt_level})"


class _ContextStack(threading.local):
    def __init__(self):
        self.stack: list[PassContext] = []


_CONTEXTS = _ContextStack()


class PassContext:
    """The settings passes run under: opt_level, config, instruments, required/disabled passes."""

    def __init__(
        self,
        opt_level: int = 2,
        required_pass=None,
        disabled_pass=None,
        instruments=None,
        config=None,
    ):
        if not isinstance(opt_level, int) or not 0 <= opt_level <= 4:
            raise ValueError(f"PassContext: opt_level must be an int in 0..4, got {opt_level!r}")
        self.opt_level = opt_level
        self.required_pass = _names("required_pass", required_pass)
        self.disabled_pass = _names("disabled_pass", disabled_pass)
        self.instruments = list(instruments or [])
        for inst in self.instruments:
            if not hasattr(inst, "run_before_pass"):
                raise TypeError(
                    "PassContext: instruments must be PassInstrument objects, got "
                    f"{type(inst).__name__}"
                )
        self.config = dict(config or {})
        for key, value in self.config.items():
            expected = _CONFIG_OPTIONS.get(key)
            if expected is None:
                raise ValueError(
                    f"PassContext: unknown config key {key!r}; known keys: "
                    f"{sorted(_CONFIG_OPTIONS)}"
                )
            if not isinstance(value, expected):
                raise TypeError(
                    f"PassContext: config {key!r} expects {expected.__name__}, "
                    f"got {type(value).__name__}"
                )
        self._entered_instruments: list = []

    def __enter__(self):
        _CONTEXTS.stack.append(self)
        entered = []
        try:
            for inst in self.instruments:
                inst.enter_pass_ctx()
                entered.append(inst)
        except BaseException:
            for inst in reversed(entered):
                inst.exit_pass_ctx()
            _CONTEXTS.stack.pop()
            raise
        self._entered_instruments = entered
        return self

    def __exit__(self, *exc):
        try:
            for inst in reversed(self._entered_instruments):
                inst.exit_pass_ctx()
        finally:
            self._entered_instruments = []
            _CONTEXTS.stack.pop()
        return False

    @staticmethod
    def current() -> PassContext:
        if _CONTEXTS.stack:
            return _CONTEXTS.stack[-1]
        return _DEFAULT_CONTEXT

    def pass_enabled(self, info: PassInfo) -> bool:
        if info.name in self.disabled_pass:
            return False
        if info.name in self.required_pass:
            return True
        return info.opt_level <= self.opt_level

    def _run_instrumented(self, pass_obj: Pass, mod: IRModule, owned: bool) -> IRModule:
        info = pass_obj.info
        for inst in self.instruments:
            if not inst.should_run(mod, info):
                return mod
        for inst in self.instruments:
            inst.run_before_pass(mod, info)
        result = pass_obj._transform(mod, self, owned)
        if not isinstance(result, IRModule):
            raise TypeError(
                f"pass {info.name!r} must return an IRModule, got {type(result).__name__}"
            )
        for inst in self.instruments:
            inst.run_after_pass(result, info)
        return result


def _names(label, names) -> list[str]:
    names = list(names or [])
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"PassContext: {label} must hold pass names (str), got {name!r}")
    return names


_DEFAULT_CONTEXT = PassContext()


def _refcount(obj) -> int:
    return sys.getrefcount(obj)


class _CallProbe:
    def __call__(self, obj):
        return _refcount(obj)


def _sole_local_refcount() -> int:
    held = object()
    return _refcount(held)


# References a temporary argument has inside Pass.__call__, and a value held by exactly one
# local name; measured on this interpreter so ownership checks do not depend on its version.
_TEMPORARY_ARG_REFS = _CallProbe()(object())
_SOLE_LOCAL_REFS = _sole_local_refcount()


class Pass:
    """A transformation from IRModule to IRModule.

    Copy-on-write: a pass that changes nothing returns its input object; a pass given a module
    nobody else holds (a temporary, or the running module of a Sequential) updates it in place;
    otherwise it builds a new module and leaves its input untouched.
    """

    info: PassInfo

    def __call__(self, mod):
        if not isinstance(mod, IRModule):
            raise TypeError(
                f"Pass {self.info.name!r}: expected an IRModule, got {type(mod).__name__}"
            )
        owned = _refcount(mod) <= _TEMPORARY_ARG_REFS
        return self._run(mod, PassContext.current(), owned)

    def _run(self, mod: IRModule, ctx: PassContext, owned: bool) -> IRModule:
        if not ctx.pass_enabled(self.info):
            return mod
        return ctx._run_instrumented(self, mod, owned)

    def _transform(self, mod: IRModule, ctx: PassContext, owned: bool) -> IRModule:
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}({self.info.name!r}, opt_level={self.info.opt_level})"


class ModulePass(Pass):
    def __init__(self, pass_func, info: PassInfo):
        self.pass_func = pass_func
        self.info = info

    def _transform(self, mod, ctx, owned):
        return self.pass_func(mod, ctx)


class FunctionPass(Pass):
    """Applies pass_func(func, mod, ctx) to each function of func_type in the module."""

    def __init__(self, pass_func, info: PassInfo, func_type=BaseFunc):
        self.pass_func = pass_func
        self.info = info
        self.func_type = func_type

    def _transform(self, mod, ctx, owned):
        def rewrite(gv, func):
            new_func = self.pass_func(func, mod, ctx)
            if not isinstance(new_func, self.func_type):
                raise TypeError(
                    f"pass {self.info.name!r} must return a {self.func_type.__name__} for "
                    f"{gv.name_hint!r}, got {type(new_func).__name__}"
                )
            return new_func

        return rewrite_functions(mod, owned, self.func_type, rewrite)


def rewrite_functions(mod: IRModule, owned: bool, func_type, rewrite) -> IRModule:
    """mod with rewrite(gv, func) applied to each function of func_type: mod itself when
    nothing changes, edited in place when the caller owns it, else a new module."""
    changed = {}
    for gv, func in list(mod.functions.items()):
        if isinstance(func, func_type):
            new_func = rewrite(gv, func)
            if new_func is not func:
                changed[gv] = new_func
    if not changed:
        return mod
    if owned:
        mod._replace_functions_in_place(changed)
        return mod
    return mod._with_replaced_functions(changed)


class Sequential(Pass):
    """Runs passes in order; after the first change the module it runs is owned, edited in place."""

    def __init__(self, passes=None, opt_level: int = 0, name: str = "sequential", required=None):
        self.passes = list(passes or [])
        for p in self.passes:
            if not isinstance(p, Pass):
                raise TypeError(f"Sequential: expected Pass objects, got {type(p).__name__}")
        self.info = PassInfo(opt_level, name, required)

    def _transform(self, mod, ctx, owned):
        for p in self.passes:
            for required in p.info.required:
                if required not in {q.info.name for q in self.passes}:
                    raise ValueError(
                        f"Sequential {self.info.name!r}: pass {p.info.name!r} requires "
                        f"{required!r}, which is not in the sequence"
                    )
        current = mod
        for p in self.passes:
            result = p._run(current, ctx, owned)
            if result is not current:
                current = result
                result = None
                # A module only this frame holds may be updated in place by the next pass.
                owned = _refcount(current) <= _SOLE_LOCAL_REFS
        return current


def _make_decorator(kind: str, build):
    def decorator(
        pass_func=None,
        opt_level: int | None = None,
        name: str | None = None,
        required=None,
        traceable: bool = False,
    ):
        if opt_level is None:
            raise TypeError(f"{kind}: opt_level is required, e.g. @{kind}(opt_level=1)")

        def create(func_or_cls):
            pass_name = name or func_or_cls.__name__
            info = PassInfo(opt_level, pass_name, required, traceable)
            if inspect.isclass(func_or_cls):
                return _class_pass(kind, func_or_cls, info, build)
            if not callable(func_or_cls):
                raise TypeError(f"{kind}: expected a function or class, got {func_or_cls!r}")
            return build(func_or_cls, info)

        return create if pass_func is None else create(pass_func)

    decorator.__name__ = kind
    return decorator


def _class_pass(kind, cls, info, build):
    method = "transform_module" if kind == "module_pass" else "transform_function"
    if not hasattr(cls, method):
        raise TypeError(f"{kind}: class {cls.__name__} must define {method}")

    @functools.wraps(cls)
    def make(*args, **kwargs):
        inst = cls(*args, **kwargs)
        return build(getattr(inst, method), info)

    return make


module_pass = _make_decorator("module_pass", ModulePass)
function_pass = _make_decorator("function_pass", FunctionPass)


def _prim_func_pass(pass_func, info):
    from tvm.tir.function import PrimFunc

    return FunctionPass(pass_func, info, PrimFunc)


prim_func_pass = _make_decorator("prim_func_pass", _prim_func_pass)


def PrintIR(header: str = "") -> Pass:  # noqa: N802  (pass constructors are capitalised)
    """A pass that prints the module and returns it unchanged."""

    def print_ir(mod, ctx):
        print(f"{header}\n{mod.script()}" if header else mod.script())
        return mod

    return ModulePass(print_ir, PassInfo(0, "PrintIR"))


__all__ = [
    "FunctionPass",
    "ModulePass",
    "Pass",
    "PassContext",
    "PassInfo",
    "PrintIR",
    "Sequential",
    "function_pass",
    "list_config_options",
    "module_pass",
    "prim_func_pass",
    "register_config_option",
]
