"""MergeCompositeFunctions (relax.transform.MergeCompositeFunctions): merge the calls of
composite functions (FuseOpsByPattern's output) that share a codegen and feed one another into
one function with attributes Codegen and global_symbol, in which each composite function is a
local function; merging never creates a cycle between the groups."""

from __future__ import annotations

from tvm.ir.module import GlobalVar, IRModule
from tvm.transform import PassContext, module_pass

from .lowering_utils import free_relax_uses, rewrite_dataflow_blocks, substitute_vars, with_sinfo


class _Groups:
    """Union-find over the bindings of one function: each binding a group, the calls of
    composite functions with their codegen, merged as the pass allows."""

    def __init__(self):
        self.parent: dict = {}
        self.codegen: dict = {}
        self.deps: dict = {}  # group id -> the group ids it reads directly

    def add(self, gid, codegen, deps):
        self.parent[gid] = gid
        self.codegen[gid] = codegen
        self.deps[gid] = set(deps)

    def find(self, gid):
        while self.parent[gid] != gid:
            self.parent[gid] = self.parent[self.parent[gid]]
            gid = self.parent[gid]
        return gid

    def direct(self, gid) -> set:
        root = self.find(gid)
        out = set()
        for g, deps in self.deps.items():
            if self.find(g) == root:
                out.update(self.find(d) for d in deps)
        out.discard(root)
        return out

    def reaches(self, start, target) -> bool:
        """Whether group start depends on group target (through any path)."""
        seen, todo = set(), [self.find(start)]
        target = self.find(target)
        while todo:
            g = todo.pop()
            for d in self.direct(g):
                if d == target:
                    return True
                if d not in seen:
                    seen.add(d)
                    todo.append(d)
        return False

    def union(self, a, b):
        self.parent[self.find(b)] = self.find(a)


def _tuple_item_of(value, var_group, groups):
    """The group of the composite call whose tuple result value takes an item of, or None."""
    from ..expr import TupleGetItem

    if not isinstance(value, TupleGetItem) or value.tuple_value not in var_group:
        return None
    producer = groups.find(var_group[value.tuple_value])
    return producer if groups.codegen[producer] is not None else None


def _composite_codegen(value, mod):
    from ..expr import Call, Function

    if not isinstance(value, Call) or not isinstance(value.op, GlobalVar):
        return None
    if value.op not in mod:
        return None
    func = mod[value.op]
    if not isinstance(func, Function):
        return None
    name = (func.attrs or {}).get("Composite")
    return None if name is None else str(name).split(".")[0]


class _Merger:
    def __init__(self, mod):
        from ..block_builder import BlockBuilder

        self.mod = mod
        self.builder = BlockBuilder(mod)

    def merge_function(self, func):
        return rewrite_dataflow_blocks(func, self.merge_block)

    def merge_block(self, block, uses):
        from collections import Counter

        groups = _Groups()
        var_group: dict = {}
        for i, binding in enumerate(block.bindings):
            deps = []
            for v in free_relax_uses(binding.value):
                if v in var_group and groups.find(var_group[v]) not in deps:
                    deps.append(groups.find(var_group[v]))
            codegen = _composite_codegen(binding.value, self.mod)
            groups.add(i, codegen, deps)
            var_group[binding.var] = i
            producer = _tuple_item_of(binding.value, var_group, groups)
            if producer is not None:  # an item of a composite's tuple joins its group
                groups.codegen[i] = groups.codegen[producer]
                groups.union(producer, i)
                continue
            if codegen is None:
                continue
            for p in deps:
                p = groups.find(p)
                if groups.codegen[p] != codegen or p == groups.find(i):
                    continue
                others = [groups.find(q) for q in groups.direct(i)]
                if any(q != p and groups.reaches(q, p) for q in others):
                    continue  # merging would let the group read itself through q
                groups.union(p, i)
        members: dict = {}
        for i, binding in enumerate(block.bindings):
            root = groups.find(i)
            if groups.codegen[root] is not None:
                members.setdefault(root, []).append(binding)
        if not members:
            return block
        total = Counter(uses)
        replace: dict = {}
        for order in members.values():
            self.make_group(
                block,
                order,
                total,
                replace,
                groups.codegen[groups.find(block.bindings.index(order[0]))],
            )
        out = []
        for binding in block.bindings:
            out.extend(replace.get(id(binding), [binding]))
        return type(block)(out, block.span)

    def make_group(self, block, order, total, replace, codegen):
        from collections import Counter

        from ..expr import (
            BindingBlock,
            Call,
            DataflowVar,
            Function,
            SeqExpr,
            Tuple,
            TupleGetItem,
            Var,
            VarBinding,
        )
        from ..struct_info import TupleStructInfo
        from .fuse_ops_by_pattern import _dependents_between, _set_global_sinfo

        member_vars = {b.var for b in order}
        inside = Counter()
        for b in order:
            inside.update(free_relax_uses(b.value))
        outputs = [
            b.var
            for b in order
            if not isinstance(b.var, DataflowVar) or total[b.var] > inside.get(b.var, 0)
        ]
        if order[-1].var in outputs:  # the last member's value first (upstream's order)
            outputs.remove(order[-1].var)
            outputs.insert(0, order[-1].var)
        params, args, var_map = [], [], {}
        for b in order:
            for v in free_relax_uses(b.value):
                if v in member_vars or v in var_map:
                    continue
                var_map[v] = Var(v.name_hint, v.struct_info)
                params.append(var_map[v])
                args.append(v)
        inner = []
        names = []
        for b in order:
            if isinstance(b.value, TupleGetItem):  # an item of a member's tuple result
                new_var = Var(b.var.name_hint, b.var.struct_info)
                item = TupleGetItem(var_map[b.value.tuple_value], b.value.index)
                inner.append(VarBinding(new_var, with_sinfo(item, b.var.struct_info)))
                var_map[b.var] = new_var
                continue
            composite = self.mod[b.value.op]
            names.append(b.value.op.name_hint)
            attrs = {k: v for k, v in (composite.attrs or {}).items() if k != "Primitive"}
            local_func = _fresh_copy(composite).with_fields(attrs=attrs)
            local = Var("gv", local_func.struct_info)
            inner.append(VarBinding(local, local_func))
            call_args = [substitute_vars(a, var_map) for a in b.value.args]  # tuples too
            call = with_sinfo(Call(local, call_args), b.var.struct_info)
            new_var = Var(b.var.name_hint, b.var.struct_info)
            inner.append(VarBinding(new_var, call))
            var_map[b.var] = new_var
        if len(outputs) == 1:
            result = var_map[outputs[0]]
        else:
            fields = [var_map[v] for v in outputs]
            result = with_sinfo(Tuple(fields), TupleStructInfo([f.struct_info for f in fields]))
        ret = result.struct_info
        body = with_sinfo(SeqExpr([BindingBlock(inner)], result), ret)
        stem = "_".join(n[len("fused_") :] if n.startswith("fused_") else n for n in names)
        name = f"{self.builder.get_unique_name('fused_' + stem)}_{codegen}"
        func = Function(params, body, ret, True, {"Codegen": codegen, "global_symbol": name})
        gv = self.builder._add_named(func, name)
        _set_global_sinfo(gv, func)
        call = with_sinfo(Call(gv, args), ret)
        if len(outputs) == 1:
            new = [VarBinding(outputs[0], call)]
        else:
            tuple_var = DataflowVar("lv", ret)
            new = [VarBinding(tuple_var, call)]
            for var in [b.var for b in order if b.var in outputs]:
                item = with_sinfo(TupleGetItem(tuple_var, outputs.index(var)), var.struct_info)
                new.append(VarBinding(var, item))
        for b in order:
            replace[id(b)] = []
        deferred = _dependents_between(block, order, member_vars)
        for b in deferred:
            replace[id(b)] = []
        replace[id(order[-1])] = new + deferred


def _fresh_copy(func):
    """func with new variables for its parameters and bindings (a composite function called
    from two merged functions becomes two local functions that share no variable)."""
    from ..analysis.bindings import _bindings
    from ..expr import Var
    from .lowering_utils import substitute_vars

    var_map = {p: Var(p.name_hint, p.struct_info) for p in func.params}
    for b in _bindings(func):
        var_map[b.var] = type(b.var)(b.var.name_hint, b.var.struct_info)
    body = substitute_vars(func.body, var_map)
    return func.with_fields(params=[var_map[p] for p in func.params], body=body)


def _drop_composites(mod):
    """mod without the composite functions nothing calls any more."""
    from ..expr import Function
    from .dead_code_elimination import _find_global_vars

    used: set = set()
    for gv, f in mod.functions.items():
        found: list = []
        _find_global_vars(f, found, GlobalVar)
        used.update(g.name_hint for g in found if g.name_hint != gv.name_hint)
    keep = {
        gv: f
        for gv, f in mod.functions.items()
        if not (
            isinstance(f, Function) and "Composite" in (f.attrs or {}) and gv.name_hint not in used
        )
    }
    return mod._with_functions(keep)


def MergeCompositeFunctions():  # noqa: N802  (pass constructors are capitalised)
    """Merge the calls of composite functions of one codegen into functions that the codegen
    compiles (attributes Codegen and global_symbol); run after FuseOpsByPattern."""

    @module_pass(opt_level=0, name="MergeCompositeFunctions")
    def merge_composite_functions(mod: IRModule, ctx: PassContext) -> IRModule:
        from ..expr import Function

        merger = _Merger(mod)
        changed = False
        for gv, func in list(mod.functions.items()):
            if not isinstance(func, Function):
                continue
            attrs = func.attrs or {}
            if any(k in attrs for k in ("Composite", "Codegen", "Primitive")):
                continue
            new = merger.merge_function(func)
            if new is not func:
                merger.builder.update_func(gv, new)
                changed = True
        return _drop_composites(merger.builder.get()) if changed else mod

    return merge_composite_functions
