"""The symbolic (TIR) variables of struct info and functions: which appear, which a value of
that struct info defines when matched, which must be non-negative, and which a function
defines or uses without defining (relax.analysis.tir_vars_in_struct_info and its siblings)."""

from __future__ import annotations

from tvm.tir import expr as E

from ..struct_info import (
    FuncStructInfo,
    PrimStructInfo,
    ShapeStructInfo,
    TensorStructInfo,
    TupleStructInfo,
)
from ._checks import expect_function, expect_struct_info
from .struct_info_analysis import _dims, tir_vars_in


def _dedup(items) -> list:
    out: list = []
    for item in items:
        if all(item is not seen for seen in out):
            out.append(item)
    return out


def _shape_exprs(sinfo, with_prim_values: bool):
    """Each PrimExpr of sinfo a match would compare against a value (shapes, prim values),
    in order of occurrence; function signatures are not values, so not entered."""
    if isinstance(sinfo, TensorStructInfo):
        yield from _dims(sinfo) or ()
    elif isinstance(sinfo, ShapeStructInfo):
        yield from sinfo.values or ()
    elif isinstance(sinfo, PrimStructInfo):
        if with_prim_values and sinfo.value is not None:
            yield sinfo.value
    elif isinstance(sinfo, TupleStructInfo):
        for field in sinfo.fields:
            yield from _shape_exprs(field, with_prim_values)


def _signature_exprs(sinfo, with_prim_values: bool, with_ret: bool):
    """_shape_exprs, entering a function signature's parameters (and result, with_ret), as
    upstream's definable / non-negative collections do for a FuncStructInfo."""
    if isinstance(sinfo, FuncStructInfo):
        for param in sinfo.params or ():
            yield from _signature_exprs(param, with_prim_values, with_ret)
        if with_ret and sinfo.ret is not None:
            yield from _signature_exprs(sinfo.ret, with_prim_values, with_ret)
        return
    yield from _shape_exprs(sinfo, with_prim_values)


def tir_vars_in_struct_info(sinfo) -> list:
    """Every TIR variable sinfo mentions, each once, in order of occurrence."""
    expect_struct_info("tir_vars_in_struct_info", sinfo)
    return tir_vars_in(sinfo)


def definable_tir_vars_in_struct_info(sinfo) -> list:
    """The TIR variables a value of sinfo defines when matched: those standing alone as a
    dimension or a prim value (n in (n, m * 2), not m)."""
    expect_struct_info("definable_tir_vars_in_struct_info", sinfo)
    return _dedup(e for e in _signature_exprs(sinfo, True, False) if isinstance(e, E.Var))


def collect_non_negative_expressions(sinfo) -> list:
    """The non-constant expressions sinfo uses as extents (tensor and shape dimensions), which
    are therefore non-negative wherever sinfo holds; each once, in order of occurrence."""
    expect_struct_info("collect_non_negative_expressions", sinfo)
    exprs = _signature_exprs(sinfo, False, True)
    return _dedup(e for e in exprs if not isinstance(e, E.IntImm))


def _function_symbolic_vars(func):
    """(defined, used) TIR variables of func, each in order of occurrence."""
    from ..expr import _sinfo_of
    from ..expr_functor import ExprVisitor

    defined: list = []
    used: list = []

    def define_from(sinfo):
        if isinstance(sinfo, FuncStructInfo) or sinfo is None:
            return
        defined.extend(e for e in _shape_exprs(sinfo, True) if isinstance(e, E.Var))

    class _Collect(ExprVisitor):
        def visit_var_def(self, var):
            used.extend(tir_vars_in(_sinfo_of(var)))

        def visit_Function(self, node):  # noqa: N802  (dispatch names follow the node class)
            for p in node.params:
                define_from(_sinfo_of(p))
            used.extend(tir_vars_in(node.ret_struct_info))
            self.generic_visit(node)

        def visit_MatchCast(self, node):  # noqa: N802
            define_from(node.struct_info)
            used.extend(tir_vars_in(node.struct_info))
            self.generic_visit(node)

        def visit_ShapeExpr(self, node):  # noqa: N802
            used.extend(tir_vars_in(node.values))

        def visit_PrimValue(self, node):  # noqa: N802
            used.extend(tir_vars_in(node.value))

        def visit_Call(self, node):  # noqa: N802
            used.extend(tir_vars_in(list(node.sinfo_args)))
            self.generic_visit(node)

    _Collect().visit(func)
    return _dedup(defined), _dedup(used)


def defined_symbolic_vars(func) -> list:
    """The TIR variables func defines: through its parameters' struct info and match_casts."""
    expect_function("defined_symbolic_vars", func)
    return _function_symbolic_vars(func)[0]


def free_symbolic_vars(func) -> list:
    """The TIR variables func uses without defining them."""
    expect_function("free_symbolic_vars", func)
    defined, used = _function_symbolic_vars(func)
    return [v for v in used if all(v is not d for d in defined)]
