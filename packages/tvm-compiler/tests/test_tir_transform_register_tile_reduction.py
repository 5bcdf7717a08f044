# Tests of RegisterTileReduction's chunked form: packing, prefetch hints, bit-identical results.
import sys
from pathlib import Path

import numpy as np
import pytest
import tvm
from host_isa import AVX2_TARGET, AVX512_TARGET, requires_avx2, requires_avx512
from tvm import te, tir
from tvm.driver import lower
from tvm.target import Target
from tvm.tir.analysis import is_pure_function

# The benchmark's own schedule, so these tests check exactly what it measures.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from workloads import dense_func, matmul_schedule  # noqa: E402


def _tiled_matmul(m, n, k, tile=32, k_tile=4):
    return matmul_schedule(n, tile, k_tile, m=m, k=k).mod


def _with_and_without_tiling(mod, shape_a, shape_b, target="llvm -mcpu=native"):
    rng = np.random.default_rng(7)
    a, b = rng.random(shape_a, dtype="float32"), rng.random(shape_b, dtype="float32")
    tiled = np.zeros((shape_a[0], shape_b[1]), "float32")
    plain = np.zeros_like(tiled)
    tvm.compile(mod, target=target)["main"](a, b, tiled)
    with tvm.transform.PassContext(disabled_pass=["tir.RegisterTileReduction"]):
        tvm.compile(mod, target=target)["main"](a, b, plain)
    return a, b, tiled, plain


@pytest.mark.parametrize(
    "m, n, k, tile, k_tile",
    [
        (128, 128, 128, 32, 4),
        (64, 96, 200, 32, 4),
        (96, 64, 64, 16, 2),
        (64, 64, 1024, 32, 8),
    ],
)
def test_chunked_tiles_pack_and_match_untiled_bits(m, n, k, tile, k_tile):
    mod = _tiled_matmul(m, n, k, tile, k_tile)
    with Target(AVX2_TARGET):  # pinned: whether a tile fits depends on the vector width
        script = lower(mod).script()
    assert "C_global_acc" in script and "B_packed" in script and "T.prefetch(B_1[" in script
    a, b, tiled, plain = _with_and_without_tiling(mod, (m, k), (k, n))
    # Every element adds its k terms in the same order, so the bits are the same.
    np.testing.assert_array_equal(tiled, plain)
    np.testing.assert_allclose(tiled, a @ b, rtol=1e-4)


def test_narrower_vectors_for_an_avx2_target():
    mod = _tiled_matmul(64, 64, 64)
    a, b, tiled, plain = _with_and_without_tiling(mod, (64, 64), (64, 64), "llvm -mcpu=haswell")
    np.testing.assert_array_equal(tiled, plain)
    np.testing.assert_allclose(tiled, a @ b, rtol=1e-4)


@pytest.mark.parametrize(
    "target",
    [
        pytest.param(AVX512_TARGET, marks=requires_avx512),
        pytest.param(AVX2_TARGET, marks=requires_avx2),
    ],
)
def test_no_row_invariant_operand_means_no_packing(target):
    # B is read as B[i mod k, j]: every load depends on the row, so nothing is packed.
    m = n = k = 64
    a = te.placeholder((m, k), name="A")
    b = te.placeholder((k, n), name="B")
    r = te.reduce_axis((0, k), name="k")
    c = te.compute((m, n), lambda i, j: te.sum(a[i, r] * b[i % k, j], axis=r), name="C")
    sch = tir.Schedule(te.create_prim_func([a, b, c]))
    block = sch.get_block("C")
    i, j, kk = sch.get_loops(block)
    io, ii = sch.split(i, [None, 8])
    ko, ki = sch.split(kk, [None, 4])
    sch.reorder(io, ko, ki, ii, j)
    sch.vectorize(j)
    sch.decompose_reduction(block, ko)
    with Target(AVX512_TARGET):  # the 8x64-float tile is register-tiled at AVX-512's width
        script = lower(sch.mod).script()
    assert "_packed" not in script and "C_acc" in script
    a_np, b_np, tiled, plain = _with_and_without_tiling(sch.mod, (m, k), (k, n), target)
    np.testing.assert_array_equal(tiled, plain)
    np.testing.assert_allclose(tiled, (a_np.sum(axis=1, keepdims=True) * b_np), rtol=1e-4)


def test_prefetch_hint_is_pure():
    buf = tir.decl_buffer((16,), "float32", name="X")
    px = tir.Var("x", "handle")
    hint = tir.Evaluate(tir.Call("int32", "tir.prefetch", [buf[3]]))
    assert is_pure_function(tir.PrimFunc([px], hint, buffer_map={px: buf}))


def test_uneven_splits_still_compute_correctly():
    # Splits that do not divide the extents leave guarded loops; tiling must keep them right.
    mod = _tiled_matmul(100, 70, 50, 32, 4)
    a, b, tiled, plain = _with_and_without_tiling(mod, (100, 50), (50, 70))
    np.testing.assert_array_equal(tiled, plain)
    np.testing.assert_allclose(tiled, a @ b, rtol=1e-4)


def _rows_untiled_dense(batch, k=40, m=32, cols=16):
    """dense_func with rows left whole (a symbolic batch), columns in vectorized blocks of cols
    (all of them when None) and the reduction split by 4."""
    sch = tir.Schedule(dense_func(batch, k, m))
    block = sch.get_block("dense")
    i, j, kk = sch.get_loops(block)
    jo, ji = sch.split(j, [None, cols]) if cols else (None, j)
    ko, ki = sch.split(kk, [None, 4])
    sch.reorder(*([jo] if jo else []), ko, ki, i, ji)
    sch.vectorize(ji)
    sch.decompose_reduction(block, ko)
    return sch.mod


@pytest.mark.parametrize("batch", [1, 5])
def test_symbolic_rows_go_one_at_a_time_over_the_whole_reduction(batch):
    mod = _rows_untiled_dense(tir.Var("n", "int64"))
    with Target(AVX2_TARGET):  # pinned: whether a row fits the registers depends on the width
        script = lower(mod).script()
    # One row's accumulator (16 floats: two AVX2 vectors) over the whole reduction (k_0 and
    # k_1 inside the row loop), nothing packed.
    assert 'dense_acc = T.decl_buffer((2,), "float32x8")' in script and "_packed" not in script
    assert "for i_outer in range(n):" in script
    assert script.index("dense_acc[1] = dense_1[") < script.index("for k_0 in range(")
    x, w, tiled, plain = _with_and_without_tiling(mod, (batch, 40), (40, 32))
    np.testing.assert_array_equal(tiled, plain)
    np.testing.assert_allclose(tiled, x @ w, rtol=1e-5)


def test_a_row_too_wide_for_the_registers_is_left_alone():
    # 512 float32 columns in one vectorized loop are 64 AVX2 registers: no accumulator.
    mod = _rows_untiled_dense(tir.Var("n", "int64"), k=8, m=512, cols=None)
    with Target(AVX2_TARGET):
        assert "dense_acc" not in lower(mod).script()
    x, w, out, _ = _with_and_without_tiling(mod, (3, 8), (8, 512))
    np.testing.assert_allclose(out, x @ w, rtol=1e-5)


def test_avx512_rows_of_four_vectors_go_in_two_parts_of_eight_rows():
    # 64 columns are 4 AVX-512 vectors: tiles of 8 rows by 2 vectors, the column parts outside.
    mod = _tiled_matmul(64, 64, 64, tile=64)
    with Target(AVX512_TARGET):
        script = lower(mod).script()
    assert "for j_1_part, i_1_outer in T.grid(2, 8):" in script
    assert 'C_global_acc = T.decl_buffer((16,), "float32x16")' in script
    with Target(AVX2_TARGET):  # 16 vector registers: no parts
        assert "_part" not in lower(mod).script()


@requires_avx512
def test_column_parts_match_untiled_bits():
    mod = _tiled_matmul(64, 64, 96, tile=64)
    a, b, tiled, plain = _with_and_without_tiling(mod, (64, 96), (96, 64), AVX512_TARGET)
    np.testing.assert_array_equal(tiled, plain)
    np.testing.assert_allclose(tiled, a @ b, rtol=1e-4)


def test_a_single_row_keeps_its_accumulator_in_registers():
    # Batch 1: Simplify removes the row loop of extent 1, leaving `for k: for j (vectorized)`,
    # which is tiled as one row (a GEMV) over the whole reduction.
    mod = _rows_untiled_dense(1)
    with Target(AVX2_TARGET):
        script = lower(mod).script()
    assert 'dense_acc = T.decl_buffer((2,), "float32x8")' in script
    assert script.index("dense_acc[1] = dense_1[") < script.index("for k_0 in range(")
    x, w, tiled, plain = _with_and_without_tiling(mod, (1, 40), (40, 32))
    np.testing.assert_array_equal(tiled, plain)
    np.testing.assert_allclose(tiled, x @ w, rtol=1e-5)
