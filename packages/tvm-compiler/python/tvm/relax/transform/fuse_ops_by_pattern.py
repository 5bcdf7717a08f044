"""FuseOpsByPattern (relax.transform.FuseOpsByPattern): group what each FusionPattern matches in
a dataflow block into a private function with attributes Composite=<pattern name> and
Primitive, or, with annotate_codegen, into a composite function inside an outer function
that names its codegen; FusionPattern and PatternCheckContext as upstream."""

from __future__ import annotations

from collections import Counter

from tvm.ir.module import IRModule
from tvm.transform import PassContext, module_pass

from .lowering_utils import (
    free_relax_uses,
    relax_leaves,
    replace_constants,
    rewrite_relax_functions,
    substitute_vars,
    with_sinfo,
)


class FusionPattern:
    """A pattern FuseOpsByPattern fuses: its name (usually '<backend>.<what>'), the DFPattern,
    named sub-patterns whose matches the check sees (annotation_patterns) and an optional
    check(PatternCheckContext) -> bool that may refuse a match."""

    def __init__(self, name, pattern, annotation_patterns=None, check=None, attrs_getter=None):
        from ..dpl.pattern import DFPattern

        if not isinstance(name, str):
            raise TypeError(f"FusionPattern: name must be a str, got {type(name).__name__}")
        if not isinstance(pattern, DFPattern):
            raise TypeError(
                f"FusionPattern: pattern must be a DFPattern, got {type(pattern).__name__}"
            )
        annotation_patterns = {} if annotation_patterns is None else annotation_patterns
        if not isinstance(annotation_patterns, dict) or not all(
            isinstance(k, str) and isinstance(v, DFPattern) for k, v in annotation_patterns.items()
        ):
            raise TypeError(
                "FusionPattern: annotation_patterns must be a dict of str to DFPattern, got "
                f"{type(annotation_patterns).__name__}"
            )
        for what, fn in (("check", check), ("attrs_getter", attrs_getter)):
            if fn is not None and not callable(fn):
                raise TypeError(
                    f"FusionPattern: {what} must be callable or None, got {type(fn).__name__}"
                )
        self.name = name
        self.pattern = pattern
        self.annotation_patterns = dict(annotation_patterns)
        self.check = check
        self.attrs_getter = attrs_getter

    def __repr__(self):
        return f"FusionPattern({self.name!r}, {self.pattern!r})"


class PatternCheckContext:
    """What a FusionPattern's check sees: the matched root expression, the annotated
    sub-expressions by name, the bindings to be fused, each variable's users and the
    variable each value (before the match) is bound to."""

    def __init__(
        self, matched_expr, annotated_expr, matched_bindings, var_usages, value_to_bound_var
    ):
        self.matched_expr = matched_expr
        self.annotated_expr = annotated_expr
        self.matched_bindings = matched_bindings
        self.var_usages = var_usages
        self.value_to_bound_var = value_to_bound_var


def _as_fusion_pattern(item, i):
    if isinstance(item, FusionPattern):
        return item
    if isinstance(item, tuple) and 2 <= len(item) <= 5:
        return FusionPattern(*item)
    raise TypeError(
        f"FuseOpsByPattern: patterns[{i}] must be a FusionPattern or a tuple (name, pattern"
        f"[, annotation_patterns[, check]]), got {type(item).__name__}"
    )


# The calls a group's name takes from the function they call (upstream's naming).
_DPS_CALLS = ("relax.call_tir", "relax.call_tir_inplace", "relax.call_dps_packed")


def _op_name(value):
    from tvm.ir.module import GlobalVar
    from tvm.ir.op import Op

    from ..expr import Call

    if isinstance(value, Call):
        callee = value.args[0] if value.args else None
        if isinstance(value.op, Op) and value.op.name in _DPS_CALLS:  # named by the callee
            if isinstance(callee, GlobalVar):
                return callee.name_hint
            symbol = getattr(callee, "global_symbol", None)
            if isinstance(symbol, str):
                return symbol
        if isinstance(value.op, Op):
            return value.op.name.replace(".", "_")
        if isinstance(value.op, GlobalVar):
            return value.op.name_hint
    return None


class _Partition:
    """The groups one pattern makes in one function; each group is a list of bindings of one
    dataflow block, in order, and its root (the binding the pattern matched at)."""

    def __init__(self, func, fusion):
        from ..analysis import get_var2val

        self.func = func
        self.fusion = fusion
        self.var2val = get_var2val(func)
        self.grouped: set = set()  # ids of the bindings already in a group
        self.groups: list = []  # (block, [bindings], root binding)

    def run(self):
        from ..expr import Call, DataflowBlock, SeqExpr, VarBinding

        body = self.func.body
        if not isinstance(body, SeqExpr):
            return []
        for block in body.blocks:
            if not isinstance(block, DataflowBlock):
                continue
            bound = {}  # id(value) -> its binding in this block
            for binding in block.bindings:
                if isinstance(binding, VarBinding):
                    bound[id(binding.value)] = binding
            for binding in block.bindings:
                if isinstance(binding, VarBinding) and isinstance(binding.value, Call):
                    if id(binding) not in self.grouped:
                        self.try_group(block, binding, bound)
        return self.groups

    def try_group(self, block, root, bound):
        from ..dpl.matcher import Matcher
        from ..dpl.pattern import CallPattern, TupleGetItemPattern, TuplePattern

        # What a match puts in the group besides its root: the calls, tuples and tuple items
        # it matched (a wildcard's match is an input).
        grouped_kinds = (CallPattern, TupleGetItemPattern, TuplePattern)
        matcher = Matcher(self.var2val)
        if not matcher.visit(self.fusion.pattern, root.value):
            return
        matches = {p: e for p, e in matcher.memo.values()}
        members = {id(root): root}
        for pat, expr in matches.items():
            if isinstance(pat, grouped_kinds) and expr is not root.value:
                binding = bound.get(id(expr))
                if binding is None and not isinstance(pat, CallPattern):
                    continue  # a tuple written inline in a member's value: it comes along
                if binding is None:  # a call outside this block's bindings: not fusable here
                    return
                members[id(binding)] = binding
        if any(i in self.grouped for i in members):
            return
        order = [b for b in block.bindings if id(b) in members]
        annotated = {
            name: matches[pat]
            for name, pat in self.fusion.annotation_patterns.items()
            if pat in matches
        }
        if self.fusion.check is not None:
            ctx = self.check_context(root, annotated, order, block)
            if not self.fusion.check(ctx):
                return
        if _makes_cycle(block, order):
            return
        self.grouped.update(members)
        self.groups.append((block, order, root, annotated))

    def check_context(self, root, annotated, order, block):
        usages: dict = {}
        for binding in _all_bindings(self.func):
            for v in dict.fromkeys(free_relax_uses(binding.value)):
                usages.setdefault(v, []).append(binding.var)
        value_to_var = {}
        for binding in block.bindings:
            if binding is root:
                break
            value_to_var[binding.value] = binding.var
        bindings = {b.var: b.value for b in order}
        return PatternCheckContext(root.value, annotated, bindings, usages, value_to_var)


def _all_bindings(func):
    from ..analysis.bindings import _bindings

    return _bindings(func)


def _makes_cycle(block, order) -> bool:
    """Whether a binding outside the group sits between two of its members, reading one and
    read by a later one (the group's one call could not be placed)."""
    members = {id(b) for b in order}
    member_vars = {b.var for b in order}
    first = block.bindings.index(order[0])
    last = block.bindings.index(order[-1])
    tainted: set = set()  # outside bindings between that depend on a member
    for binding in block.bindings[first : last + 1]:
        uses = set(free_relax_uses(binding.value))
        if id(binding) in members:
            if uses & tainted:
                return True
        elif uses & (member_vars | tainted):
            tainted.add(binding.var)
    return False


class _Fuser:
    def __init__(self, mod, fusion, bind_constants, annotate_codegen):
        from ..block_builder import BlockBuilder

        self.mod = mod
        self.fusion = fusion
        self.bind_constants = bind_constants
        self.annotate_codegen = annotate_codegen
        self.builder = BlockBuilder(mod)
        self.wrapped: list = []  # (composite function, its codegen function, GlobalVar)

    def fuse_function(self, func):
        from ..expr import SeqExpr

        groups = _Partition(func, self.fusion).run()
        if not groups:
            return func
        body = func.body
        uses = Counter(free_relax_uses(body))
        by_block: dict = {}
        for block, order, root, annotated in groups:
            by_block.setdefault(id(block), []).append((order, root, annotated))
        blocks = []
        for block in body.blocks:
            if id(block) in by_block:
                block = self.rewrite_block(block, by_block[id(block)], uses)
            blocks.append(block)
        seq = with_sinfo(SeqExpr(blocks, body.body, body.span), body.struct_info)
        return func.with_fields(body=seq)

    def rewrite_block(self, block, groups, uses):
        from ..expr import DataflowVar

        replace: dict = {}  # id(binding) -> the bindings that stand for it
        for order, root, annotated in groups:
            member_vars = {b.var for b in order}
            inside = Counter()
            for b in order:
                inside.update(free_relax_uses(b.value))
            outputs = [
                b.var
                for b in order
                if not isinstance(b.var, DataflowVar) or uses[b.var] > inside.get(b.var, 0)
            ]
            if root.var not in outputs:
                outputs.append(root.var)
            # In the order the rest of the block first reads them (upstream's), then as bound.
            first_use: dict = {}
            for i, b in enumerate(block.bindings):
                if b.var not in member_vars:
                    for j, v in enumerate(free_relax_uses(b.value)):
                        first_use.setdefault(v, (i, j))
            position = {b.var: i for i, b in enumerate(order)}
            never = (len(block.bindings), 0)
            outputs.sort(key=lambda v: (first_use.get(v, never), position[v]))
            new_bindings = self.make_group(order, outputs, annotated)
            last = order[-1]
            for b in order:
                replace[id(b)] = []
            deferred = _dependents_between(block, order, member_vars)
            for b in deferred:
                replace[id(b)] = []
            replace[id(last)] = new_bindings + deferred
        out = []
        for binding in block.bindings:
            out.extend(replace.get(id(binding), [binding]))
        return type(block)(out, block.span)

    def make_group(self, order, outputs, annotated):
        from tvm.ir.module import GlobalVar

        from ..expr import (
            Call,
            Constant,
            DataflowBlock,
            DataflowVar,
            Function,
            SeqExpr,
            Tuple,
            TupleGetItem,
            Var,
            VarBinding,
        )

        member_vars = {b.var for b in order}
        params, args, var_map, const_map = [], [], {}, {}
        n_consts = 0
        for b in order:
            for e in relax_leaves(b.value):
                if isinstance(e, Var) and not isinstance(e, DataflowVar) and e in member_vars:
                    continue
                if isinstance(e, Var):
                    if e in member_vars or e in var_map:
                        continue
                    param = Var(e.name_hint, e.struct_info)
                    var_map[e] = param
                elif isinstance(e, Constant) and not self.bind_constants:
                    if id(e) in const_map:
                        continue
                    param = Var(f"param_{n_consts}", e.struct_info)
                    n_consts += 1
                    const_map[id(e)] = param
                else:
                    continue
                params.append(param)
                args.append(e)
        single = len(outputs) == 1
        inner = []
        new_out = {}
        n_out = 0
        for b in order:
            if b.var in outputs:
                name = "gv" if n_out == 0 else f"gv{n_out}"
                n_out += 1
                new_var = Var(name, b.var.struct_info)
                new_out[b.var] = new_var
            else:
                new_var = DataflowVar(b.var.name_hint, b.var.struct_info)
            value = substitute_vars(b.value, var_map)
            if const_map:
                value = replace_constants(value, const_map)
            inner.append(VarBinding(new_var, value))
            var_map[b.var] = new_var
        if single:
            result = new_out[outputs[0]]
        else:
            fields = [new_out[v] for v in outputs]
            from ..struct_info import TupleStructInfo

            result = with_sinfo(Tuple(fields), TupleStructInfo([f.struct_info for f in fields]))
        ret = result.struct_info
        seq = with_sinfo(SeqExpr([DataflowBlock(inner)], result), ret)
        name = "fused_" + "_".join(n for n in (_op_name(b.value) for b in order) if n)
        attrs = {"Composite": self.fusion.name}
        if self.fusion.attrs_getter is not None:  # extra attributes from the annotated exprs
            extra = self.fusion.attrs_getter(annotated)
            if not isinstance(extra, dict) or not all(isinstance(k, str) for k in extra):
                raise TypeError(
                    f"FuseOpsByPattern: the attrs_getter of pattern {self.fusion.name!r} must "
                    f"return a dict of str attribute names to values, got {type(extra).__name__}"
                )
            attrs.update(extra)
        if self.annotate_codegen:
            composite = Function(params, seq, ret, True, attrs)
            func, gv = self.wrap_for_codegen(composite, name)
        else:
            attrs["Primitive"] = True
            func = Function(params, seq, ret, True, attrs)
            gv = self.builder.add_func(func, name)
        assert isinstance(gv, GlobalVar)
        _set_global_sinfo(gv, func)
        call = with_sinfo(Call(gv, args), ret)
        if single:
            return [VarBinding(outputs[0], call)]
        tuple_var = DataflowVar("lv", ret)
        new = [VarBinding(tuple_var, call)]
        for var in sorted(outputs, key=lambda v: [b.var for b in order].index(v)):
            i = outputs.index(var)
            new.append(VarBinding(var, with_sinfo(TupleGetItem(tuple_var, i), var.struct_info)))
        return new

    def wrap_for_codegen(self, composite, name):
        """The function (and its GlobalVar) whose body calls composite, a local function, and
        that names the codegen; equal composite functions share one."""
        from tvm.ir import structural_equal

        from ..expr import BindingBlock, Call, Function, SeqExpr, Var, VarBinding

        for seen, func, gv in self.wrapped:
            if structural_equal(seen, composite):
                return func, gv
        ret = composite.ret_struct_info
        codegen = self.fusion.name.split(".")[0]
        # Named after the composite function it would have been (upstream wraps those).
        outer_name = f"{self.builder.get_unique_name(name)}_{codegen}"
        params = [Var(p.name_hint, p.struct_info) for p in composite.params]
        local = Var("local_func", composite.struct_info)
        output = Var("output", ret)
        call = with_sinfo(Call(local, params), ret)
        block = BindingBlock([VarBinding(local, composite), VarBinding(output, call)])
        body = with_sinfo(SeqExpr([block], output), ret)
        attrs = {"Codegen": codegen, "global_symbol": outer_name}
        func = Function(params, body, ret, True, attrs)
        gv = self.builder._add_named(func, outer_name)
        self.wrapped.append((composite, func, gv))
        return func, gv


def _dependents_between(block, order, member_vars) -> list:
    """The outside bindings between the group's first and last member that read a member
    (directly or through another such binding): they move after the group's call."""
    members = {id(b) for b in order}
    first = block.bindings.index(order[0])
    last = block.bindings.index(order[-1])
    tainted_vars = set(member_vars)
    moved = []
    for binding in block.bindings[first:last]:
        if id(binding) in members:
            continue
        if set(free_relax_uses(binding.value)) & tainted_vars:
            tainted_vars.add(binding.var)
            moved.append(binding)
    return moved


def _set_global_sinfo(gv, func):
    if gv.__dict__.get("struct_info_") is None:
        gv._fill_late_field("struct_info_", func.struct_info)


def FuseOpsByPattern(  # noqa: N802  (pass constructors are capitalised)
    patterns, bind_constants: bool = True, annotate_codegen: bool = False, entry_functions=None
):
    """Group what each pattern matches (patterns in order of priority, each a FusionPattern or
    a tuple FusionPattern takes) into composite functions; only dataflow blocks are looked at.
    bind_constants keeps matched constants inside the composite function (else they become its
    parameters); annotate_codegen wraps each composite function in a function with attributes
    Codegen (the pattern name's prefix) and global_symbol; entry_functions names the functions
    to fuse in (when None or empty: all Relax functions but composite, primitive and codegen
    ones)."""
    who = "relax.transform.FuseOpsByPattern"
    single = isinstance(patterns, tuple) and bool(patterns) and isinstance(patterns[0], str)
    if single or not isinstance(patterns, (list, tuple)):  # one (name, pattern) is no list
        raise TypeError(
            f"{who}: patterns must be a list of FusionPattern or tuples, got "
            f"{type(patterns).__name__}"
        )
    fusions = [_as_fusion_pattern(p, i) for i, p in enumerate(patterns)]
    for what, flag in (("bind_constants", bind_constants), ("annotate_codegen", annotate_codegen)):
        if not isinstance(flag, bool):
            raise TypeError(f"{who}: {what} must be a bool, got {type(flag).__name__}")
    if entry_functions is not None:
        if isinstance(entry_functions, str) or not all(isinstance(n, str) for n in entry_functions):
            raise TypeError(f"{who}: entry_functions must be a list of function names or None")
        entry_functions = list(entry_functions)

    def wanted(gv, func):
        if entry_functions:  # an empty list means every function, as None (upstream)
            return gv.name_hint in entry_functions
        attrs = func.attrs or {}
        return not any(k in attrs for k in ("Primitive", "Composite", "Codegen"))

    @module_pass(opt_level=0, name="FuseOpsByPattern")
    def fuse_ops_by_pattern(mod: IRModule, ctx: PassContext) -> IRModule:
        names = {gv.name_hint for gv in mod.get_global_vars()}
        for name in entry_functions or ():
            if name not in names:
                raise ValueError(f"{who}: entry_functions names {name!r}, not in the module")
        for fusion in fusions:
            fuser = _Fuser(mod, fusion, bind_constants, annotate_codegen)
            mod = rewrite_relax_functions(mod, fuser.builder, fuser.fuse_function, wanted)
        return mod

    return fuse_ops_by_pattern
