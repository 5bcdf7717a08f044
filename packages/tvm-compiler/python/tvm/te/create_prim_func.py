"""create_prim_func: turn a te program into a schedulable PrimFunc (one block per compute)."""

from __future__ import annotations

import weakref

from tvm.tir import expr as E
from tvm.tir.analysis import block_access_regions, undefined_vars
from tvm.tir.function import PrimFunc
from tvm.tir.functor import post_order_visit, substitute
from tvm.tir.stmt import Block, BlockRealize, BufferStore, For, IfThenElse, IterVar, seq

from .reduction import Reduce
from .tensor import ComputeOp, PlaceholderOp, Tensor


def _inputs_of(tensor: Tensor, by_buffer: dict) -> list[Tensor]:
    if not isinstance(tensor.op, ComputeOp):
        return []
    found: list[Tensor] = []

    def record(node):
        if isinstance(node, E.BufferLoad):
            t = by_buffer.get(id(node.buffer))
            if t is not None and all(t is not f for f in found):
                found.append(t)

    post_order_visit(tensor.op.body, record)
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
        order.append(t)

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
        if isinstance(t.op, ComputeOp):

            def record(node):
                if isinstance(node, E.BufferLoad) and id(node.buffer) not in by_buffer:
                    owner = _TENSOR_OF_BUFFER.get(id(node.buffer))
                    if owner is not None:
                        frontier.append(owner)

            post_order_visit(t.op.body, record)


# Buffers of every live te Tensor, so loads found in bodies lead back to their tensors.
_TENSOR_OF_BUFFER: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def _track(tensor: Tensor) -> Tensor:
    _TENSOR_OF_BUFFER[id(tensor.buffer)] = tensor
    return tensor


def _unique_name(name, used):
    candidate, n = name, 1
    while candidate in used:
        candidate = f"{name}_{n}"
        n += 1
    used.add(candidate)
    return candidate


def _block_for(tensor: Tensor, used_names: set) -> BlockRealize | For:
    op = tensor.op
    body_expr = op.body
    reduce_axes = body_expr.axis if isinstance(body_expr, Reduce) else ()
    all_axes = list(op.axis) + list(reduce_axes)
    loop_vars = [E.Var(iv.var.name, iv.var.dtype) for iv in all_axes]
    block_vars = [
        IterVar(iv.dom, E.Var(f"v_{iv.var.name}", iv.var.dtype), iv.iter_type) for iv in all_axes
    ]
    vmap = {iv.var: bv.var for iv, bv in zip(all_axes, block_vars)}
    out_index = [bv.var for bv in block_vars[: len(op.axis)]]
    buffer = tensor.buffer
    init = None
    if isinstance(body_expr, Reduce):
        combiner = body_expr.combiner
        source = substitute(body_expr.source, vmap)
        identity = body_expr.init if body_expr.init is not None else combiner.identity
        init = BufferStore(buffer, identity, out_index)
        update = BufferStore(buffer, combiner.combine(buffer[tuple(out_index)], source), out_index)
        cond = substitute(body_expr.condition, vmap)
        body = update if (isinstance(cond, E.IntImm) and cond.value) else IfThenElse(cond, update)
    else:
        body = BufferStore(buffer, substitute(body_expr, vmap), out_index)
    reads, writes = block_access_regions(body, init)
    block = Block(block_vars, reads, writes, _unique_name(op.name, used_names), body, init)
    stmt = BlockRealize(loop_vars, E.IntImm("bool", 1), block)
    for lv, iv in reversed(list(zip(loop_vars, all_axes))):
        stmt = For(lv, iv.dom.min, iv.dom.extent, body=stmt)
    return stmt


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
    order = _collect([t for t in tensors if isinstance(t.op, ComputeOp)], by_buffer)
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
    nests = [_block_for(t, used_names) for t in order if isinstance(t.op, ComputeOp)]
    if not nests:
        raise ValueError("create_prim_func: no te.compute tensor among the arguments")
    intermediates = [
        t.buffer for t in order if isinstance(t.op, ComputeOp) and id(t) not in arg_ids
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
