# PartitionFullTiles: interior tiles lose their bound checks, edge tiles shrink, results hold.
import sys
from pathlib import Path

import numpy as np
import pytest
import tvm
from tvm import tir
from tvm.driver import lower
from tvm.target import Target

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from host_isa import AVX2_TARGET  # noqa: E402
from workloads import dense_func, matmul_schedule, tile_dense, vector_add_schedule  # noqa: E402


def _checks(script: str) -> int:
    return sum(1 for line in script.splitlines() if line.strip().startswith("if "))


@pytest.mark.parametrize("m, n, k", [(100, 70, 50), (1000, 40, 36), (45, 33, 17)])
def test_uneven_matmul_has_no_checks_left_and_computes(m, n, k):
    mod = matmul_schedule(n, 32, 4, m=m, k=k).mod
    with Target(AVX2_TARGET):  # pinned: register tiling depends on the vector width
        script = lower(mod).script()
    assert _checks(script) == 0 and "C_global_acc" in script
    rng = np.random.default_rng(5)
    a, b = rng.random((m, k), dtype="float32"), rng.random((k, n), dtype="float32")
    c = np.zeros((m, n), "float32")
    tvm.compile(mod, target="llvm -mcpu=native")["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)
    with tvm.transform.PassContext(disabled_pass=["tir.PartitionFullTiles"]):
        assert _checks(lower(mod).script()) > 0


def test_edge_tile_loop_shrinks_to_its_valid_extent():
    mod = vector_add_schedule(100, inner=32).mod
    script = lower(mod).script()
    # Three whole tiles of 32, then the last 4 elements with no check.
    assert (
        "T.parallel(3)" in script
        and "C[96:100] = A[96:100] + B[96:100]" in script
        and _checks(script) == 0
    )
    a, b = np.arange(100, dtype="float32"), np.full(100, 2, "float32")
    c = np.zeros(100, "float32")
    tvm.compile(mod)["main"](a, b, c)
    np.testing.assert_array_equal(c, a + 2)


def _loop_func(body_of, n=10):
    """A PrimFunc over buffers A, B of n float32 whose body body_of(i, A, B) builds."""
    a = tir.decl_buffer((n,), "float32", name="A")
    b = tir.decl_buffer((n,), "float32", name="B")
    pa, pb = tir.Var("a", "handle"), tir.Var("b", "handle")
    i = tir.Var("i")
    body = tir.For(i, 0, n, tir.ForKind.SERIAL, body_of(i, a, b))
    return tir.PrimFunc([pa, pb], body, buffer_map={pa: a, pb: b})


def test_unguarded_work_keeps_the_rest_of_the_loop():
    func = _loop_func(
        lambda i, a, b: tir.SeqStmt(
            [tir.BufferStore(a, 1.0, [i]), tir.IfThenElse(i < 7, tir.BufferStore(b, 2.0, [i]))]
        )
    )
    a, b = np.zeros(10, "float32"), np.full(10, 5, "float32")
    tvm.compile(func)["main"](a, b)
    np.testing.assert_array_equal(a, np.ones(10))
    np.testing.assert_array_equal(b, [2] * 7 + [5] * 3)


def test_checks_it_cannot_reason_about_stay():
    # i * i < 50 is not affine: the check stays and still decides.
    func = _loop_func(lambda i, a, b: tir.IfThenElse(i * i < 50, tir.BufferStore(b, a[i], [i])))
    assert _checks(lower(func).script()) == 1
    a, b = np.arange(10, dtype="float32"), np.full(10, -1, "float32")
    tvm.compile(func)["main"](a, b)
    np.testing.assert_array_equal(b, [0, 1, 2, 3, 4, 5, 6, 7, -1, -1])


def test_check_on_an_outer_loop_becomes_one_branch_per_iteration():
    # The check depends on the outer loop only: the inner loop runs unchecked when it holds.
    a = tir.decl_buffer((6, 8), "float32", name="A")
    pa, limit = tir.Var("a", "handle"), tir.Var("limit")
    i, j = tir.Var("i"), tir.Var("j")
    store = tir.IfThenElse(i * 8 + j < limit, tir.BufferStore(a, 1.0, [i, j]))
    body = tir.For(i, 0, 6, tir.ForKind.SERIAL, tir.For(j, 0, 8, tir.ForKind.SERIAL, store))
    func = tir.PrimFunc([pa, limit], body, buffer_map={pa: a})
    script = lower(func).script()
    assert "else:" in script
    out = np.zeros((6, 8), "float32")
    tvm.compile(func)["main"](out, 21)
    np.testing.assert_array_equal(out.ravel(), (np.arange(48) < 21).astype("float32"))


def test_check_on_memory_the_loop_writes_is_not_hoisted():
    # B[i] < 5 changes while j runs: deciding it once per i would keep adding past 5.
    b = tir.decl_buffer((4,), "int32", name="B")
    pb, i, j = tir.Var("b", "handle"), tir.Var("i"), tir.Var("j")
    store = tir.IfThenElse(b[i] < 5, tir.BufferStore(b, b[i] + 1, [i]))
    body = tir.For(i, 0, 4, tir.ForKind.SERIAL, tir.For(j, 0, 8, tir.ForKind.SERIAL, store))
    func = tir.PrimFunc([pb], body, buffer_map={pb: b})
    out = np.array([0, 3, 4, 9], "int32")
    tvm.compile(func)["main"](out)
    np.testing.assert_array_equal(out, [5, 5, 5, 9])


def test_dropped_iterations_keep_their_calls():
    # Iterations 7..9 store nothing, but their memset (B[0] = 0x01010101 in iteration 9) runs.
    a = tir.decl_buffer((10,), "int32", name="A")
    b = tir.decl_buffer((1,), "int32", name="B")
    pa, pb, i, x = (
        tir.Var("a", "handle"),
        tir.Var("b", "handle"),
        tir.Var("i"),
        tir.Var("x", "handle"),
    )
    size = tir.Cast("int64", tir.max(i - 8, 0) * 4)
    body = tir.For(
        i,
        0,
        10,
        tir.ForKind.SERIAL,
        tir.LetStmt(
            x,
            tir.call_extern("handle", "memset", b.data, 1, size),
            tir.IfThenElse(i < 7, tir.BufferStore(a, i, [i])),
        ),
    )
    func = tir.PrimFunc([pa, pb], body, buffer_map={pa: a, pb: b})
    out, flag = np.zeros(10, "int32"), np.zeros(1, "int32")
    tvm.compile(func)["main"](out, flag)
    np.testing.assert_array_equal(out, list(range(7)) + [0] * 3)
    assert flag[0] == 0x01010101


def test_hoisted_check_does_not_overflow_where_the_check_does_not():
    # i0 * 4 + i1 < n never overflows int8; i0 * 4 - n + 3 < 0 would for n = -128.
    a = tir.decl_buffer((16,), "float32", name="A")
    pa, limit = tir.Var("a", "handle"), tir.Var("n", "int8")
    i0, i1 = tir.Var("i0", "int8"), tir.Var("i1", "int8")
    index = i0 * tir.IntImm("int8", 4) + i1
    store = tir.IfThenElse(index < limit, tir.BufferStore(a, 1.0, [index]))
    body = tir.For(i0, 0, 4, tir.ForKind.SERIAL, tir.For(i1, 0, 4, tir.ForKind.SERIAL, store))
    main = tvm.compile(tir.PrimFunc([pa, limit], body, buffer_map={pa: a}))["main"]
    for n in (-128, 6):
        out = np.zeros(16, "float32")
        main(out, n)
        np.testing.assert_array_equal(out, (np.arange(16) < n).astype("float32"))


def test_many_uneven_axes_grow_the_code_only_so_far():
    # Five axes each split unevenly twice would multiply the code by 3^5; a budget caps it.
    from tvm import te
    from tvm.tir.transform.partition_full_tiles import _statement_count, partition_full_tiles

    shape = (13,) * 5
    a = te.placeholder(shape, name="A")
    c = te.compute(shape, lambda *ix: a[ix] + 1.0, name="C")
    sch = tir.Schedule(te.create_prim_func([a, c]))
    outer, inner = [], []
    for loop in sch.get_loops(sch.get_block("C")):
        *parts, last = sch.split(loop, [None, 3, 3])
        outer.append(parts)
        inner.append(last)
    sch.reorder(*[p for level in zip(*outer) for p in level], *inner)
    with tvm.transform.PassContext(disabled_pass=["tir.PartitionFullTiles"]):
        before = lower(sch.mod)["main"]
    after = partition_full_tiles(before)
    # The default growth allowance is 4 times the statements, plus 64.
    assert _statement_count(after.body) <= 5 * _statement_count(before.body) + 64
    x = np.random.default_rng(0).random(shape, dtype="float32")
    out = np.zeros(shape, "float32")
    tvm.compile(sch.mod)["main"](x, out)
    np.testing.assert_array_equal(out, x + 1)


def _run_dense(func, batch, k, m, target="llvm -mcpu=native"):
    rng = np.random.default_rng(batch)
    x, w = rng.random((batch, k), dtype="float32"), rng.random((k, m), dtype="float32")
    out = np.full((batch, m), np.nan, "float32")
    tvm.compile(func, target=target)["main"](x, w, out)
    return x, w, out


def test_symbolic_batch_gets_register_tiled_full_tiles_and_a_guarded_tail():
    n = tir.Var("n", "int64")
    func = tile_dense(dense_func(n, 40, 32))
    with Target(AVX2_TARGET):  # pinned: register tiling depends on the vector width
        script = lower(func).script()
    # Full tiles of 8 rows: accumulators in registers, no check; the tail row loop shrinks
    # to the rows left, so no check remains anywhere.
    assert "dense_acc" in script and "n // T.int64(8)" in script and _checks(script) == 0
    with tvm.transform.PassContext(disabled_pass=["tir.PartitionFullTiles"]):
        assert "dense_acc" not in lower(func).script()


@pytest.mark.parametrize("batch", [1, 7, 8, 64, 65])
def test_symbolic_batch_kernel_equals_the_static_one(batch):
    n = tir.Var("n", "int64")
    symbolic = tile_dense(dense_func(n, 40, 32))
    static = tile_dense(dense_func(batch, 40, 32))
    x, w, out = _run_dense(symbolic, batch, 40, 32)
    _, _, expected = _run_dense(static, batch, 40, 32)
    # Each element adds its terms in the same order in both: the same bits.
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_allclose(out, x @ w, rtol=1e-5)


def _symbolic_loop(extent, body_of, dtype="int32"):
    """A PrimFunc over A, B of 16 float32 and a scalar limit, looping i over extent (an int,
    or "m" for a second scalar parameter) with the body body_of(i, limit, A, B)."""
    a = tir.decl_buffer((16,), "float32", name="A")
    b = tir.decl_buffer((16,), "float32", name="B")
    pa, pb = tir.Var("a", "handle"), tir.Var("b", "handle")
    limit, m, i = tir.Var("limit", dtype), tir.Var("m", dtype), tir.Var("i", dtype)
    ext = m if extent == "m" else tir.IntImm(dtype, extent)
    body = tir.For(i, tir.IntImm(dtype, 0), ext, tir.ForKind.SERIAL, body_of(i, limit, a, b))
    params = [pa, pb, limit] + ([m] if extent == "m" else [])
    return tir.PrimFunc(params, body, buffer_map={pa: a, pb: b})


@pytest.mark.parametrize("limit", [-3, 0, 5, 16, 40])
def test_check_against_a_parameter_shrinks_the_loop(limit):
    func = _symbolic_loop(
        16, lambda i, n, a, b: tir.IfThenElse(i < n, tir.BufferStore(a, 1.0, [i]))
    )
    script = lower(func).script()
    assert _checks(script) == 0 and 'T.min(T.max(T.Cast("int64", limit)' in script
    out = np.zeros(16, "float32")
    tvm.compile(func)["main"](out, np.zeros(16, "float32"), limit)
    np.testing.assert_array_equal(out, (np.arange(16) < limit).astype("float32"))


@pytest.mark.parametrize("extent, limit", [(0, 5), (3, 5), (10, 5), (16, -2), (16, 16)])
def test_symbolic_loop_splits_where_a_check_stops_holding(extent, limit):
    # A[i] is stored in every iteration: the rest stays, with the check on B.
    def body(i, n, a, b):
        return tir.SeqStmt(
            [tir.BufferStore(a, 1.0, [i]), tir.IfThenElse(i < n, tir.BufferStore(b, 2.0, [i]))]
        )

    func = _symbolic_loop("m", body)
    script = lower(func).script()
    assert script.count("for i in range(") == 2 and _checks(script) == 1
    a, b = np.zeros(16, "float32"), np.zeros(16, "float32")
    tvm.compile(func)["main"](a, b, limit, extent)
    idx = np.arange(16)
    np.testing.assert_array_equal(a, (idx < extent).astype("float32"))
    np.testing.assert_array_equal(b, 2 * ((idx < extent) & (idx < limit)).astype("float32"))


@pytest.mark.parametrize("limit", [-128, -120, 3, 127])
def test_symbolic_bound_does_not_overflow_a_narrow_loop_variable(limit):
    # i + 100 < limit in int8: the split point 100 - ... computed in int8 would wrap.
    def body(i, n, a, b):
        return tir.IfThenElse(i + tir.IntImm("int8", 100) < n, tir.BufferStore(a, 1.0, [i]))

    func = _symbolic_loop(16, body, dtype="int8")
    out = np.zeros(16, "float32")
    tvm.compile(func)["main"](out, np.zeros(16, "float32"), limit)
    np.testing.assert_array_equal(out, (np.arange(16) + 100 < limit).astype("float32"))


@pytest.mark.parametrize("limit", [-1, 4, 20])
def test_check_holding_for_a_suffix_stays_and_decides(limit):
    # i > limit holds for the last iterations, not a prefix: no split, the check decides.
    func = _symbolic_loop(
        16, lambda i, n, a, b: tir.IfThenElse(i > n, tir.BufferStore(a, 1.0, [i]))
    )
    assert _checks(lower(func).script()) == 1
    out = np.zeros(16, "float32")
    tvm.compile(func)["main"](out, np.zeros(16, "float32"), limit)
    np.testing.assert_array_equal(out, (np.arange(16) > limit).astype("float32"))
