"""Entry points: parse a decorated function or class, or TVMScript text (from_source)."""

from __future__ import annotations

import ast
import inspect

from .diagnostics import Source, through_renderer


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


@through_renderer
def parse(program, extra_vars: dict | None = None, check_well_formed: bool = True):
    """TVMScript text (or a function/class object) as IR; upstream's tvm.script.from_source."""
    del check_well_formed
    values = default_vars()
    values.update(extra_vars or {})
    if isinstance(program, (bytes, bytearray)):
        raise TypeError(
            "from_source: program must be TVMScript text (a str; decode bytes first) or a "
            f"function or class object, got {type(program).__name__}"
        )
    if not isinstance(program, str):
        if not (inspect.isclass(program) or inspect.isroutine(program)):
            raise TypeError(
                "from_source: program must be TVMScript text (a str) or a function or class "
                f"object, got {type(program).__name__}"
            )
        source = Source.from_object(program)
    else:
        source = Source(program)
    tree = source.parse()
    result = None
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            exec(compile(ast.Module([node], []), source.source_name, "exec"), values)  # noqa: S102
        elif _is_metadata(node):
            values["metadata"] = _load_metadata(source, node)
        elif isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            if result is not None:
                raise source.error(node, "one @I.ir_module class or @T.prim_func per source")
            result = parse_definition(source, node, values)
        elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            raise source.error(node, "expected an @I.ir_module class or a @T.prim_func function")
    if result is None:
        raise ValueError("from_source: the text defines no @I.ir_module or @T.prim_func")
    return result


def _is_metadata(node) -> bool:
    return (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == "metadata"
    )


def _load_metadata(source: Source, node):
    """The table of upstream's metadata section, `metadata = tvm.ir.load_json(\"\"\"...\"\"\")`,
    which script(show_meta=True) prints before the IR that names its entries."""
    import tvm

    call = node.value
    if not (
        isinstance(call, ast.Call)
        and ast.unparse(call.func) == "tvm.ir.load_json"
        and len(call.args) == 1
        and not call.keywords
        and isinstance(call.args[0], ast.Constant)
        and isinstance(call.args[0].value, str)
    ):
        raise source.error(
            node, 'expected the metadata section: metadata = tvm.ir.load_json("""...""")'
        )
    try:
        return tvm.ir.load_json(call.args[0].value)
    except (TypeError, ValueError) as err:
        raise source.error(call.args[0], f"the metadata section does not load: {err}") from None
