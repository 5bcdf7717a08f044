"""RemoveUnusedOutputs: an internal (private, only called) function returning a tuple stops
returning the fields no caller reads; the callers' tuple indices are renumbered."""

from __future__ import annotations

from tvm.ir.module import GlobalVar
from tvm.transform import module_pass

from .dead_code_elimination import remove_unused_bindings
from .lowering_utils import BindingRewriter, with_sinfo
from .private_functions import new_global_var, only_called, rebuild_module, relax_functions


def _is_call_of(value, names) -> bool:
    from ..expr import Call

    return (
        isinstance(value, Call) and isinstance(value.op, GlobalVar) and value.op.name_hint in names
    )


def _used_fields(mod, names) -> dict:
    """name -> set of the output indices callers read, or None when some caller uses the
    whole tuple (or does not bind the call to a variable)."""
    used: dict = {name: set() for name in names}
    for func in relax_functions(mod).values():
        _scan_caller(func, names, used)
    return used


def _scan_caller(func, names, used) -> None:
    from ..analysis.bindings import _bindings, post_order_visit
    from ..expr import Call, TupleGetItem, VarBinding

    results = {}  # result variable -> callee name
    bound_calls = set()
    for b in _bindings(func):
        if isinstance(b, VarBinding) and _is_call_of(b.value, names):
            results[b.var] = b.value.op.name_hint
            bound_calls.add(id(b.value))
    reads: dict = {}  # id(result var) -> times read at all
    getitem_reads: dict = {}  # id(result var) -> times read as t[i]

    def record(expr):
        reads[id(expr)] = reads.get(id(expr), 0) + 1
        if isinstance(expr, TupleGetItem) and expr.tuple_value in results:
            key = id(expr.tuple_value)
            getitem_reads[key] = getitem_reads.get(key, 0) + 1
            name = results[expr.tuple_value]
            if used[name] is not None:
                used[name].add(expr.index)
        elif isinstance(expr, Call) and _is_call_of(expr, names) and id(expr) not in bound_calls:
            used[expr.op.name_hint] = None

    post_order_visit(func, record)
    # a result variable read other than through t[i] hands out the whole tuple
    for var, name in results.items():
        if reads.get(id(var), 0) != getitem_reads.get(id(var), 0):
            used[name] = None


def _shrink(func, keep, mod):
    """func returning only the fields in keep, or None when its body is no tuple literal."""
    from ..analysis.bindings import get_var2val
    from ..expr import Function, SeqExpr, Tuple
    from ..struct_info import TupleStructInfo

    body = func.body
    if not isinstance(body, SeqExpr):
        return None
    result = body.body
    if not isinstance(result, Tuple):
        result = get_var2val(func).get(result)
        if not isinstance(result, Tuple):
            return None
    fields = [result.fields[i] for i in keep]
    new_tuple = Tuple(fields)
    ret = TupleStructInfo([func.ret_struct_info.fields[i] for i in keep])
    new = Function(
        func.params, SeqExpr(body.blocks, new_tuple), ret, func.is_pure, func.attrs, func.span
    )
    return remove_unused_bindings(new, mod)


class _CallerRewriter(BindingRewriter):
    def __init__(self, plan):
        super().__init__()
        self.plan = plan  # name -> (kept indices, new GlobalVar)
        self.results = {}  # old result var -> (new var, old index -> new index)

    def rewrite_binding(self, binding, emit):
        from ..expr import Call, TupleGetItem, VarBinding
        from ..struct_info import TupleStructInfo

        value = binding.value
        if isinstance(binding, VarBinding) and _is_call_of(value, self.plan):
            keep, gv = self.plan[value.op.name_hint]
            old_sinfo = value.struct_info
            sinfo = TupleStructInfo([old_sinfo.fields[i] for i in keep])
            call = with_sinfo(Call(gv, value.args, value.attrs, value.sinfo_args), sinfo)
            var = type(binding.var)(binding.var.name_hint, sinfo)
            self.results[binding.var] = (var, {old: new for new, old in enumerate(keep)})
            emit(VarBinding(var, call))
            return
        if isinstance(value, TupleGetItem) and value.tuple_value in self.results:
            var, index = self.results[value.tuple_value]
            emit(binding.with_fields(value=TupleGetItem(var, index[value.index])))
            return
        emit(binding)


def RemoveUnusedOutputs():  # noqa: N802  (pass constructors are capitalised)
    """The pass (relax.transform.RemoveUnusedOutputs)."""

    @module_pass(opt_level=0, name="RemoveUnusedOutputs")
    def remove_unused_outputs(mod, ctx):
        from ..struct_info import TupleStructInfo

        names = {
            gv.name_hint
            for gv, f in relax_functions(mod).items()
            if gv.name_hint in only_called(mod) and isinstance(f.ret_struct_info, TupleStructInfo)
        }
        if not names:
            return mod
        plan, replaced, renamed = {}, {}, {}
        for name, fields in _used_fields(mod, names).items():
            func = mod[name]
            total = len(func.ret_struct_info.fields)
            if fields is None or len(fields) == total:
                continue
            keep = sorted(fields)
            new = _shrink(func, keep, mod)
            if new is None:
                continue
            new_gv = new_global_var(name, new)
            plan[name] = (keep, new_gv)
            replaced[name] = new
            renamed[name] = new_gv
        if not plan:
            return mod
        for gv, func in relax_functions(mod).items():
            func = replaced.get(gv.name_hint, func)
            replaced[gv.name_hint] = _CallerRewriter(plan).rewrite_function(func)
        return rebuild_module(mod, replaced, renamed)

    return remove_unused_outputs
