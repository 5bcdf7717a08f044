"""@I.ir_module: parse a class of prim_funcs (naming each other Module.f) as an IRModule."""

from __future__ import annotations

import ast

from tvm.error import DiagnosticError
from tvm.ir.module import GlobalVar
from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder.ir import IRModuleFrame

from ..core.diagnostics import Source, combined, through_renderer
from ..core.entry import caller_vars
from ..core.parser import Parser


class _ModuleRefs:
    """`Module.f` (or `cls.f`) inside the class: the GlobalVar of function f."""

    def __init__(self, name: str, gvs: dict):
        self.__name__ = name
        self._gvs = gvs

    def __getattr__(self, attr):
        gv = self.__dict__["_gvs"].get(attr)
        if gv is None:
            raise AttributeError(attr)
        return gv


def parse_module(source: Source, node: ast.ClassDef, values: dict):
    from ..relax.entry import is_relax_function, signature_struct_info

    gvs = {n.name: GlobalVar(n.name) for n in node.body if isinstance(n, ast.FunctionDef)}
    refs = _ModuleRefs(node.name, gvs)
    values = {"cls": refs, **values, node.name: refs}
    parser = Parser(source, values)
    relax_defs = [
        n for n in node.body if isinstance(n, ast.FunctionDef) and is_relax_function(parser, n)
    ]
    with IRBuilder() as builder, IRModuleFrame() as frame:
        frame.reserved_names.update(gvs)
        # I.module_attrs / I.module_global_infos first: signatures name the virtual devices.
        for stmt in node.body:
            if isinstance(stmt, ast.Expr):
                source.run(stmt.value, parser.eval)
        for stmt in relax_defs:  # calls between Relax functions need the callee's struct info
            sinfo = signature_struct_info(source, stmt, values)
            if sinfo is not None:
                gvs[stmt.name]._fill_late_field("struct_info_", sinfo)
        errors = []  # each function's, reported together once every function is parsed
        for stmt in node.body:
            try:
                _parse_member(source, parser, stmt, relax_defs, gvs, values, frame)
            except DiagnosticError as err:
                errors.append(err)
        if errors:
            raise combined(errors)
    return builder.get()


def _parse_member(source, parser, stmt, relax_defs, gvs, values, frame) -> None:
    from ..relax.entry import parse_relax_function_node
    from ..tir.entry import decorator_private, decorator_s_tir, mark_s_tir, parse_prim_func_node

    if any(stmt is r for r in relax_defs):
        func = parse_relax_function_node(source, stmt, values)
        frame.functions[gvs[stmt.name]] = func
        if stmt.returns is None:
            _refine_global_var(gvs[stmt.name], func)
    elif isinstance(stmt, ast.FunctionDef):
        private = decorator_private(parser, stmt)
        if private is None:
            raise source.error(stmt, f"{stmt.name!r}: expected a @T.prim_func")
        func = parse_prim_func_node(source, stmt, values, private)
        frame.functions[gvs[stmt.name]] = (
            mark_s_tir(func) if decorator_s_tir(parser, stmt) else func
        )
    elif not isinstance(stmt, (ast.Pass, ast.Expr)):
        raise source.error(
            stmt,
            "an @I.ir_module class holds functions, I.module_attrs(...) and "
            "I.module_global_infos(...) only",
        )


def _refine_global_var(gv: GlobalVar, func) -> None:
    """Give gv the struct info of its parsed function, whose result was unknown (R.Object) when
    gv was declared: callers parsed after it see the real result. Upstream's DefFunction
    updates the module's GlobalVar in place the same way; struct info is never part of
    structural comparison, so the update changes no node's identity."""
    object.__setattr__(gv, "struct_info_", func.struct_info)


def ir_module(cls=None, check_well_formed: bool = True, s_tir: bool = False):
    """Parse the decorated class as an IRModule of its functions; s_tir=True marks every
    PrimFunc in it as schedulable TIR (upstream 0.27's {"s_tir": True} attribute)."""
    del check_well_formed
    if not isinstance(s_tir, bool):
        raise TypeError(f"I.ir_module: s_tir must be a bool, got {s_tir!r}")
    if cls is None:
        return lambda c: _mark(_parse_class(c, caller_vars()), s_tir)
    return _mark(_parse_class(cls, caller_vars()), s_tir)


def _mark(mod, s_tir: bool):
    if not s_tir:
        return mod
    from tvm.tir import PrimFunc

    from ..tir.entry import mark_s_tir

    for gv, func in list(mod.functions.items()):
        if isinstance(func, PrimFunc):
            mod = mod.with_function(gv, mark_s_tir(func))
    return mod


@through_renderer
def _parse_class(cls, values):
    if not isinstance(cls, type):
        raise TypeError(f"I.ir_module: expected a class, got {type(cls).__name__}")
    source = Source.from_object(cls)
    tree = source.parse()
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    return parse_module(source, node, values)
