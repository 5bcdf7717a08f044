"""The pass kinds users write Relax passes with: FunctionPass (each Relax function),
DataflowBlockPass (each dataflow block) and their decorators function_pass / dataflowblock_pass,
on top of tvm.transform's Pass and PassContext."""

from __future__ import annotations

import functools
import inspect

import tvm.transform as _ir_transform
from tvm.error import InternalError
from tvm.transform import PassInfo

from .lowering_utils import BindingRewriter


class FunctionPass(_ir_transform.FunctionPass):
    """A pass applied to every Relax function of a module (PrimFuncs are left alone); made
    with @relax.transform.function_pass."""

    def __init__(self, pass_func, info: PassInfo):
        from ..expr import Function

        super().__init__(pass_func, info, Function)

    def __repr__(self):
        return f"relax.FunctionPass(pass_info={self.info!r})"


class _BlockRewriter(BindingRewriter):
    """Hands each DataflowBlock of a function to the pass and checks what comes back."""

    def __init__(self, pass_obj, mod, ctx):
        super().__init__()
        self.pass_obj = pass_obj
        self.mod = mod
        self.ctx = ctx

    def rewrite_block(self, block):
        from ..expr import DataflowBlock

        if not isinstance(block, DataflowBlock):
            return super().rewrite_block(block)
        new = self.pass_obj.pass_func(block, self.mod, self.ctx)
        if not isinstance(new, DataflowBlock):
            raise TypeError(
                f"dataflowblock_pass {self.pass_obj.info.name!r} must return a DataflowBlock, "
                f"got {type(new).__name__}"
            )
        if new is not block:
            _check_scope_preserved(self.pass_obj.info.name, block, new)
        return new


def _scope_vars(block):
    """The block's non-dataflow vars (seen after it) and the symbolic vars its match_casts
    define, by name."""
    from ..analysis.struct_info_analysis import tir_vars_in
    from ..expr import DataflowVar, MatchCast

    outputs, symbolic = {}, {}
    for binding in block.bindings:
        if isinstance(binding, MatchCast):
            for v in tir_vars_in(binding.struct_info):
                symbolic.setdefault(v.name, v)
        if not isinstance(binding.var, DataflowVar):
            outputs[binding.var.name_hint] = binding.var
    return outputs, symbolic


def _check_scope_preserved(name, old, new):
    # The rest of the function reads the block's outputs and symbolic vars: a block pass may
    # not rename or drop them (upstream checks the same, with an InternalError).
    old_out, old_sym = _scope_vars(old)
    new_out, new_sym = _scope_vars(new)
    for key, var in old_out.items():
        if new_out.get(key) is not var:
            raise InternalError(
                f"dataflowblock_pass {name!r}: DataflowBlock Pass should not rewrite or delete "
                f"any global-scope Var (output {key!r} of the block is missing or replaced)"
            )
    for key, var in old_sym.items():
        if new_sym.get(key, var) is not var:
            raise InternalError(
                f"dataflowblock_pass {name!r}: DataflowBlock Pass should not rewrite any "
                f"symbolic Var ({key!r} is replaced)"
            )


class DataflowBlockPass(_ir_transform.Pass):
    """A pass applied to every DataflowBlock of every Relax function; made with
    @relax.transform.dataflowblock_pass. The block's outputs (non-dataflow vars) and the
    symbolic vars it defines must survive unchanged."""

    def __init__(self, pass_func, info: PassInfo):
        self.pass_func = pass_func
        self.info = info

    def _transform(self, mod, ctx, owned):
        from ..expr import Function

        return _ir_transform.rewrite_functions(
            mod, owned, Function, lambda gv, f: _BlockRewriter(self, mod, ctx).rewrite_function(f)
        )

    def __repr__(self):
        return f"relax.DataflowBlockPass(pass_info={self.info!r})"


def _wrap_class(kind, cls, info, base, method):
    """A subclass of base whose constructor takes cls's arguments; the instance's method is
    the pass function and its other attributes are reachable through the pass."""

    class PyPass(base):
        def __init__(self, *args, **kwargs):
            inst = cls(*args, **kwargs)
            if not callable(getattr(inst, method, None)):
                raise TypeError(f"{kind}: class {cls.__name__} must define {method}(self, ...)")
            base.__init__(self, getattr(inst, method), info)
            self.__dict__["_inst"] = inst

        def __getattr__(self, name):
            inst = self.__dict__.get("_inst")
            if inst is None:
                raise AttributeError(name)
            return getattr(inst, name)

    functools.update_wrapper(PyPass.__init__, cls.__init__)
    PyPass.__name__ = cls.__name__
    PyPass.__qualname__ = cls.__qualname__
    PyPass.__doc__ = cls.__doc__
    PyPass.__module__ = cls.__module__
    return PyPass


def _decorator(kind, base, method, what):
    def decorator(pass_func=None, opt_level=None, name=None, required=None, traceable=False):
        if opt_level is None:
            raise ValueError(f"{kind}: please provide opt_level for the {what} pass")

        def create(func_or_cls):
            if inspect.isclass(func_or_cls):
                info = PassInfo(opt_level, name or func_or_cls.__name__, required, traceable)
                return _wrap_class(kind, func_or_cls, info, base, method)
            if not callable(func_or_cls):
                raise TypeError(
                    f"{kind}: pass_func must be a function or a class defining {method}, "
                    f"got {type(func_or_cls).__name__}"
                )
            info = PassInfo(opt_level, name or func_or_cls.__name__, required, traceable)
            return base(func_or_cls, info)

        return create if pass_func is None else create(pass_func)

    decorator.__name__ = decorator.__qualname__ = kind
    return decorator


function_pass = _decorator("function_pass", FunctionPass, "transform_function", "function")
function_pass.__doc__ = """Decorate fn(func, mod, ctx) -> func, or a class with
transform_function(self, func, mod, ctx), as a pass over the module's Relax functions."""

dataflowblock_pass = _decorator(
    "dataflowblock_pass", DataflowBlockPass, "transform_dataflowblock", "dataflowblock"
)
dataflowblock_pass.__doc__ = """Decorate fn(block, mod, ctx) -> block, or a class with
transform_dataflowblock(self, block, mod, ctx), as a pass over every DataflowBlock."""

__all__ = ["DataflowBlockPass", "FunctionPass", "dataflowblock_pass", "function_pass"]


def __getattr__(name: str):
    # Upstream defines every pass constructor in tvm/relax/transform/transform.py, and code
    # imports them from there: here they live in modules of their own, one per pass.
    import tvm.relax.transform as package

    if name.startswith("__") or name not in getattr(package, "__all__", ()):
        raise AttributeError(f"module 'tvm.relax.transform.transform' has no attribute {name!r}")
    return getattr(package, name)
