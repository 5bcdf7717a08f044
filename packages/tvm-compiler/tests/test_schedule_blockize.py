# Tests of Schedule.blockize: the outer block's iterators, init and regions, results against
# NumPy, the trace, and the ScheduleError cases.
import numpy as np
import pytest
import tvm
from tvm import te, tir
from tvm.error import ScheduleError


def _scale():
    a = te.placeholder((16, 16), name="A")
    b = te.compute((16, 16), lambda i, j: a[i, j] * 2.0, name="B")
    return te.create_prim_func([a, b])


def _gram():
    a = te.placeholder((16, 16), name="A")
    k = te.reduce_axis((0, 16), name="k")
    c = te.compute((16, 16), lambda i, j: te.sum(a[i, k] * a[j, k], axis=k), name="C")
    return te.create_prim_func([a, c])


def _tiled(func):
    sch = tir.Schedule(func)
    i, j = sch.get_loops(sch.get_block("B"))
    i0, i1 = sch.split(i, [4, 4])
    j0, j1 = sch.split(j, [4, 4])
    sch.reorder(i0, j0, i1, j1)
    return sch, i1


def test_blockize_a_tile_gives_an_outer_block_over_the_tile_index():
    sch, i1 = _tiled(_scale())
    outer = sch.blockize(i1)
    assert outer.name == "B_o"
    text = sch.mod.script()
    assert (
        'with T.block("B_o"):\n                v_i_o, v_j_o = T.axis.remap("SS", [i_0, j_0])'
        in text
    )
    assert 'v_i_i, v_j_i = T.axis.remap("SS", [i_1, j_1])' in text
    assert "B[v_i_o * 4 + v_i_i, v_j_o * 4 + v_j_i] = A[v_i_o * 4 + v_i_i" in text
    block = sch.get(outer)
    assert [str(r.region[0].min) for r in block.writes] == ["v_i_o * 4"]
    assert [int(r.region[0].extent) for r in (*block.reads, *block.writes)] == [4, 4]
    x = np.random.default_rng(0).random((16, 16), dtype="float32")
    out = np.zeros((16, 16), "float32")
    tvm.compile(sch.mod)(x, out)
    np.testing.assert_allclose(out, x * 2, rtol=1e-6)
    assert (
        str(sch.trace).splitlines()[-1] == "b7 = sch.blockize(target=l4, preserve_unit_iters=True)"
    )


def test_blockize_a_reduction_moves_its_init_to_the_outer_block():
    sch = tvm.s_tir.Schedule(_gram())
    i, j, k = sch.get_loops(sch.get_sblock("C"))
    i0, i1 = sch.split(i, [4, 4])
    sch.reorder(i0, j, i1, k)
    outer = sch.blockize(i1)
    text = sch.mod.script()
    assert "v_k_o = T.axis.reduce(1, 0)" in text
    assert 'with T.block("C_init")' in text
    assert sch.get(sch.get_block("C")).init is None
    x = np.random.default_rng(1).random((16, 16), dtype="float32")
    out = np.zeros((16, 16), "float32")
    tvm.compile(sch.mod)(x, out)
    np.testing.assert_allclose(out, x @ x.T, rtol=1e-5)
    # preserve_unit_iters=False drops the unit reduction iterator.
    sch2 = tir.Schedule(_gram())
    i, j, k = sch2.get_loops(sch2.get_block("C"))
    sch2.blockize(k, preserve_unit_iters=False)
    assert [iv.var.name for iv in sch2.get(sch2.get_block("C_o")).iter_vars] == ["v_i_o", "v_j_o"]
    assert outer.name == "C_o"


def test_blockize_consecutive_blocks():
    a = te.placeholder((16, 16), name="A")
    b = te.compute((16, 16), lambda i, j: a[i, j] * 2.0, name="B")
    c = te.compute((16, 16), lambda i, j: b[i, j] + 1.0, name="C")
    sch = tir.Schedule(te.create_prim_func([a, c]))
    blk_b, blk_c = sch.get_block("B"), sch.get_block("C")
    sch.compute_at(blk_b, sch.get_loops(blk_c)[0])
    outer = sch.blockize([blk_b, blk_c])
    assert outer.name == "outer_B_C_"
    assert "v_i_o = T.axis.spatial(16, i)" in sch.mod.script()
    x = np.random.default_rng(2).random((16, 16), dtype="float32")
    out = np.zeros((16, 16), "float32")
    tvm.compile(sch.mod)(x, out)
    np.testing.assert_allclose(out, x * 2 + 1, rtol=1e-6)
    assert str(sch.trace).splitlines()[-1] == (
        "b4 = sch.blockize(target=[b0, b1], preserve_unit_iters=True)"
    )


def test_blockize_errors_name_what_is_wrong():
    sch = tir.Schedule(_scale())
    i, j = sch.get_loops(sch.get_block("B"))
    fused = sch.fuse(i, j)
    _, inner = sch.split(fused, [32, 8])
    with pytest.raises(ScheduleError, match="blockize: the bindings of the inner block 'B' can"):
        sch.blockize(inner)
    a = te.placeholder((16,), name="A")
    b = te.compute((16,), lambda i: a[i] + 1.0, name="B")
    c = te.compute((16,), lambda i: b[i] * 2.0, name="C")
    sch = tir.Schedule(te.create_prim_func([a, c]))
    blk_b, blk_c = sch.get_block("B"), sch.get_block("C")
    (loop,) = sch.get_loops(blk_c)
    sch.compute_at(blk_b, loop)
    with pytest.raises(ScheduleError, match="is required to have only one child block"):
        sch.blockize(loop)
    with pytest.raises(ScheduleError, match="once each"):
        sch.blockize([blk_b, blk_b])
    with pytest.raises(TypeError, match="LoopRV or a non-empty list of BlockRVs"):
        sch.blockize([])
