"""@T.prim_func: parse a Python function's source as a TIR PrimFunc."""

from __future__ import annotations

import ast
import inspect

from ..core.diagnostics import Source, through_renderer
from ..core.entry import caller_vars, in_class_body
from ..core.macro import macro_decorator


class _PrimFuncDecorator:
    """What `@T.prim_func(private=True)` evaluates to."""

    def __init__(self, private: bool, s_tir: bool = False):
        self.private = private
        self.s_tir = s_tir

    def __call__(self, func):
        if in_class_body():
            return _defer(func, self.private, self.s_tir)  # the @I.ir_module around parses it
        return _parse_function(func, self.private, caller_vars(), self.s_tir)


def prim_func(
    func=None,
    private: bool = False,
    check_well_formed: bool = True,
    s_tir: bool = False,
    persistent: bool = False,
):
    """Parse the decorated function as a TIR PrimFunc; private=True gives it no global symbol.
    s_tir=True marks it as schedulable TIR (upstream 0.27's {"s_tir": True} attribute, which
    its T.sblock blocks ask for); persistent is accepted for upstream's signature."""
    del check_well_formed, persistent
    if not isinstance(s_tir, bool):
        raise TypeError(f"T.prim_func: s_tir must be a bool, got {s_tir!r}")
    if func is None:
        return _PrimFuncDecorator(private, s_tir)
    if not inspect.isfunction(func):
        raise TypeError(f"T.prim_func: expected a Python function, got {type(func).__name__}")
    if in_class_body():
        return _defer(func, private, s_tir)
    return _parse_function(func, private, caller_vars(), s_tir)


def _defer(func, private: bool, s_tir: bool = False):
    func.__tvmscript_prim_func__ = True
    func.__tvmscript_private__ = private
    func.__tvmscript_s_tir__ = s_tir
    func.__tvmscript_vars__ = caller_vars(3)
    return func


def parse_later(func):
    """A @T.prim_func written in a class body (outside an @I.ir_module), parsed now."""
    return _parse_function(
        func, func.__tvmscript_private__, func.__tvmscript_vars__, func.__tvmscript_s_tir__
    )


def mark_s_tir(func):
    """func with upstream 0.27's {"s_tir": True} attribute (schedulable TIR)."""
    return func if func.attrs.get("s_tir") else func.with_attr("s_tir", True)


@through_renderer
def _parse_function(func, private: bool, values: dict, s_tir: bool = False):
    source = Source.from_object(func)
    tree = source.parse()
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    values = {**values, **func.__globals__}
    closure = inspect.getclosurevars(func)
    values.update(closure.nonlocals)
    out = parse_prim_func_node(source, node, values, private)
    return mark_s_tir(out) if s_tir else out


def decorator_private(parser, node: ast.FunctionDef):
    """Whether node's decorators make it a prim_func (None if not), and whether private."""
    for dec in node.decorator_list:
        value = parser.eval(dec)
        if value is prim_func:
            return False
        if isinstance(value, _PrimFuncDecorator):
            return value.private
    return None


def decorator_s_tir(parser, node: ast.FunctionDef) -> bool:
    """Whether node's @T.prim_func(s_tir=True) asks for schedulable TIR."""
    for dec in node.decorator_list:
        value = parser.eval(dec)
        if isinstance(value, _PrimFuncDecorator):
            return value.s_tir
    return False


def parse_prim_func_node(source, node, values, private=None):
    from .parser import TIRParser

    parser = TIRParser(source, values)
    if private is None:
        private = decorator_private(parser, node)
        if private is None:
            raise source.error(node, f"function {node.name!r} is not decorated with @T.prim_func")
    return parser.parse_function(node, private)


macro = macro_decorator("T")
