"""Serial loops that update one buffer element throughout (a reduction's X[i] = f(X[i], ...)):
the element is kept in a C local across the loop and stored once after it."""

from __future__ import annotations

from tvm.ir.structural import structural_equal
from tvm.tir import expr as E
from tvm.tir import stmt as S
from tvm.tir.functor import post_order_visit

# Element types whose C load and store are plain (narrow floats round on every store).
_PLAIN = {"float32", "float64", "int32", "int64"}


def loop_accumulator(loop):
    """(buffer, index) of the one element the serial loop's body stores to, when every access
    to that buffer in the body is to that element and the index does not change in the loop;
    else None. Through memory, each update waits for the last one's store to be forwarded
    (the outlined OpenMP function sees no restrict pointers, so GCC keeps it in memory)."""
    if loop.kind != S.ForKind.SERIAL:
        return None
    stores, accesses, bound, escaped = [], [], {loop.loop_var}, set()

    def visit(node):
        if isinstance(node, S.BufferStore):
            stores.append(node)
            accesses.append(node)
        elif isinstance(node, E.BufferLoad):
            accesses.append(node)
        elif isinstance(node, S.For):
            bound.add(node.loop_var)
        elif isinstance(node, (S.LetStmt, E.Let)):
            bound.add(node.var)
        elif isinstance(node, S.Allocate):
            bound.add(node.buffer_var)
        elif isinstance(node, E.Var):
            escaped.add(node)

    post_order_visit(loop.body, visit)
    if not stores:
        return None
    target = stores[0]
    data = target.buffer.data
    if data in escaped or data in bound:  # used as a handle, or allocated inside the loop
        return None
    if str(target.buffer.dtype) not in _PLAIN or len(target.indices) != 1:
        return None
    index = target.indices[0]
    if index.dtype.lanes != 1 or target.value.dtype.lanes != 1:
        return None
    for access in accesses:
        if access.buffer.data is not data:
            continue
        if len(access.indices) != 1 or not structural_equal(access.indices[0], index):
            return None
    used, loads = [], []
    post_order_visit(index, lambda n: used.append(n) if isinstance(n, E.Var) else None)
    post_order_visit(index, lambda n: loads.append(n) if isinstance(n, E.BufferLoad) else None)
    # an index read from memory may change in the loop (a running output position)
    if any(v in bound for v in used) or loads:
        return None
    return target.buffer, index
