# Tests of tvm.tir.Schedule: each primitive's effect on the IR, numerical results, trace and errors.
import re

import numpy as np
import pytest
import tvm
import tvm.driver
import tvm.transform
from host_isa import AVX2_TARGET, AVX512_TARGET, requires_avx2, requires_avx512
from tvm import te, tir
from tvm.error import ScheduleError
from tvm.ir import structural_equal
from tvm.target import Target


def _matmul(n=64, m=None):
    m = m or n
    a = te.placeholder((n, n), name="A")
    b = te.placeholder((n, m), name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute((n, m), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    return te.create_prim_func([a, b, c])


def _run_matmul(mod, n=64, m=None):
    m = m or n
    rng = np.random.default_rng(1)
    a, b = rng.random((n, n), dtype="float32"), rng.random((n, m), dtype="float32")
    c = np.zeros((n, m), dtype="float32")
    tvm.compile(mod)["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4)


def _loop_names(sch, block):
    return [sch.get(lp).loop_var.name for lp in sch.get_loops(block)]


def test_get_block_and_loops():
    sch = tir.Schedule(_matmul())
    block = sch.get_block("C")
    assert _loop_names(sch, block) == ["i", "j", "k"]
    with pytest.raises(ScheduleError, match="get_block: no block named 'D'; blocks: \\['C'\\]"):
        sch.get_block("D")


def test_split_perfect_and_imperfect():
    sch = tir.Schedule(_matmul(n=64, m=50))
    block = sch.get_block("C")
    i, j, _ = sch.get_loops(block)
    io, ii = sch.split(i, [None, 16])
    assert sch.get(io).extent.value == 4 and sch.get(ii).extent.value == 16
    sch.split(j, [None, 16])
    text = sch.mod.script()
    assert "T.where(j_0 * 16 + j_1 < 50)" in text
    assert "T.where(i_0" not in text  # the perfect split needs no predicate
    _run_matmul(sch.mod, 64, 50)


def test_split_errors_name_the_loop():
    sch = tir.Schedule(_matmul())
    i, _, _ = sch.get_loops(sch.get_block("C"))
    with pytest.raises(
        ScheduleError, match="factors .8, 4. multiply to 32, less than the extent 64 of loop 'i'"
    ):
        sch.split(i, [8, 4])
    with pytest.raises(ScheduleError, match="at most one factor of loop 'i' may be None"):
        sch.split(i, [None, None])
    with pytest.raises(ScheduleError, match="factors for loop 'i' must be a list of at least two"):
        sch.split(i, 8)
    with pytest.raises(ScheduleError, match="must be positive ints or None"):
        sch.split(i, [0, 64])
    sch.split(i, [None, 8])
    with pytest.raises(ScheduleError, match="loop 'i' no longer exists"):
        sch.split(i, [None, 2])


def test_fuse_and_reorder():
    sch = tir.Schedule(_matmul(n=32))
    block = sch.get_block("C")
    i, j, k = sch.get_loops(block)
    sch.reorder(k, i)
    assert _loop_names(sch, block) == ["k", "j", "i"]
    _run_matmul(sch.mod, 32)
    sch2 = tir.Schedule(_matmul(n=32))
    block2 = sch2.get_block("C")
    i, j, k = sch2.get_loops(block2)
    fused = sch2.fuse(i, j)
    assert sch2.get(fused).extent.value == 1024 and _loop_names(sch2, block2) == ["i_j_fused", "k"]
    _run_matmul(sch2.mod, 32)
    with pytest.raises(ScheduleError, match="fuse: a loop is listed twice"):
        sch2.fuse(fused, fused)


def test_reorder_and_fuse_errors():
    a = te.placeholder((8,), name="A")
    b = te.compute((8,), lambda i: a[i] + 1.0, name="B")
    c = te.compute((8,), lambda i: b[i] * 2.0, name="C")
    sch = tir.Schedule(te.create_prim_func([a, c]))
    (ib,) = sch.get_loops(sch.get_block("B"))
    (ic,) = sch.get_loops(sch.get_block("C"))
    with pytest.raises(ScheduleError, match="reorder: the loops are not nested in one another"):
        sch.reorder(ic, ib)
    with pytest.raises(ScheduleError, match="fuse: loops 'i' and 'i' are not directly nested"):
        sch.fuse(ib, ic)


def test_loop_kinds_and_reduction_check():
    sch = tir.Schedule(_matmul(n=32))
    i, j, k = sch.get_loops(sch.get_block("C"))
    sch.parallel(i)
    sch.vectorize(j)
    sch.unroll(k)
    kinds = [sch.get(lp).kind for lp in (i, j, k)]
    assert kinds == [tir.ForKind.PARALLEL, tir.ForKind.VECTORIZED, tir.ForKind.UNROLLED]
    _run_matmul(sch.mod, 32)
    with pytest.raises(
        ScheduleError, match="parallel: loop 'k' is bound to reduction iterator 'v_k' of block 'C'"
    ):
        sch.parallel(k)


def test_cache_read_and_write():
    sch = tir.Schedule(_matmul(n=16))
    block = sch.get_block("C")
    read = sch.cache_read(block, 0, "global")
    write = sch.cache_write(block, 0, "local")
    assert sch.get(read).name_hint == "A_global" and sch.get(write).name_hint == "C_local"
    text = sch.mod.script()
    assert re.search(r"A_global\[v0\w*, v1\w*\] = A\[v0\w*, v1\w*\]", text)
    assert re.search(r"C\[v0\w*, v1\w*\] = C_local\[v0\w*, v1\w*\]", text)
    _run_matmul(sch.mod, 16)
    with pytest.raises(ScheduleError, match="block 'C' writes 1 buffers; index 3 is out of range"):
        sch.cache_write(block, 3, "global")
    with pytest.raises(ScheduleError, match="storage_scope must be"):
        sch.cache_read(block, 0, "texture")


def test_compute_at_computes_only_the_needed_tile():
    a = te.placeholder((64,), name="A")
    b = te.compute((64,), lambda i: a[i] * 2.0, name="B")
    c = te.compute((64,), lambda i: b[i] + 1.0, name="C")
    sch = tir.Schedule(te.create_prim_func([a, c]))
    (i,) = sch.get_loops(sch.get_block("C"))
    io, _ = sch.split(i, [None, 8])
    sch.compute_at(sch.get_block("B"), io)
    loops = _loop_names(sch, sch.get_block("B"))
    assert loops == ["i_0", "ax0"] and "v_i = T.axis.spatial(64, i_0 * 8 + ax0)" in sch.mod.script()
    x = np.arange(64, dtype="float32")
    y = np.zeros(64, dtype="float32")
    tvm.compile(sch.mod)["main"](x, y)
    np.testing.assert_allclose(y, x * 2 + 1)
    with pytest.raises(ScheduleError, match="already under loop"):
        sch.compute_at(sch.get_block("B"), io)


def test_reverse_compute_at_and_decompose_reduction_full_schedule():
    sch = tir.Schedule(_matmul(n=64))
    block = sch.get_block("C")
    write_back = sch.cache_write(block, 0, "global")
    i, j, k = sch.get_loops(block)
    io, ii = sch.split(i, [None, 32])
    jo, ji = sch.split(j, [None, 32])
    ko, ki = sch.split(k, [None, 4])
    sch.reorder(io, jo, ko, ki, ii, ji)
    sch.vectorize(ji)
    sch.parallel(io)
    sch.reverse_compute_at(write_back, jo)
    init = sch.decompose_reduction(block, ko)
    assert _loop_names(sch, write_back) == ["i_0", "j_0", "ax0", "ax1"]
    assert _loop_names(sch, init) == ["i_0", "j_0", "i_1_init", "j_1_init"]
    assert sch.get(block).init is None
    _run_matmul(sch.mod, 64)
    lowered = tvm.driver.lower(sch.mod).script()
    assert "C_global = T.decl_buffer((1024,))" in lowered  # compacted to one 32x32 tile
    text = str(sch.trace)
    assert "sch.reorder(l5, l7, l9, l10, l6, l8)" in text
    assert "b11 = sch.decompose_reduction(block=b0, loop=l9)" in text
    with pytest.raises(ScheduleError, match="block 'C' is not a reduction block"):
        sch.decompose_reduction(block, ko)


def test_schedule_leaves_input_module_unchanged():
    func = _matmul(n=16)
    mod = tvm.ir.IRModule({"main": func})
    sch = tir.Schedule(mod)
    i, _, _ = sch.get_loops(sch.get_block("C"))
    sch.split(i, [None, 4])
    assert mod["main"] is func
    assert not structural_equal(sch.mod["main"], func)


@pytest.mark.parametrize(
    "target",
    [
        pytest.param(AVX512_TARGET, marks=requires_avx512),
        pytest.param(AVX2_TARGET, marks=requires_avx2),
    ],
)
def test_register_tiling_keeps_results_bit_identical(target):
    sch = tir.Schedule(_matmul(n=64))
    block = sch.get_block("C")
    i, j, k = sch.get_loops(block)
    ko, ki = sch.split(k, [None, 4])
    jo, ji = sch.split(j, [None, 16])
    sch.reorder(i, jo, ko, ki, ji)
    sch.vectorize(ji)
    sch.decompose_reduction(block, ko)
    with Target(AVX512_TARGET):  # pinned: the tile's shape follows the vector width
        # k_1 does not enclose i here: one row at a time, its vector held over the reduction.
        script = tvm.driver.lower(sch.mod).script()
        assert 'C_acc = T.decl_buffer((1,), "float32x16")' in script
        assert script.index("C_acc[0] = C_1[") < script.index("for k_0 in range(16)")
    sch2 = tir.Schedule(_matmul(n=64))
    block2 = sch2.get_block("C")
    i, j, k = sch2.get_loops(block2)
    io, ii = sch2.split(i, [None, 8])
    ko, ki = sch2.split(k, [None, 4])
    sch2.reorder(io, ko, ki, ii, j)
    sch2.vectorize(j)
    sch2.decompose_reduction(block2, ko)
    with Target(AVX512_TARGET):
        assert "C_acc" in tvm.driver.lower(sch2.mod).script()
    rng = np.random.default_rng(3)
    a, b = rng.random((64, 64), dtype="float32"), rng.random((64, 64), dtype="float32")
    tiled, plain = np.zeros((64, 64), "float32"), np.zeros((64, 64), "float32")
    tvm.compile(sch2.mod, target=target)["main"](a, b, tiled)
    with tvm.transform.PassContext(disabled_pass=["tir.RegisterTileReduction"]):
        with Target(AVX512_TARGET):
            assert "C_acc" not in tvm.driver.lower(sch2.mod).script()
        tvm.compile(sch2.mod, target=target)["main"](a, b, plain)
    np.testing.assert_array_equal(tiled, plain)
    row = np.zeros((64, 64), "float32")
    tvm.compile(sch.mod, target=target)["main"](a, b, row)
    np.testing.assert_array_equal(row, plain)
