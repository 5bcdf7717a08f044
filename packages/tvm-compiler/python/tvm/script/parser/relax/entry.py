"""@R.function: parse a Python function's source as a relax.Function."""

from __future__ import annotations

import ast
import inspect

from ..core.diagnostics import Source, through_renderer
from ..core.entry import caller_vars, in_class_body
from ..core.macro import macro_decorator


class StructInfoProxy:
    """Upstream's base of deferred annotations (R.Tensor("n") resolved later against a
    function's symbolic variables). Here R.Tensor, R.Shape, R.Prim, ... resolve at once and
    return the StructInfo itself, so no annotation is an instance of this class; code written
    for upstream that tests isinstance(x, StructInfoProxy) before StructInfo-or-callable
    falls through to those cases, which is what it means. Subclasses give as_struct_info()."""

    def as_struct_info(self, dict_globals=None):
        raise NotImplementedError(f"{type(self).__name__}.as_struct_info")


TypeProxy = StructInfoProxy  # upstream's 0.26+ name of the same base


class _FunctionDecorator:
    """What `@R.function(pure=False, private=True)` evaluates to."""

    def __init__(self, pure: bool, private: bool):
        self.pure = pure
        self.private = private

    def __call__(self, func):
        if in_class_body():
            return _defer(func, self.pure, self.private)
        return _parse_function(func, self.pure, self.private, caller_vars())


def function(func=None, pure: bool = True, private: bool = False, check_well_formed=True):
    """Parse the decorated function as a relax.Function; pure=False allows side effects,
    private=True gives it no global symbol."""
    del check_well_formed
    if func is None:
        return _FunctionDecorator(pure, private)
    if not inspect.isfunction(func):
        raise TypeError(f"R.function: expected a Python function, got {type(func).__name__}")
    if in_class_body():
        return _defer(func, pure, private)
    return _parse_function(func, pure, private, caller_vars())


def _defer(func, pure, private):
    func.__tvmscript_relax_function__ = (pure, private)
    return func


@through_renderer
def _parse_function(func, pure, private, values):
    source = Source.from_object(func)
    tree = source.parse()
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    values = {**values, **func.__globals__}
    values.update(inspect.getclosurevars(func).nonlocals)
    return parse_relax_function_node(source, node, values, pure, private)


def parse_relax_function_node(source, node, values, pure=None, private=None):
    from .parser import RelaxParser

    return RelaxParser(source, values).parse_function(node, pure, private)


def is_relax_function(parser, node: ast.FunctionDef) -> bool:
    """Whether node is decorated with @R.function (in any of its forms)."""
    from .parser import _decorator_options

    return _decorator_options(parser, node) is not None


def signature_struct_info(source, node, values):
    """The FuncStructInfo a module's GlobalVar for node gets before any body is parsed (so
    functions can call each other in any order). Without a return annotation the result is
    R.Object, as upstream declares it; the module parse refines it once the body is parsed."""
    from .parser import RelaxParser, _decorator_options

    parser = RelaxParser(source, values)
    pure, _ = _decorator_options(parser, node)
    return parser.signature_sinfo(node, pure)


macro = macro_decorator("R")
