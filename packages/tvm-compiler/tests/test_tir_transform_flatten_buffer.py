# Tests of tir.FlattenBuffer: every access becomes one-dimensional, row-major.
import tvm
from tvm import te, tir
from tvm.tir import transform as T


def _nodes(stmt, cls):
    found = []
    tir.post_order_visit(stmt, lambda n: found.append(n) if isinstance(n, cls) else None)
    return found


def _lowered():
    a = te.placeholder((4, 8), name="A")
    b = te.compute((4, 8), lambda i, j: a[i, j] + 1.0, name="B")
    c = te.compute((4, 8), lambda i, j: b[i, j] * 2.0, name="C")
    return T.LowerBlocks()(tvm.IRModule({"main": te.create_prim_func([a, c])}))


def test_accesses_are_flat_and_row_major():
    out = T.FlattenBuffer()(_lowered())
    body = out["main"].body
    for access in _nodes(body, tir.BufferStore) + _nodes(body, tir.BufferLoad):
        assert len(access.indices) == 1
        assert len(access.buffer.shape) == 1 and access.buffer.shape[0].value == 32
    (first,) = [s for s in _nodes(body, tir.BufferStore) if s.buffer.name == "B"]
    inner_loop, outer_loop = _nodes(body, tir.For)[:2]  # post-order: B's j loop, then its i loop
    assert inner_loop.body is first and outer_loop.body is inner_loop
    outer, inner = outer_loop.loop_var, inner_loop.loop_var
    assert tvm.ir.structural_equal(first.indices[0], outer * 8 + inner)


def test_flat_function_is_returned_as_is():
    flat = T.FlattenBuffer()(_lowered())
    assert T.FlattenBuffer()(flat) is flat
