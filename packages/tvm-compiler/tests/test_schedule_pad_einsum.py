# Tests of Schedule.pad_einsum: padded buffers and extents, the zero-padding and copy-back
# blocks, results against NumPy, the trace, and the ScheduleError cases.
import numpy as np
import pytest
import tvm
from tvm import te, tir
from tvm.error import ScheduleError


def _matmul():
    a = te.placeholder((127, 127), name="A")
    b = te.placeholder((127, 127), name="B")
    k = te.reduce_axis((0, 127), name="k")
    c = te.compute((127, 127), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    return te.create_prim_func([a, b, c])


def test_pad_einsum_pads_a_matmul_to_multiples_of_32():
    sch = tir.Schedule(_matmul())
    sch.pad_einsum(sch.get_block("C"), [32, 32, 32])
    text = sch.mod.script()
    for name in ("A_pad", "B_pad", "C_pad"):
        assert f"{name} = T.alloc_buffer((128, 128))" in text
    assert (
        "A_pad[v0, v1] = T.if_then_else(v0 < 127 and v1 < 127, A[v0, v1], T.float32(0.0))" in text
    )
    assert 'v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])' in text
    assert "C_pad[v_i, v_j] = C_pad[v_i, v_j] + A_pad[v_i, v_k] * B_pad[v_k, v_j]" in text
    assert sch.block_names() == ["A_pad", "B_pad", "C", "C_pad"]
    rng = np.random.default_rng(0)
    x, y = rng.random((127, 127), dtype="float32"), rng.random((127, 127), dtype="float32")
    out = np.zeros((127, 127), "float32")
    tvm.compile(sch.mod)(x, y, out)
    np.testing.assert_allclose(out, x @ y, rtol=1e-4)
    assert str(sch.trace).splitlines()[-1] == "sch.pad_einsum(block=b0, padding=[32, 32, 32])"


def test_pad_einsum_leaves_buffers_no_padded_iterator_indexes():
    a = te.placeholder((10, 8), name="A")
    b = te.compute((10, 8), lambda i, j: a[i, j] * 2.0, name="B")
    sch = tir.Schedule(te.create_prim_func([a, b]))
    sch.pad_einsum(sch.get_block("B"), [4, 8])
    assert "A_pad = T.alloc_buffer((12, 8))" in sch.mod.script()
    x = np.random.default_rng(1).random((10, 8), dtype="float32")
    out = np.zeros((10, 8), "float32")
    tvm.compile(sch.mod)(x, out)
    np.testing.assert_allclose(out, x * 2, rtol=1e-6)
    sch = tir.Schedule(te.create_prim_func([a, b]))
    sch.pad_einsum(sch.get_block("B"), [2, 4])  # already multiples: nothing to pad
    assert sch.block_names() == ["B"]


def test_pad_einsum_errors_name_what_is_wrong():
    for bad in ([32], [0, 32, 32], [32, 32, 32, 1]):
        sch = tir.Schedule(_matmul())
        with pytest.raises(ScheduleError, match="should be a list of 3 positive integers"):
            sch.pad_einsum(sch.get_block("C"), bad)
    a = te.placeholder((127, 127), name="A")
    g = te.compute((127,), lambda i: a[i, i // 2] * 2.0, name="G")
    sch = tir.Schedule(te.create_prim_func([a, g]))
    with pytest.raises(ScheduleError, match="block 'G' is not an einsum: it must access 'A'"):
        sch.pad_einsum(sch.get_block("G"), [32])
    sch = tir.Schedule(_matmul())
    sch.split(sch.get_loops(sch.get_block("C"))[0], [None, 4])
    with pytest.raises(ScheduleError, match="pad_einsum: the binding values of block 'C' are not"):
        sch.pad_einsum(sch.get_block("C"), [32, 32, 32])


def _symbolic_dense(m=10):
    n = tir.Var("n", "int64")
    x = te.placeholder((n, tir.const(64, "int64")), name="x")
    w = te.placeholder((tir.const(64, "int64"), tir.const(m, "int64")), name="w")
    r = te.reduce_axis((0, x.shape[1]), "r")
    y = te.compute((n, w.shape[1]), lambda i, j: te.sum(x[i, r] * w[r, j], axis=r), name="y")
    return te.create_prim_func([x, w, y])


@pytest.mark.parametrize("batch", [1, 7])
def test_pad_einsum_keeps_a_symbolic_batch_it_does_not_pad(batch):
    sch = tir.Schedule(_symbolic_dense())
    sch.pad_einsum(sch.get_block("y"), [1, 16, 1])
    text = sch.mod.script()
    assert "w_pad = T.alloc_buffer((64, 16))" in text
    assert "y_pad = T.alloc_buffer((n, 16))" in text
    assert "x_pad" not in text
    rng = np.random.default_rng(2)
    x = rng.standard_normal((batch, 64)).astype("float32")
    w = rng.standard_normal((64, 10)).astype("float32")
    out = np.zeros((batch, 10), "float32")
    tvm.compile(sch.mod)(x, w, out)
    np.testing.assert_allclose(out, x @ w, rtol=1e-4, atol=1e-5)


def test_pad_einsum_cannot_pad_a_symbolic_extent():
    sch = tir.Schedule(_symbolic_dense())
    with pytest.raises(ScheduleError, match="must have constant extents"):
        sch.pad_einsum(sch.get_block("y"), [8, 16, 1])
