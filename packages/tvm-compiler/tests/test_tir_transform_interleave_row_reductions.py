# Tests of InterleaveRowReductions: which row reductions it interleaves, tails, identical bits.
import numpy as np
import pytest
import tvm
from tvm import te, tir
from tvm.driver import lower
from tvm.script import tir as T
from tvm.tir.transform import InterleaveRowReductions

PASS = "tir.InterleaveRowReductions"


def _row_reduction(rows, cols, combine, init, name="R", parallel=True):
    a = te.placeholder((rows, cols), name="A")
    j = te.reduce_axis((0, cols), name="j")
    if combine == "max":
        r = te.compute((rows,), lambda i: te.max(a[i, j], axis=j), name=name)
    else:
        # a plain sum: with a product, the C compiler may fuse multiply and add either way
        r = te.compute((rows,), lambda i: te.sum(a[i, j], axis=j), name=name)
    sch = tir.Schedule(te.create_prim_func([a, r]))
    if parallel:
        sch.parallel(sch.get_loops(sch.get_block(name))[0])
    return sch.mod


def _run(mod, args, disabled=()):
    out = [np.array(x) for x in args]
    with tvm.transform.PassContext(disabled_pass=list(disabled)):
        tvm.compile(mod, target="llvm")["main"](*out)
    return out


def _interleaved_loops(mod):
    """The `*_outer` loops the pass made in the lowered module, as (name, extent) pairs."""
    found = []

    def visit(node):
        if isinstance(node, tir.For) and node.loop_var.name.endswith("_outer"):
            found.append((node.loop_var.name, node.extent))

    tir.stmt_functor.post_order_visit(lower(mod)["main"].body, visit)
    return found


@pytest.mark.parametrize("combine", ["sum", "max"])
@pytest.mark.parametrize("rows", [8, 13, 64, 1])
def test_row_reductions_give_the_same_bits_as_without_the_pass(combine, rows):
    mod = _row_reduction(rows, 300, combine, None)
    rng = np.random.default_rng(rows)
    a = rng.standard_normal((rows, 300)).astype("float32")
    got = _run(mod, [a, np.zeros(rows, "float32")])[1]
    plain = _run(mod, [a, np.zeros(rows, "float32")], disabled=[PASS])[1]
    # Each row adds its terms in the same order, so nothing may differ in the last bit.
    np.testing.assert_array_equal(got, plain)
    expected = a.max(axis=1) if combine == "max" else a.sum(axis=1)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


def test_rows_are_interleaved_by_eight_with_a_tail_loop():
    interleaved = _interleaved_loops(_row_reduction(13, 300, "sum", None))
    assert [(n, int(e)) for n, e in interleaved] == [("i_outer", 1)]
    script = lower(_row_reduction(13, 300, "sum", None)).script()
    assert "R_rows = T.decl_buffer((8,))" in script
    # The 13 - 8 = 5 last rows keep the original loop body, from row 8.
    assert "for i, j_1 in T.grid(5, 300):" in script and "R_1[i + 8] = R_1[i + 8] + A_1[" in script


def test_fewer_rows_than_eight_or_short_rows_are_left_alone():
    assert _interleaved_loops(_row_reduction(4, 300, "sum", None)) == []
    assert _interleaved_loops(_row_reduction(64, 8, "sum", None)) == []


@T.prim_func
def _symbolic_row_sum(a: T.handle, r: T.handle):
    n = T.int64()
    m = T.int64()
    A = T.match_buffer(a, (n, m), "float32")
    R = T.match_buffer(r, (n,), "float32")
    for i in T.parallel(n):
        for j in range(m):
            with T.block("R"):
                vi, vj = T.axis.remap("SR", [i, j])
                with T.init():
                    R[vi] = T.float32(0)
                R[vi] = R[vi] + A[vi, vj]


@pytest.mark.parametrize("columns", [33, 0])
@pytest.mark.parametrize("rows", [0, 1, 7, 8, 9, 67])
def test_symbolic_row_counts_run_every_row_once(rows, columns):
    mod = tvm.IRModule({"main": _symbolic_row_sum.with_attr("global_symbol", "main")})
    assert [n for n, _ in _interleaved_loops(mod)] == ["i_outer"]
    rng = np.random.default_rng(rows)
    a = rng.standard_normal((rows, columns)).astype("float32")  # 0 columns: every sum is 0
    got = _run(mod, [a, np.full(rows, 5.0, "float32")])[1]
    plain = _run(mod, [a, np.full(rows, 5.0, "float32")], disabled=[PASS])[1]
    np.testing.assert_array_equal(got, plain)
    np.testing.assert_allclose(got, a.sum(axis=1), rtol=1e-5, atol=1e-5)


@T.prim_func
def _same_element_for_every_row(A: T.Buffer((16, 32), "float32"), R: T.Buffer((1,), "float32")):
    for i in range(16):
        for j in range(32):
            R[0] = R[0] + A[i, j]


@T.prim_func
def _reads_another_row(A: T.Buffer((16, 32), "float32"), R: T.Buffer((17,), "float32")):
    for i in range(16):
        for j in range(32):
            R[i] = R[i] + A[i, j] + R[i + 1]


@T.prim_func
def _writes_two_buffers(
    A: T.Buffer((16, 32), "float32"), R: T.Buffer((16,), "float32"), S: T.Buffer((16,), "float32")
):
    for i in range(16):
        for j in range(32):
            R[i] = R[i] + A[i, j]
            S[i] = S[i] + A[i, j]


@T.prim_func
def _reads_through_another_view(A: T.Buffer((16, 32), "float32"), R: T.Buffer((16,), "float32")):
    # R_view[i] is R[2 * i]: the same indices, another element (another row's accumulator).
    R_view = T.decl_buffer((8,), "float32", data=R.data, strides=[2])
    for i in range(16):
        for j in range(32):
            R[i] = R[i] + A[i, j] + R_view[i]


@T.prim_func
def _calls_an_extern(A: T.Buffer((16, 32), "float32"), R: T.Buffer((16,), "float32")):
    for i in range(16):
        for j in range(32):
            R[i] = R[i] + T.call_extern("float32", "side_effect", A[i, j])


@T.prim_func
def _narrow_accumulator(A: T.Buffer((16, 32), "float16"), R: T.Buffer((16,), "float16")):
    for i in range(16):
        for j in range(32):
            R[i] = R[i] + A[i, j]


@pytest.mark.parametrize(
    "func",
    [
        _same_element_for_every_row,  # rows share one element: their order matters
        _reads_another_row,  # a row reads its neighbour's accumulator
        _writes_two_buffers,
        _reads_through_another_view,  # the same memory under another shape
        _calls_an_extern,  # an opaque call may have effects whose order matters
        _narrow_accumulator,  # float16 rounds on every store
    ],
)
def test_reductions_whose_rows_are_not_independent_are_left_alone(func):
    mod = tvm.IRModule({"main": func})
    # Copy-on-write: a pass that changes nothing returns the very same module.
    assert InterleaveRowReductions()(mod) is mod


def test_softmax_rows_match_numpy():
    m, n = 24, 100
    a = te.placeholder((m, n), name="A")
    j = te.reduce_axis((0, n), name="j")
    mx = te.compute((m,), lambda i: te.max(a[i, j], axis=j), name="mx")
    e = te.compute((m, n), lambda i, k: te.exp(a[i, k] - mx[i]), name="e")
    j2 = te.reduce_axis((0, n), name="j2")
    s = te.compute((m,), lambda i: te.sum(e[i, j2], axis=j2), name="s")
    out = te.compute((m, n), lambda i, k: e[i, k] / s[i], name="out")
    mod = tvm.IRModule({"main": te.create_prim_func([a, out])})
    assert len(_interleaved_loops(mod)) == 2
    x = np.random.default_rng(0).standard_normal((m, n)).astype("float32")
    got = _run(mod, [x, np.zeros((m, n), "float32")])[1]
    z = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(got, z / z.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-6)
