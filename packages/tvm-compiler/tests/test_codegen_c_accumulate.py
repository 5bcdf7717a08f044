# Serial loops updating one element (a reduction's X[i]): kept in a C local across the loop,
# stored once after it; loops touching the buffer elsewhere keep their loads and stores.
import numpy as np
import tvm
from tvm import te, tir
from tvm.codegen.c.accumulate import loop_accumulator


def _row_reductions():
    a = te.placeholder((37, 53), name="A")
    j = te.reduce_axis((0, 53), name="j")
    row_max = te.compute((37,), lambda i: te.max(a[i, j], axis=j), name="row_max")
    k = te.reduce_axis((0, 53), name="k")
    row_sum = te.compute((37,), lambda i: te.sum(a[i, k] - row_max[i], axis=k), name="row_sum")
    return tvm.compile(te.create_prim_func([a, row_max, row_sum]))


def test_row_reductions_run_in_a_local_and_match_numpy():
    f = _row_reductions()
    assert "row_sum_acc" in f.inspect_source()  # the element held in a C local
    x = np.random.default_rng(0).standard_normal((37, 53)).astype("float32")
    got_max, got_sum = np.zeros(37, "float32"), np.zeros(37, "float32")
    f(x, got_max, got_sum)
    np.testing.assert_array_equal(got_max, x.max(axis=1))
    np.testing.assert_allclose(got_sum, (x - x.max(axis=1, keepdims=True)).sum(axis=1), rtol=1e-5)


def _loop(store_index_1):
    # for j in 0..4: X[0] = X[0] + X[1]; X[store_index_1] = X[store_index_1] + 1
    x = tir.decl_buffer((2,), "float32", name="X")
    j = tir.Var("j", "int64")
    first = tir.BufferStore(x, x[0] + x[1], [tir.const(0, "int64")])
    second = tir.BufferStore(
        x, x[store_index_1] + tir.const(1.0, "float32"), [tir.const(store_index_1, "int64")]
    )
    px = tir.Var("x", "handle")
    body = tir.For(j, 0, 4, tir.ForKind.SERIAL, tir.SeqStmt([first, second]))
    return body, tir.PrimFunc([px], body, buffer_map={px: x})


def test_a_loop_reading_the_buffer_elsewhere_keeps_memory_accesses():
    body, func = _loop(1)
    assert loop_accumulator(body) is None  # X[1] is read and written too
    out = np.array([0.0, 1.0], "float32")
    tvm.compile(func)["main"](out)
    # X[0] sums X[1] = 1, 2, 3, 4 as they grow: a stale local would give 4.
    np.testing.assert_array_equal(out, [10.0, 5.0])
    body, func = _loop(0)
    assert loop_accumulator(body) is None  # X[1] is read there, beside X[0]


def test_a_buffer_allocated_inside_the_loop_is_not_held_outside_it():
    # T lives only inside each iteration: a local read from T before the loop would not compile.
    tv = tir.Var("t", "handle")
    t = tir.decl_buffer((1,), "float32", name="T", data=tv)
    x = tir.decl_buffer((1,), "float32", name="X")
    j, zero = tir.Var("j", "int64"), tir.const(0, "int64")
    inner = tir.SeqStmt(
        [
            tir.BufferStore(t, tir.Cast("float32", j), [zero]),
            tir.BufferStore(t, t[0] + t[0], [zero]),
            tir.BufferStore(x, x[0] + t[0], [zero]),
        ]
    )
    body = tir.For(j, 0, 4, tir.ForKind.SERIAL, tir.Allocate(tv, "float32", [1], inner))
    assert loop_accumulator(body) is None
    px = tir.Var("x", "handle")
    out = np.zeros(1, "float32")
    tvm.compile(tir.PrimFunc([px], body, buffer_map={px: x}))["main"](out)
    np.testing.assert_array_equal(out, [12.0])  # 2 * (0 + 1 + 2 + 3)


def test_an_index_read_from_memory_is_not_held_outside_the_loop():
    # for j in 0..5: if A[j] != 0: Y[S[0]] = j; S[0] += 1 -- the store moves with S[0]
    a = tir.decl_buffer((5,), "int64", name="A")
    y = tir.decl_buffer((5,), "int64", name="Y")
    s = tir.decl_buffer((1,), "int64", name="S")
    j, zero = tir.Var("j", "int64"), tir.const(0, "int64")
    inner = tir.IfThenElse(
        a[j] != zero,
        tir.SeqStmt([tir.BufferStore(y, j, [s[0]]), tir.BufferStore(s, s[0] + 1, [zero])]),
    )
    body = tir.For(j, 0, 5, tir.ForKind.SERIAL, inner)
    assert loop_accumulator(body) is None
    handles = [tir.Var(n, "handle") for n in "ays"]
    func = tir.PrimFunc(handles, body, buffer_map=dict(zip(handles, (a, y, s))))
    out, slot = np.full(5, -1, "int64"), np.zeros(1, "int64")
    tvm.compile(func)["main"](np.array([0, 4, 4, 0, 1], "int64"), out, slot)
    np.testing.assert_array_equal(out, [1, 2, 4, -1, -1])
