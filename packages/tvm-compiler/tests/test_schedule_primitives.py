# Tests of the schedule primitives upstream programs use beyond the loop ones: inlining,
# annotations, producer/consumer queries, unit loops, copy and the trace.
import numpy as np
import pytest
import tvm
from tvm import te, tir
from tvm.error import ScheduleError


def _chain():
    """B = A + 1; C = B * 2; D = C - 3 over (4, 8), with B and C intermediate."""
    a = te.placeholder((4, 8), name="A")
    b = te.compute((4, 8), lambda i, j: a[i, j] + 1.0, name="B")
    c = te.compute((4, 8), lambda i, j: b[i, j] * 2.0, name="C")
    d = te.compute((4, 8), lambda i, j: c[i, j] - 3.0, name="D")
    return te.create_prim_func([a, d])


def _run(mod):
    a = np.random.default_rng(0).random((4, 8), dtype="float32")
    d = np.zeros((4, 8), "float32")
    tvm.compile(mod)(a, d)
    return a, d


def test_compute_inline_removes_the_block_and_its_buffer():
    sch = tir.Schedule(_chain())
    sch.compute_inline(sch.get_block("B"))
    assert sch.mod["main"].body.block.alloc_buffers[0].name == "C"
    assert "B" not in sch.block_names() and sch.block_names() == ["C", "D"]
    assert "A[v_i, v_j] + T.float32(1.0)" in sch.mod.script().replace("v_i_1", "v_i").replace(
        "v_j_1", "v_j"
    )
    a, d = _run(sch.mod)
    np.testing.assert_allclose(d, (a + 1) * 2 - 3, rtol=1e-6)
    # The consumer's reads now name A, not B.
    c_block = sch.get(sch.get_block("C"))
    assert [r.buffer.name for r in c_block.reads] == ["A"]


def test_compute_inline_through_a_transpose():
    a = te.placeholder((4, 8), name="A")
    b = te.compute((8, 4), lambda j, i: a[i, j] * 3.0, name="B")
    c = te.compute((4, 8), lambda i, j: b[j, i] + 1.0, name="C")
    sch = tir.Schedule(te.create_prim_func([a, c]))
    sch.compute_inline(sch.get_block("B"))
    x = np.random.default_rng(1).random((4, 8), dtype="float32")
    out = np.zeros((4, 8), "float32")
    tvm.compile(sch.mod)(x, out)
    np.testing.assert_allclose(out, x * 3 + 1, rtol=1e-6)


def test_reverse_compute_inline_folds_the_consumer_into_the_producer():
    sch = tir.Schedule(_chain())
    sch.reverse_compute_inline(sch.get_block("D"))
    assert sch.block_names() == ["B", "C"]
    a, d = _run(sch.mod)
    np.testing.assert_allclose(d, (a + 1) * 2 - 3, rtol=1e-6)
    c_block = sch.get(sch.get_block("C"))
    assert [w.buffer.name for w in c_block.writes] == ["D"]


def test_inline_errors_name_the_reason():
    sch = tir.Schedule(_chain())
    with pytest.raises(ScheduleError, match="'D' is an argument of the function"):
        sch.compute_inline(sch.get_block("D"))
    a = te.placeholder((4, 8), name="A")
    k = te.reduce_axis((0, 8), name="k")
    s = te.compute((4,), lambda i: te.sum(a[i, k], axis=k), name="S")
    t = te.compute((4,), lambda i: s[i] * 2.0, name="T")
    red = tir.Schedule(te.create_prim_func([a, t]))
    with pytest.raises(ScheduleError, match="block 'S' is a reduction"):
        red.compute_inline(red.get_block("S"))
    with pytest.raises(ScheduleError, match="block 'S' is a reduction"):
        red.reverse_compute_inline(red.get_block("T"))
    shifted = te.compute((4, 8), lambda i, j: a[i, j] + 1.0, name="B")
    uses = te.compute((4, 7), lambda i, j: shifted[i, j + 1], name="C")
    off = tir.Schedule(te.create_prim_func([a, uses]))
    with pytest.raises(ScheduleError, match="must be indexed by the block's iterators"):
        off.reverse_compute_inline(off.get_block("C"))
    b2 = te.compute((4, 8), lambda i, j: a[i, j] + 1.0, name="B")
    c2 = te.compute((4, 8), lambda i, j: b2[i, j] * 2.0, name="C")
    e2 = te.compute((4, 8), lambda i, j: b2[i, j] + c2[i, j], name="E")
    two = tir.Schedule(te.create_prim_func([a, e2]))
    with pytest.raises(ScheduleError, match="also read by block 'E'"):
        two.reverse_compute_inline(two.get_block("C"))
    two.compute_inline(two.get_block("B"))  # every reader of B gets the expression
    x = np.random.default_rng(2).random((4, 8), dtype="float32")
    out = np.zeros((4, 8), "float32")
    tvm.compile(two.mod)(x, out)
    np.testing.assert_allclose(out, (x + 1) + (x + 1) * 2, rtol=1e-6)


def test_annotate_and_unannotate_blocks_and_loops():
    sch = tir.Schedule(_chain())
    block = sch.get_block("C")
    i, _ = sch.get_loops(block)
    sch.annotate(block, "meta_schedule.tiling_structure", "SSRSRS")
    sch.annotate(i, "pragma_auto_unroll_max_step", 16)
    assert sch.get(block).annotations == {"meta_schedule.tiling_structure": "SSRSRS"}
    assert sch.get(i).annotations == {"pragma_auto_unroll_max_step": 16}
    sch.unannotate(i, "pragma_auto_unroll_max_step")
    assert sch.get(i).annotations == {}
    with pytest.raises(ScheduleError, match="there is no annotation 'nope'"):
        sch.unannotate(block, "nope")
    with pytest.raises(TypeError, match="argument 'ann_val' must be"):
        sch.annotate(block, "k", object())
    with pytest.raises(TypeError, match="must be a BlockRV or LoopRV"):
        sch.annotate("C", "k", 1)
    _run(sch.mod)


def test_producers_consumers_and_child_blocks():
    sch = tir.Schedule(_chain())
    names = lambda rvs: [rv.name for rv in rvs]  # noqa: E731
    assert names(sch.get_producers(sch.get_block("C"))) == ["B"]
    assert names(sch.get_consumers(sch.get_block("C"))) == ["D"]
    assert names(sch.get_producers(sch.get_block("B"))) == []
    assert names(sch.get_consumers(sch.get_block("D"))) == []
    root = tir.schedule.BlockRV("root")
    assert names(sch.get_child_blocks(root)) == ["B", "C", "D"]
    i, _ = sch.get_loops(sch.get_block("C"))
    assert names(sch.get_child_blocks(i)) == ["C"]


def test_add_unit_loop_wraps_a_block():
    sch = tir.Schedule(_chain())
    loop = sch.add_unit_loop(sch.get_block("C"))
    assert sch.get(loop).extent.value == 1
    assert len(sch.get_loops(sch.get_block("C"))) == 3
    a, d = _run(sch.mod)
    np.testing.assert_allclose(d, (a + 1) * 2 - 3, rtol=1e-6)


def test_add_unit_loop_errors():
    sch = tir.Schedule(_chain())
    with pytest.raises(ScheduleError, match="cannot wrap the function.s root block"):
        sch.add_unit_loop(tir.schedule.BlockRV("root"))
    with pytest.raises(TypeError, match="argument .block_or_loop. must be a BlockRV"):
        sch.add_unit_loop("C")


def test_block_queries_errors():
    sch = tir.Schedule(_chain())
    inlined = sch.get_block("B")
    sch.compute_inline(inlined)
    for query in (sch.get_producers, sch.get_consumers):
        with pytest.raises(ScheduleError, match="block 'B' is not in the function"):
            query(inlined)
    with pytest.raises(TypeError, match="get_child_blocks: expected a BlockRV or LoopRV, got str"):
        sch.get_child_blocks("C")


def test_copy_is_independent_and_the_trace_shows(capsys):
    sch = tir.Schedule(_chain(), seed=7)
    sch.compute_inline(sch.get_block("B"))
    other = sch.copy()
    other.compute_inline(other.get_block("C"))
    assert sch.block_names() == ["C", "D"] and other.block_names() == ["D"]
    assert len(other.trace) == len(sch.trace) + 2
    assert tir.Schedule(_chain(), seed=7).fork_seed() == tir.Schedule(_chain(), seed=7).fork_seed()
    with pytest.raises(TypeError, match="argument 'seed' must be an int"):
        tir.Schedule(_chain(), seed="x")
    sch.trace.show()
    shown = capsys.readouterr().out
    assert "sch.get_block(name='B')" in shown and "sch.compute_inline(block=b0)" in shown


def _symbolic_add():
    m = tir.Var("m", "int32")
    a = te.placeholder((m,), name="A")
    b = te.compute((m,), lambda i: a[i] * 2.0 + 1.0, name="B")
    return te.create_prim_func([a, b])


@pytest.mark.parametrize("n", [1, 7, 16, 33])
def test_split_vectorize_parallel_unroll_a_symbolic_loop(n):
    sch = tir.Schedule(_symbolic_add())
    (i,) = sch.get_loops(sch.get_block("B"))
    outer, middle, inner = sch.split(i, [None, 2, 4])
    assert (
        "in T.grid((m + 7) // 8, 2, 4):" in sch.mod.script()
    )  # ceildiv(m, 2 * 4) outer iterations
    sch.parallel(outer)
    sch.unroll(middle)
    sch.vectorize(inner)
    # The tail is guarded: the last outer iteration may run past m.
    assert "T.where(" in sch.mod.script()
    a = np.arange(n, dtype="float32")
    b = np.zeros(n, "float32")
    tvm.compile(sch.mod)(a, b)
    np.testing.assert_array_equal(b, a * 2 + 1)


def test_split_of_a_symbolic_loop_by_one_needs_no_guard():
    # [None, 1] covers m exactly: the open factor is m itself, and no predicate is added.
    sch = tir.Schedule(_symbolic_add())
    (i,) = sch.get_loops(sch.get_block("B"))
    sch.split(i, [None, 1])
    assert "T.where(" not in sch.mod.script()
    a = np.arange(5, dtype="float32")
    b = np.zeros(5, "float32")
    tvm.compile(sch.mod)(a, b)
    np.testing.assert_array_equal(b, a * 2 + 1)


def test_fuse_symbolic_loops():
    m, k = tir.Var("m", "int32"), tir.Var("k", "int32")
    a = te.placeholder((m, k), name="A")
    b = te.compute((m, k), lambda i, j: a[i, j] + 1.0, name="B")
    sch = tir.Schedule(te.create_prim_func([a, b]))
    i, j = sch.get_loops(sch.get_block("B"))
    fused = sch.fuse(i, j)
    outer, inner = sch.split(fused, [None, 8])
    sch.parallel(outer)
    x = np.random.default_rng(3).random((5, 3), dtype="float32")
    out = np.zeros((5, 3), "float32")
    tvm.compile(sch.mod)(x, out)
    np.testing.assert_allclose(out, x + 1)


def test_split_of_a_symbolic_loop_with_every_factor_given_is_guarded():
    sch = tir.Schedule(_symbolic_add())
    (i,) = sch.get_loops(sch.get_block("B"))
    sch.split(
        i, [4, 4]
    )  # covers 16: the predicate guards an m below that (above is the caller's error, as upstream)
    a = np.arange(10, dtype="float32")
    b = np.zeros(10, "float32")
    tvm.compile(sch.mod)(a, b)
    np.testing.assert_array_equal(b, a * 2 + 1)
    with pytest.raises(ScheduleError, match="at most one factor"):
        sch.split(sch.get_loops(sch.get_block("B"))[0], [None, None])
