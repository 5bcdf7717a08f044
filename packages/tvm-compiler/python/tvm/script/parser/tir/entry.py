"""@T.prim_func: parse a Python function's source as a TIR PrimFunc."""

from __future__ import annotations

import ast
import inspect

from ..core.diagnostics import Source, through_renderer
from ..core.entry import caller_vars, in_class_body
from ..core.macro import macro_decorator


class _PrimFuncDecorator:
    """What `@T.prim_func(private=True)` evaluates to."""

    def __init__(self, private: bool):
        self.private = private

    def __call__(self, func):
        if in_class_body():
            return _defer(func, self.private)  # the @I.ir_module around the class parses it
        return _parse_function(func, self.private, caller_vars())


def prim_func(func=None, private: bool = False, check_well_formed: bool = True):
    """Parse the decorated function as a TIR PrimFunc; private=True gives it no global symbol."""
    del check_well_formed
    if func is None:
        return _PrimFuncDecorator(private)
    if not inspect.isfunction(func):
        raise TypeError(f"T.prim_func: expected a Python function, got {type(func).__name__}")
    if in_class_body():
        return _defer(func, private)
    return _parse_function(func, private, caller_vars())


def _defer(func, private: bool):
    func.__tvmscript_prim_func__ = True
    func.__tvmscript_private__ = private
    func.__tvmscript_vars__ = caller_vars(3)
    return func


def parse_later(func):
    """A @T.prim_func written in a class body (outside an @I.ir_module), parsed now."""
    return _parse_function(func, func.__tvmscript_private__, func.__tvmscript_vars__)


@through_renderer
def _parse_function(func, private: bool, values: dict):
    source = Source.from_object(func)
    tree = source.parse()
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    values = {**values, **func.__globals__}
    closure = inspect.getclosurevars(func)
    values.update(closure.nonlocals)
    return parse_prim_func_node(source, node, values, private)


def decorator_private(parser, node: ast.FunctionDef):
    """Whether node's decorators make it a prim_func (None if not), and whether private."""
    for dec in node.decorator_list:
        value = parser.eval(dec)
        if value is prim_func:
            return False
        if isinstance(value, _PrimFuncDecorator):
            return value.private
    return None


def parse_prim_func_node(source, node, values, private=None):
    from .parser import TIRParser

    parser = TIRParser(source, values)
    if private is None:
        private = decorator_private(parser, node)
        if private is None:
            raise source.error(node, f"function {node.name!r} is not decorated with @T.prim_func")
    return parser.parse_function(node, private)


macro = macro_decorator("T")
