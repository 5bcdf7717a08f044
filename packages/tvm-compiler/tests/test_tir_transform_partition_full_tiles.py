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
from workloads import matmul_schedule, vector_add_schedule  # noqa: E402


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
