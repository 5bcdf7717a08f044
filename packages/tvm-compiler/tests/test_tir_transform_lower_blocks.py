# tir.LowerBlocks: blocks become their bodies, iterators inlined, inits guarded, buffers allocated.
import tvm
from tvm import te, tir
from tvm.tir import transform as T


def _pipeline_func():
    a = te.placeholder((4, 8), name="A")
    b = te.compute((4, 8), lambda i, j: a[i, j] + 1.0, name="B")
    c = te.compute((4, 8), lambda i, j: b[i, j] * 2.0, name="C")
    return tvm.IRModule({"main": te.create_prim_func([a, c])})


def _nodes(stmt, cls):
    found = []
    tir.post_order_visit(stmt, lambda n: found.append(n) if isinstance(n, cls) else None)
    return found


def test_blocks_are_gone_and_iterators_are_the_loop_variables():
    mod = _pipeline_func()
    assert _nodes(mod["main"].body, tir.Block)
    out = T.LowerBlocks()(mod)
    body = out["main"].body
    assert not _nodes(body, tir.Block) and not _nodes(body, tir.BlockRealize)
    loop_vars = {id(loop.loop_var) for loop in _nodes(body, tir.For)}
    for store in _nodes(body, tir.BufferStore):
        assert all(id(index) in loop_vars for index in store.indices)


def test_intermediate_buffer_is_allocated_and_declared():
    body = T.LowerBlocks()(_pipeline_func())["main"].body
    (alloc,) = _nodes(body, tir.Allocate)
    assert [e.value for e in alloc.extents] == [32] and alloc.dtype == "float32"
    (decl,) = _nodes(body, tir.DeclBuffer)
    assert decl.buffer.name == "B" and decl.buffer.data is alloc.buffer_var


def test_reduction_init_is_guarded_by_the_first_iteration():
    a = te.placeholder((4, 8), name="A")
    k = te.reduce_axis((0, 8), name="k")
    s = te.compute((4,), lambda i: te.sum(a[i, k], axis=k), name="S")
    body = T.LowerBlocks()(tvm.IRModule({"main": te.create_prim_func([a, s])}))["main"].body
    (guard,) = _nodes(body, tir.IfThenElse)
    assert isinstance(guard.condition, tir.EQ) and guard.condition.b.value == 0
    assert isinstance(guard.then_case, tir.BufferStore) and guard.then_case.value.value == 0.0


def test_a_function_without_blocks_comes_back_unchanged():
    once = T.LowerBlocks()(_pipeline_func())
    assert T.LowerBlocks()(once) is once
