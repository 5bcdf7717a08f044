"""DeadCodeElimination: bindings whose value nobody reads and whose computation has no effect
are removed, and so are private functions nothing reachable calls."""

from __future__ import annotations

from tvm.transform import module_pass

from .lowering_utils import BindingRewriter, free_relax_uses

# Ops that act (allocate, print, check, call out): never removed even when unread.
_EFFECT_OPS = {
    "relax.call_packed",
    "relax.call_builtin_with_ctx",
    "relax.assert_op",
    "relax.print",
    "relax.call_inplace_packed",
    "relax.invoke_closure",
    "relax.vm.kill_object",
    "relax.memory.kill_storage",
    "relax.memory.kill_tensor",
}


def _has_effect(value, mod) -> bool:
    from tvm.ir.module import GlobalVar
    from tvm.ir.op import Op
    from tvm.relax.expr import Call, Function

    if not isinstance(value, Call):
        return False
    op = value.op
    if isinstance(op, Op):
        return op.name in _EFFECT_OPS or op.name.startswith("relax.vm.")
    if isinstance(op, GlobalVar) and op in mod:
        callee = mod[op]
        return not (isinstance(callee, Function) and callee.is_pure)
    return True  # an extern or a closure: unknown effects


def _symbols_in_use(func) -> dict:
    """Each symbolic (TIR) variable in the struct info of func's result and of its bound
    variables, with the bound variables whose struct info names it."""
    from tvm.relax.analysis import tir_vars_in_struct_info
    from tvm.relax.analysis.bindings import _bindings

    uses: dict = {}
    for var in tir_vars_in_struct_info(func.ret_struct_info):
        uses.setdefault(var, set()).add(None)
    for binding in _bindings(func):
        for var in tir_vars_in_struct_info(binding.var.struct_info):
            uses.setdefault(var, set()).add(binding.var)
    return uses


class _RemoveUnused(BindingRewriter):
    def __init__(self, mod, used, symbols=None):
        super().__init__()
        self.mod = mod
        self.used = used
        self.symbols = symbols or {}

    def _defines_used_symbol(self, binding) -> bool:
        # A match_cast that defines a symbolic variable another binding's (or the result's)
        # struct info names stays, read or not: removing it would leave that name undefined.
        from tvm.relax.analysis import definable_tir_vars_in_struct_info
        from tvm.relax.expr import MatchCast

        if not isinstance(binding, MatchCast):
            return False
        return any(
            self.symbols.get(v, set()) - {binding.var}
            for v in definable_tir_vars_in_struct_info(binding.struct_info)
        )

    def rewrite_binding(self, binding, emit):
        if (
            binding.var in self.used
            or _has_effect(binding.value, self.mod)
            or self._defines_used_symbol(binding)
        ):
            emit(binding)


def remove_unused_bindings(func, mod):
    """func without its dead bindings (repeated until nothing more dies)."""
    while True:
        used = set(free_relax_uses(func.body))
        new = _RemoveUnused(mod, used, _symbols_in_use(func)).rewrite_function(func)
        if new is func:
            return func
        func = new


def _reachable(mod, entry_functions):
    from tvm.ir.module import GlobalVar

    seen: set = set()
    stack = [gv for gv in mod.get_global_vars() if gv.name_hint in entry_functions]

    while stack:
        gv = stack.pop()
        if gv.name_hint in seen:
            continue
        seen.add(gv.name_hint)
        found: list = []
        _find_global_vars(mod[gv], found, GlobalVar)
        stack.extend(g for g in found if g.name_hint in mod)
    return seen


def _find_global_vars(node, found, gv_cls):
    from tvm.ir.node import Node

    todo = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, gv_cls):
            found.append(item)
        elif isinstance(item, Node):
            todo.extend(getattr(item, f) for f in item._visit_fields())
        elif isinstance(item, (list, tuple)):
            todo.extend(item)
        elif isinstance(item, dict):
            todo.extend(item.values())


def DeadCodeElimination(entry_functions=None):  # noqa: N802
    """Remove unused bindings and unreachable private functions (relax.transform
    .DeadCodeElimination); entry_functions default to the public ones."""

    @module_pass(opt_level=0, name="DeadCodeElimination")
    def dead_code_elimination(mod, ctx):
        from tvm.relax.expr import ExternFunc, Function

        entries = set(entry_functions or ())
        for gv, func in mod.functions.items():
            # an ExternFunc names a symbol found at run time: always kept, as upstream
            if "global_symbol" in func.attrs or isinstance(func, ExternFunc):
                entries.add(gv.name_hint)
        changed = {}
        for gv, func in mod.functions.items():
            if isinstance(func, Function):
                new = remove_unused_bindings(func, mod)
                if new is not func:
                    changed[gv] = new
        if changed:
            mod = mod._with_replaced_functions(changed)
        live = _reachable(mod, entries)
        if len(live) == len(mod.functions):
            return mod
        kept = {gv: f for gv, f in mod.functions.items() if gv.name_hint in live}
        return mod._with_functions(kept)

    return dead_code_elimination
