"""create_prim_func: turn a te program into a schedulable PrimFunc (one block per compute)."""

from __future__ import annotations

import weakref

from tvm.tir import expr as E
from tvm.tir.analysis import block_access_regions, undefined_vars
from tvm.tir.function import PrimFunc
from tvm.tir.functor import post_order_visit, substitute
from tvm.tir.stmt import (
    Block,
    BlockRealize,
    BufferRegion,
    BufferStore,
    For,
    IfThenElse,
    IterVar,
    LetStmt,
    seq,
)

from .extern import ExternOp
from .reduction import Reduce
from .tensor import ComputeOp, PlaceholderOp, Tensor

_COMPUTED = (ComputeOp, ExternOp)


def _inputs_of(tensor: Tensor, by_buffer: dict) -> list[Tensor]:
    if isinstance(tensor.op, ExternOp):
        return list(tensor.op.inputs)
    if not isinstance(tensor.op, ComputeOp):
        return []
    found: list[Tensor] = []

    def record(node):
        if isinstance(node, E.BufferLoad):
            t = by_buffer.get(id(node.buffer))
            if t is not None and all(t is not f for f in found):
                found.append(t)

    for value in tensor.op.body:
        post_order_visit(value, record)
    return found


def _collect(outputs, by_buffer) -> list[Tensor]:
    """Every tensor the outputs depend on, producers before consumers."""
    order: list[Tensor] = []
    visiting: set[int] = set()

    def visit(t):
        if any(t is o for o in order):
            return
        if id(t) in visiting:
            raise ValueError(f"create_prim_func: tensor {t.name!r} depends on itself")
        visiting.add(id(t))
        for inp in _inputs_of(t, by_buffer):
            visit(inp)
        visiting.discard(id(t))
        # A multi-output op's tensors come together: one block writes them all.
        for sibling in t.op.output_tensors():
            if all(sibling is not o for o in order):
                order.append(sibling)

    for t in outputs:
        visit(t)
    return order


def _register_buffers(tensors, by_buffer):
    frontier = list(tensors)
    while frontier:
        t = frontier.pop()
        if id(t.buffer) in by_buffer:
            continue
        by_buffer[id(t.buffer)] = t
        frontier.extend(t.op.output_tensors())
        if isinstance(t.op, ExternOp):
            frontier.extend(t.op.inputs)
        if isinstance(t.op, ComputeOp):

            def record(node):
                if isinstance(node, E.BufferLoad) and id(node.buffer) not in by_buffer:
                    owner = _TENSOR_OF_BUFFER.get(id(node.buffer))
                    if owner is not None:
                        frontier.append(owner)

            for value in t.op.body:
                post_order_visit(value, record)


# Buffers of every live te Tensor, so loads found in bodies lead back to their tensors.
_TENSOR_OF_BUFFER: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def _track(tensor: Tensor) -> Tensor:
    _TENSOR_OF_BUFFER[id(tensor.buffer)] = tensor
    if isinstance(tensor.op, ComputeOp) and tensor.op not in _INPUTS_OF_OP:
        _hold_inputs(tensor.op)
    return tensor


# The tensors each compute op's body reads, held as long as the op lives: a body names
# buffers only, so an intermediate tensor nobody else held (one built inside a helper) would
# drop out of _TENSOR_OF_BUFFER before create_prim_func looks it up.
_INPUTS_OF_OP: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _hold_inputs(op: ComputeOp) -> None:
    found: list = []

    def record(node):
        if isinstance(node, E.BufferLoad):
            owner = _TENSOR_OF_BUFFER.get(id(node.buffer))
            if owner is not None and all(owner is not f for f in found):
                found.append(owner)

    for value in op.body:
        post_order_visit(value, record)
    _INPUTS_OF_OP[op] = found


def _unique_name(name, used):
    candidate, n = name, 1
    while candidate in used:
        candidate = f"{name}_{n}"
        n += 1
    used.add(candidate)
    return candidate


def _extern_block(op: ExternOp, used_names: set) -> BlockRealize:
    """One block running the opaque body; it reads and writes its buffers whole."""

    def whole(buffers):
        return [BufferRegion(b, [E.Range(0, extent) for extent in b.shape]) for b in buffers]

    block = Block(
        [],
        whole(op.input_placeholders),
        whole(op.output_placeholders),
        _unique_name(op.name, used_names),
        op.body,
    )
    return BlockRealize([], E.IntImm("bool", 1), block)


def _block_for(op: ComputeOp, used_names: set) -> BlockRealize | For:
    if isinstance(op, ExternOp):
        return _extern_block(op, used_names)
    first = op.body[0]
    reduce_axes = first.axis if isinstance(first, Reduce) else ()
    all_axes = list(op.axis) + list(reduce_axes)
    loop_vars = [E.Var(iv.var.name, iv.var.dtype) for iv in all_axes]
    doms = [_dom_in_var_dtype(iv) for iv in all_axes]
    block_vars = [
        IterVar(dom, E.Var(f"v_{iv.var.name}", iv.var.dtype), iv.iter_type)
        for iv, dom in zip(all_axes, doms)
    ]
    vmap = {iv.var: bv.var for iv, bv in zip(all_axes, block_vars)}
    out_index = [bv.var for bv in block_vars[: len(op.axis)]]
    buffers = [t.buffer for t in op.output_tensors()]
    init = None
    if isinstance(first, Reduce):
        combiner = first.combiner
        sources = [substitute(s, vmap) for s in first.source]
        identity = first.init or combiner.identity_element
        init = seq(*[BufferStore(b, v, out_index) for b, v in zip(buffers, identity)])
        current = [b[tuple(out_index)] for b in buffers]
        combined = combiner(current, sources)
        if len(buffers) == 1:
            update = BufferStore(buffers[0], combined[0], out_index)
        else:
            # Every new value is computed from the old ones before any is stored.
            temps = [E.Var(f"v_{b.name}", b.dtype) for b in buffers]
            update = seq(*[BufferStore(b, t, out_index) for b, t in zip(buffers, temps)])
            for t, value in reversed(list(zip(temps, combined))):
                update = LetStmt(t, value, update)
        cond = substitute(first.condition, vmap)
        body = update if (isinstance(cond, E.IntImm) and cond.value) else IfThenElse(cond, update)
    else:
        body = seq(
            *[BufferStore(b, substitute(v, vmap), out_index) for b, v in zip(buffers, op.body)]
        )
    reads, writes = block_access_regions(body, init)
    block = Block(block_vars, reads, writes, _unique_name(op.name, used_names), body, init)
    stmt = BlockRealize(loop_vars, E.IntImm("bool", 1), block)
    for lv, dom in reversed(list(zip(loop_vars, doms))):
        stmt = For(lv, dom.min, dom.extent, body=stmt)
    return stmt


def _dom_in_var_dtype(iv: IterVar) -> E.Range:
    """iv's domain with min and extent in its var's dtype: te.reduce_axis((0, n)) of an int64 n
    has an int32 0 as min (as upstream's Range), and a loop's var, min and extent must agree."""
    dtype = iv.var.dtype
    lo, extent = iv.dom.min, iv.dom.extent
    if lo.dtype == dtype and extent.dtype == dtype:
        return iv.dom
    return E.Range.from_min_extent(_as_dtype(lo, dtype), _as_dtype(extent, dtype))


def _as_dtype(value, dtype):
    if value.dtype == dtype:
        return value
    return E.IntImm(dtype, value.value) if isinstance(value, E.IntImm) else value.astype(dtype)


def create_prim_func(args, name: str = "main") -> PrimFunc:
    """A PrimFunc over args (te Tensors as buffers, Vars as scalars), one block per compute."""
    if not isinstance(args, (list, tuple)) or not args:
        raise ValueError("create_prim_func: args must be a non-empty list of te Tensors and Vars")
    for a in args:
        if not isinstance(a, (Tensor, E.Var)):
            raise TypeError(
                f"create_prim_func: args must be te Tensors or Vars, got {type(a).__name__}"
            )
    tensors = [a for a in args if isinstance(a, Tensor)]
    by_buffer: dict = {}
    _register_buffers(tensors, by_buffer)
    order = _collect([t for t in tensors if isinstance(t.op, _COMPUTED)], by_buffer)
    arg_ids = {id(t) for t in tensors}
    for t in order:
        if isinstance(t.op, PlaceholderOp) and id(t) not in arg_ids:
            raise ValueError(
                f"create_prim_func: placeholder {t.name!r} is used but is not in the argument list"
            )
    params, buffer_map = [], {}
    for a in args:
        if isinstance(a, Tensor):
            handle = E.Var(f"{a.name}_handle", "handle")
            params.append(handle)
            buffer_map[handle] = a.buffer
        else:
            params.append(a)
    used_names: set = set()
    ops = []
    for t in order:
        if isinstance(t.op, _COMPUTED) and all(t.op is not o for o in ops):
            ops.append(t.op)
    nests = [_block_for(op, used_names) for op in ops]
    if not nests:
        raise ValueError("create_prim_func: no te.compute tensor among the arguments")
    intermediates = [
        t.buffer for t in order if isinstance(t.op, _COMPUTED) and id(t) not in arg_ids
    ]
    root = Block([], [], [], "root", seq(*nests), alloc_buffers=intermediates)
    func = PrimFunc(
        params,
        BlockRealize([], E.IntImm("bool", 1), root),
        buffer_map=buffer_map,
        attrs={"global_symbol": name, "tir.noalias": True},
    )
    free = undefined_vars(func)
    if free:
        raise ValueError(
            f"create_prim_func: variable {free[0].name!r} is used but not bound; pass it in the "
            "argument list, use it in a placeholder's shape, or make it an index or reduce axis"
        )
    return func
