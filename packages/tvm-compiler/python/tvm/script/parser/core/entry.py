"""Entry points: parse a decorated function or class, or TVMScript text (from_source)."""

from __future__ import annotations

import ast
import inspect

from .diagnostics import Source


def caller_vars(depth: int = 2) -> dict:
    """The globals and locals where the decorator was applied (a test function's locals)."""
    frame = inspect.currentframe()
    for _ in range(depth):
        frame = frame.f_back
    values = dict(frame.f_globals)
    values.update(frame.f_locals)
    return values


def in_class_body(depth: int = 2) -> bool:
    frame = inspect.currentframe()
    for _ in range(depth):
        frame = frame.f_back
    return "__module__" in frame.f_locals and "__qualname__" in frame.f_locals


def default_vars() -> dict:
    import tvm
    from tvm.script.parser import ir as I  # noqa: N812
    from tvm.script.parser import relax as R  # noqa: N812
    from tvm.script.parser import tir as T  # noqa: N812

    return {"T": T, "I": I, "R": R, "tvm": tvm}


def parse_definition(source: Source, node, values: dict):
    """The IR for one top-level def (a prim_func) or class (an ir_module)."""
    from ..ir.entry import parse_module
    from ..relax.entry import is_relax_function, parse_relax_function_node
    from ..tir.entry import parse_prim_func_node
    from .parser import Parser

    if isinstance(node, ast.ClassDef):
        return parse_module(source, node, values)
    if isinstance(node, ast.FunctionDef) and is_relax_function(Parser(source, values), node):
        return parse_relax_function_node(source, node, values)
    if isinstance(node, ast.FunctionDef):
        return parse_prim_func_node(source, node, values)
    raise source.error(node, "expected an @I.ir_module class or a @T.prim_func function")


def parse(program, extra_vars: dict | None = None, check_well_formed: bool = True):
    """TVMScript text (or a function/class object) as IR; upstream's tvm.script.from_source."""
    del check_well_formed
    values = default_vars()
    values.update(extra_vars or {})
    if not isinstance(program, str):
        source = Source.from_object(program)
    else:
        source = Source(program)
    tree = source.parse()
    result = None
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            exec(compile(ast.Module([node], []), source.source_name, "exec"), values)  # noqa: S102
        elif isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            if result is not None:
                raise source.error(node, "one @I.ir_module class or @T.prim_func per source")
            result = parse_definition(source, node, values)
        elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            raise source.error(node, "expected an @I.ir_module class or a @T.prim_func function")
    if result is None:
        raise ValueError("from_source: the text defines no @I.ir_module or @T.prim_func")
    return result
