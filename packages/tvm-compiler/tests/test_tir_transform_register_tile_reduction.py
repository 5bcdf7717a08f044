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
from workloads import matmul_schedule  # noqa: E402


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
