"""What the passes that rewrite internal functions share: which Relax functions are private,
whether a function is only ever called (never passed around), and renaming a function whose
signature changed at every call site."""

from __future__ import annotations

from tvm.ir.module import GlobalVar


def relax_functions(mod) -> dict:
    from ..expr import Function

    return {gv: f for gv, f in mod.functions.items() if isinstance(f, Function)}


def is_private(func) -> bool:
    return "global_symbol" not in (func.attrs or {})


def reference_counts(mod) -> tuple[dict, dict]:
    """(references, calls) per function name: how often a GlobalVar appears anywhere in the
    module's Relax functions, and how often as the callee of a call."""
    from ..analysis.bindings import post_order_visit
    from ..expr import Call

    refs: dict = {}
    calls: dict = {}

    def record(expr):
        if isinstance(expr, GlobalVar):
            refs[expr.name_hint] = refs.get(expr.name_hint, 0) + 1
        elif isinstance(expr, Call) and isinstance(expr.op, GlobalVar):
            calls[expr.op.name_hint] = calls.get(expr.op.name_hint, 0) + 1

    for func in relax_functions(mod).values():
        post_order_visit(func, record)
    return refs, calls


def only_called(mod) -> set:
    """Names of the private Relax functions that are used only as callees."""
    refs, calls = reference_counts(mod)
    return {
        gv.name_hint
        for gv, f in relax_functions(mod).items()
        if is_private(f) and refs.get(gv.name_hint, 0) == calls.get(gv.name_hint, 0)
    }


def new_global_var(name: str, func) -> GlobalVar:
    """A GlobalVar for func's new signature (a GlobalVar's struct info is set once)."""
    from ..expr import _sinfo_of

    gv = GlobalVar(name)
    if _sinfo_of(func) is not None:
        gv._fill_late_field("struct_info_", _sinfo_of(func))
    return gv


def rebuild_module(mod, replaced: dict, renamed: dict):
    """mod with functions replaced (by name) and, for names in renamed, a new GlobalVar."""
    functions = {}
    for gv, func in mod.functions.items():
        key = renamed.get(gv.name_hint, gv)
        functions[key] = replaced.get(gv.name_hint, func)
    return mod._with_functions(functions)


def replace_global_vars(func, mapping: dict):
    """func with each GlobalVar whose name is in mapping replaced by mapping[name]."""
    from tvm.ir.functor import NodeMutator

    from .lowering_utils import BindingRewriter, with_sinfo

    class _Swap(NodeMutator):
        namespace = "relax"

        def generic_visit(self, node):
            if isinstance(node, GlobalVar):
                return mapping.get(node.name_hint, node)
            new = super().generic_visit(node)
            if new is not node:  # renaming a callee keeps what the expression is
                with_sinfo(new, node.__dict__.get("struct_info_"))
            return new

    class _Rewriter(BindingRewriter):
        def substitute(self, expr):
            return _Swap().visit(expr)

    return _Rewriter().rewrite_function(func)
