# tir.CompactBufferAllocation: a buffer is allocated where it is used, shrunk to one iteration.
import numpy as np
import tvm
from tvm import te, tir
from tvm.tir import transform as T


def _computed_at_rows():
    a = te.placeholder((4, 8), name="A")
    b = te.compute((4, 8), lambda i, j: a[i, j] + 1.0, name="B")
    c = te.compute((4, 8), lambda i, j: b[i, j] * 2.0, name="C")
    sch = tir.Schedule(te.create_prim_func([a, c]))
    i, _ = sch.get_loops(sch.get_block("C"))
    sch.compute_at(sch.get_block("B"), i)
    return sch.mod


def _nodes(stmt, cls):
    found = []
    tir.post_order_visit(stmt, lambda n: found.append(n) if isinstance(n, cls) else None)
    return found


def test_buffer_moves_into_the_loop_and_shrinks_to_one_row():
    lowered = T.LowerBlocks()(_computed_at_rows())
    (before,) = _nodes(lowered["main"].body, tir.Allocate)
    assert [e.value for e in before.extents] == [32]
    out = T.CompactBufferAllocation()(lowered)
    body = out["main"].body
    assert isinstance(body, tir.For)  # the allocation is no longer above the row loop
    (after,) = _nodes(body, tir.Allocate)
    assert [e.value for e in after.extents] == [8]
    (decl,) = _nodes(body, tir.DeclBuffer)
    assert [d.value for d in decl.buffer.shape] == [1, 8]


def test_compacted_function_computes_the_same():
    mod = _computed_at_rows()
    a = np.random.default_rng(0).random((4, 8), dtype="float32")
    c = np.zeros((4, 8), "float32")
    tvm.compile(mod)["main"](a, c)
    np.testing.assert_allclose(c, (a + 1) * 2, rtol=1e-6)


def test_nothing_to_compact_returns_the_same_module():
    a = te.placeholder((8,), name="A")
    b = te.compute((8,), lambda i: a[i] + 1.0, name="B")
    lowered = T.LowerBlocks()(tvm.IRModule({"main": te.create_prim_func([a, b])}))
    assert T.CompactBufferAllocation()(lowered) is lowered
