"""FuseOps: group the call_tir bindings of each dataflow block by their PrimFuncs' op_pattern
(upstream's post-dominator partitioner) and move each group of two or more into a private
Relax function with attribute Primitive=1, called where the group's last binding was."""

from __future__ import annotations

import logging

from tvm.ir.module import GlobalVar, IRModule
from tvm.transform import PassContext, module_pass, register_config_option

from ..analysis.fusion_graph import Node, Partitioner
from ..analysis.tir_op_pattern import OpPatternKind as K
from .lowering_utils import (
    free_relax_uses,
    is_op_call,
    rewrite_dataflow_blocks,
    rewrite_relax_functions,
    with_sinfo,
)

_LOG = logging.getLogger("tvm.relax.transform")

# The most kernels one group may take (upstream's config key and default).
register_config_option("relax.FuseOps.max_depth", int)
_MAX_DEPTH = 256


# The DPS calls of a PrimFunc that fuse: with or without tir_vars, in place or not (upstream).
_TIR_CALLS = ("relax.call_tir", "relax.call_tir_inplace")


def is_tir_call(value) -> bool:
    return any(is_op_call(value, name) for name in _TIR_CALLS)


def _call_tir_pattern(value, mod):
    """The op_pattern of a call_tir's (or call_tir_inplace's) PrimFunc (kOpaque without one)."""
    from tvm.relax.expr import ShapeExpr
    from tvm.tir.function import PrimFunc

    callee = value.args[0]
    if len(value.args) == 3 and not isinstance(value.args[2], ShapeExpr):
        return K.kOpaque
    if len(value.args) not in (2, 3) or not isinstance(callee, GlobalVar) or callee not in mod:
        return K.kOpaque
    func = mod[callee]
    if not isinstance(func, PrimFunc) or "op_pattern" not in func.attrs:
        return K.kOpaque
    return K(int(func.attrs["op_pattern"]))


def _operands(value):
    """The leaf operands a binding's value reads: Vars and Constants, in order."""
    from tvm.relax.expr import Constant, Tuple, TupleGetItem, Var

    if is_tir_call(value):
        return list(value.args[1].fields)
    if isinstance(value, TupleGetItem):
        return [value.tuple_value]
    if isinstance(value, Tuple):  # a nested tuple's vars are read too (and must stay bound)
        leaves = []
        for f in value.fields:
            leaves.extend([f] if isinstance(f, (Var, Constant)) else free_relax_uses(f))
        return leaves
    return free_relax_uses(value)


def _pattern(value, mod, model_params=()):
    """A binding's op pattern as upstream's graph creator sets it: a call_tir's PrimFunc's,
    injective for a tuple item (opaque for one of a packed model-parameter tuple, which would
    otherwise pull the weights' unpacking into the first group), opaque for the rest (a Tuple
    binding included)."""
    from tvm.relax.expr import Constant, TupleGetItem, Var

    if is_tir_call(value):
        if all(isinstance(a, (Var, Constant)) for a in value.args[1].fields):
            return _call_tir_pattern(value, mod)
        return K.kOpaque
    if isinstance(value, TupleGetItem):
        if any(value.tuple_value is p for p in model_params):
            return K.kOpaque
        return K.kInjective
    return K.kOpaque


def _model_params(func) -> list:
    """The params after the first num_input (upstream: the model's weights)."""
    num_input = func.attrs.get("num_input") if func.attrs is not None else None
    return [] if num_input is None else list(func.params[int(num_input) :])


def build_graph(block, mod, used_outside, model_params=()) -> list:
    """The block's bindings (and the leaves they read) as fusion-graph nodes, in order."""
    from tvm.relax.expr import DataflowVar, MatchCast

    nodes: list = []
    by_id: dict = {}  # id(relax Var or Constant) -> its node

    def node_of(expr):
        node = by_id.get(id(expr))
        if node is None:  # a leaf: a parameter, a constant, a var of an earlier block
            node = Node(len(nodes), expr, None, K.kOpaque)
            nodes.append(node)
            by_id[id(expr)] = node
        return node

    for binding in block.bindings:
        value = binding.value
        pattern = (
            K.kOpaque if isinstance(binding, MatchCast) else _pattern(value, mod, model_params)
        )
        inputs = [node_of(e) for e in _operands(value)]
        node = Node(len(nodes), binding.var, binding, pattern)
        nodes.append(node)
        for src in inputs:
            src.outputs.append((node, pattern))
        by_id[id(binding.var)] = node
        node.extern_ref = not isinstance(binding.var, DataflowVar) or binding.var in used_outside
    return nodes


class _Leaves:
    """Rebuilds a member's value with its outer operands replaced by the function's params."""

    def __init__(self, mapping):
        self.mapping = mapping  # id(outer expr) -> inner expr

    def rebuild(self, value):
        from tvm.relax.expr import Call, Tuple, TupleGetItem

        sinfo = value.__dict__.get("struct_info_")
        if isinstance(value, Call):
            args = list(value.args)
            args[1] = self.rebuild(args[1])
            new = Call(value.op, args, value.attrs, value.sinfo_args, value.span)
        elif isinstance(value, Tuple):
            new = Tuple([self.get(f) for f in value.fields], value.span)
        elif isinstance(value, TupleGetItem):
            new = TupleGetItem(self.get(value.tuple_value), value.index, value.span)
        else:
            return self.get(value)
        return with_sinfo(new, sinfo)

    def get(self, expr):
        return self.mapping.get(id(expr), expr)


class _Fuser:
    def __init__(self, mod, opt_level, max_depth=_MAX_DEPTH):
        from tvm.relax.block_builder import BlockBuilder

        self.mod = mod
        self.opt_level = opt_level
        self.max_depth = max_depth
        self.builder = BlockBuilder(mod)
        self.model_params: list = []

    def fuse_function(self, func):
        self.model_params = _model_params(func)
        return rewrite_dataflow_blocks(func, self.fuse_block)

    def fuse_block(self, block, uses):
        from collections import Counter

        inside = Counter()
        for binding in block.bindings:
            inside.update(free_relax_uses(binding.value))
        total = Counter(uses)
        used_outside = {v for v, n in total.items() if n > inside.get(v, 0)}
        nodes = build_graph(block, self.mod, used_outside, self.model_params)
        groups = Partitioner(nodes, self.opt_level, self.max_depth).partition()
        members: dict = {}
        for node in nodes:
            if node.binding is not None:
                members.setdefault(groups[node.index].root(), []).append(node)
        position = {id(b): i for i, b in enumerate(block.bindings)}
        replace: dict = {}  # index of a group's last binding -> the bindings that replace it
        dropped: set = set()
        for group_nodes in members.values():
            if len(group_nodes) < 2 or not any(is_tir_call(n.binding.value) for n in group_nodes):
                continue
            made = self.make_group(block, group_nodes, position, used_outside)
            if made is None:
                continue
            last, new_bindings, fused_nodes = made
            replace[last] = new_bindings
            dropped.update(position[id(n.binding)] for n in fused_nodes)
        if not replace:
            return block
        out = []
        for i, binding in enumerate(block.bindings):
            if i in replace:
                out.extend(replace[i])
            elif i not in dropped:
                out.append(binding)
        return type(block)(out, block.span)

    def make_group(self, block, group_nodes, position, used_outside):
        from tvm.relax.expr import Constant, DataflowBlock, DataflowVar, SeqExpr, Var, VarBinding

        member_vars = {n.binding.var for n in group_nodes}
        idx = sorted(position[id(n.binding)] for n in group_nodes)
        first, last = idx[0], idx[-1]
        # Outputs: member values read by anything but the group.
        outputs = []
        for n in group_nodes:
            if n.extern_ref or any(c.binding.var not in member_vars for c, _ in n.outputs):
                outputs.append(n.binding.var)
        between = [
            b for i, b in enumerate(block.bindings[first:last], first) if b.var not in member_vars
        ]
        for b in between:  # the fused call goes at the last member: nothing before may need it
            if any(u in member_vars for u in free_relax_uses(b.value)):
                return None
        if not outputs:  # nothing reads the group: upstream drops its bindings, with a warning
            _LOG.warning(
                "FuseOps: there is dead code in the module (a group nothing reads); run "
                "DeadCodeElimination before FuseOps"
            )
            return last, [], group_nodes
        ordered = sorted(group_nodes, key=lambda n: position[id(n.binding)])
        params, args, mapping = [], [], {}
        n_consts = 0
        for n in ordered:
            for operand in _operands(n.binding.value):
                if id(operand) in mapping or operand in member_vars:
                    continue
                if isinstance(operand, Constant):
                    param = Var(f"param_{n_consts}", operand.struct_info)
                    n_consts += 1
                else:
                    param = Var(operand.name_hint, operand.struct_info)
                mapping[id(operand)] = param
                params.append(param)
                args.append(operand)
        params, args, items, unpack = _split_partial_tuples(ordered, params, args)
        inner = []
        single = len(outputs) == 1
        for n in ordered:
            var = n.binding.var
            key = _item_key(n.binding.value)
            if key in items:  # an item of a partially used tuple: the item's own parameter
                mapping[id(var)] = items[key]
                continue
            if single and var is outputs[0]:
                new_var = Var("gv", var.struct_info)
            else:
                new_var = DataflowVar(var.name_hint, var.struct_info)
            value = _Leaves(mapping).rebuild(n.binding.value)
            inner.append(VarBinding(new_var, value))
            mapping[id(var)] = new_var
        if single:
            result = mapping[id(outputs[0])]
        else:
            from tvm.relax.expr import Tuple

            fields = [mapping[id(v)] for v in outputs]
            tup = with_sinfo(Tuple(fields), _tuple_sinfo(fields))
            result = Var("gv", tup.struct_info)
            inner.append(VarBinding(result, tup))
        from tvm.relax.expr import Function, ShapeExpr
        from tvm.relax.struct_info import ShapeStructInfo

        free = _free_symbolic_vars(params, inner)
        if free:  # a symbolic var only tir_vars name: passed in as upstream's R.Shape "tir_vars"
            shape = with_sinfo(ShapeExpr(free), ShapeStructInfo(free))
            params.append(Var("tir_vars", ShapeStructInfo(free)))
            args.append(shape)
        seq = with_sinfo(SeqExpr([DataflowBlock(inner)], result), result.struct_info)
        func = _renew_symbolic_vars(
            Function(params, seq, result.struct_info, True, {"Primitive": 1})
        )
        names = [
            n.binding.value.args[0].name_hint for n in group_nodes if is_tir_call(n.binding.value)
        ]
        gv = self.builder.add_func(func, "fused_" + "_".join(names))
        _set_global_sinfo(gv, func)
        from tvm.relax.expr import Call

        call = with_sinfo(Call(gv, args), result.struct_info)
        if single:
            return last, [*unpack, VarBinding(outputs[0], call)], group_nodes
        from tvm.relax.expr import TupleGetItem

        tuple_var = DataflowVar("lv", result.struct_info)
        new = [*unpack, VarBinding(tuple_var, call)]
        for i, var in enumerate(outputs):
            new.append(VarBinding(var, with_sinfo(TupleGetItem(tuple_var, i), var.struct_info)))
        return last, new, group_nodes


def _item_key(value):
    from tvm.relax.expr import TupleGetItem

    return (id(value.tuple_value), value.index) if isinstance(value, TupleGetItem) else None


def _split_partial_tuples(ordered, params, args):
    """Upstream's partially used tuple parameters: a tuple the group only takes items of is
    passed as those items (parameter "<name>_<index>", bound from the tuple before the call)
    instead of whole. Returns (params, args, {(id(tuple), index): item param}, the caller's
    item bindings)."""
    from tvm.relax.expr import DataflowVar, TupleGetItem, Var, VarBinding
    from tvm.relax.struct_info import TupleStructInfo

    indices: dict = {}  # id(outer tuple) -> the items read, or None when read whole
    outer = {id(a) for a in args}
    for n in ordered:
        value = n.binding.value
        for operand in _operands(value):
            if id(operand) not in outer or not isinstance(operand.struct_info, TupleStructInfo):
                continue
            if isinstance(value, TupleGetItem) and indices.get(id(operand), []) is not None:
                seen = indices.setdefault(id(operand), [])
                if value.index not in seen:
                    seen.append(value.index)
            else:
                indices[id(operand)] = None
    new_params, new_args, items, unpack = [], [], {}, []
    for param, arg in zip(params, args):
        if not indices.get(id(arg)):
            new_params.append(param)
            new_args.append(arg)
            continue
        for i in indices[id(arg)]:
            sinfo = arg.struct_info.fields[i]
            item = Var(f"{param.name_hint}_{i}", sinfo)
            bound = DataflowVar("lv", sinfo)
            unpack.append(VarBinding(bound, with_sinfo(TupleGetItem(arg, i), sinfo)))
            items[(id(arg), i)] = item
            new_params.append(item)
            new_args.append(bound)
    return new_params, new_args, items, unpack


def _renew_symbolic_vars(func):
    """func with a fresh copy of each symbolic var it mentions: every function of a module
    defines its own (upstream's well_formed rejects one var in two functions)."""
    from tvm.tir.expr import Var as TVar

    from ..analysis.symbolic_vars import _function_symbolic_vars
    from .symbolic_binder import SymbolicBinder

    defined, used = _function_symbolic_vars(func)
    fresh: dict = {}
    for v in [*defined, *used]:
        if v not in fresh:
            fresh[v] = TVar(v.name, v.dtype)
    if not fresh:
        return func
    return SymbolicBinder(tir_map=fresh, simplify=False).visit_expr(func)


def _free_symbolic_vars(params, bindings) -> list:
    """The TIR vars the group's bindings use (struct info, tir_vars) that no parameter's struct
    info defines as a whole dimension, in order of first use."""
    from tvm.relax.analysis.struct_info_analysis import tir_vars_in
    from tvm.relax.struct_info import PrimStructInfo, ShapeStructInfo, TensorStructInfo
    from tvm.tir.expr import Var as TVar

    defined = []
    for p in params:
        sinfo = p.struct_info
        dims = []
        if isinstance(sinfo, TensorStructInfo) and sinfo.shape is not None:
            dims = list(getattr(sinfo.shape, "values", None) or [])
        elif isinstance(sinfo, ShapeStructInfo) and sinfo.values is not None:
            dims = list(sinfo.values)
        elif isinstance(sinfo, PrimStructInfo) and sinfo.value is not None:
            dims = [sinfo.value]
        defined += [d for d in dims if isinstance(d, TVar)]
    used = []
    for b in bindings:
        used += tir_vars_in(b.var.struct_info)
        if is_tir_call(b.value) and len(b.value.args) == 3:
            used += tir_vars_in(b.value.args[2])
    free = []
    for v in used:
        if all(v is not d for d in defined) and all(v is not f for f in free):
            free.append(v)
    return free


def _tuple_sinfo(fields):
    from tvm.relax.struct_info import TupleStructInfo

    return TupleStructInfo([f.struct_info for f in fields])


def _set_global_sinfo(gv, func):
    """A GlobalVar of a Relax function carries the function's struct info (as upstream)."""
    if gv.__dict__.get("struct_info_") is None:
        gv._fill_late_field("struct_info_", func.struct_info)


def _check_level(level):
    if isinstance(level, bool) or not isinstance(level, int):
        raise TypeError(
            f"relax.transform.FuseOps: fuse_opt_level must be an int, got {type(level).__name__}"
        )
    if not -1 <= level <= 4:
        raise ValueError(
            f"relax.transform.FuseOps: fuse_opt_level must be -1 (the PassContext's opt_level) "
            f"or 0..4, got {level}"
        )


def FuseOps(fuse_opt_level: int = -1):  # noqa: N802  (pass constructors are capitalised)
    """Fuse call_tir bindings into primitive Relax functions by their op patterns
    (relax.transform.FuseOps); fuse_opt_level -1 takes the PassContext's opt_level, and
    level 0 fuses nothing. A module with nothing to fuse comes back as itself."""
    _check_level(fuse_opt_level)

    @module_pass(opt_level=0, name="FuseOps")
    def fuse_ops(mod: IRModule, ctx: PassContext) -> IRModule:
        level = ctx.opt_level if fuse_opt_level == -1 else fuse_opt_level
        fuser = _Fuser(mod, level, ctx.config.get("relax.FuseOps.max_depth", _MAX_DEPTH))
        return rewrite_relax_functions(
            mod,
            fuser.builder,
            fuser.fuse_function,
            lambda gv, f: "Primitive" not in f.attrs and "Codegen" not in f.attrs,
        )

    return fuse_ops
