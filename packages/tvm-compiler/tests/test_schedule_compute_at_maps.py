# Tests of compute_at / reverse_compute_at for blocks whose accesses are not the identity on
# their spatial iterators (transposed, strided, offset): the moved loops, results against
# NumPy, and the ScheduleError for accesses that cannot be inverted.
import numpy as np
import pytest
import tvm
from tvm import te, tir
from tvm.error import ScheduleError


def _transpose_pair():
    """B (8, 16) = A.T * 2; C (16, 8) = B.T + 1: C reads B transposed."""
    a = te.placeholder((16, 8), name="A")
    b = te.compute((8, 16), lambda j, i: a[i, j] * 2.0, name="B")
    c = te.compute((16, 8), lambda i, j: b[j, i] + 1.0, name="C")
    return te.create_prim_func([a, c])


def _check_transpose(sch):
    x = np.random.default_rng(0).random((16, 8), dtype="float32")
    out = np.zeros((16, 8), "float32")
    tvm.compile(sch.mod)(x, out)
    np.testing.assert_allclose(out, x * 2 + 1, rtol=1e-6)


def test_compute_at_a_producer_storing_transposed():
    sch = tir.Schedule(_transpose_pair())
    producer = sch.get_block("B")
    # Its iterators become (i, j) while it still stores B[j, i].
    sch.transform_block_layout(producer, lambda j, i: (i, j))
    assert "B[v1, v0] = A[v0, v1] * T.float32(2.0)" in sch.mod.script()
    sch.compute_at(producer, sch.get_loops(sch.get_block("C"))[0])
    text = sch.mod.script()
    assert "v0 = T.axis.spatial(16, ax0 + i)" in text
    assert "v1 = T.axis.spatial(8, ax1)" in text
    assert "B[v1, v0] = A[v0, v1] * T.float32(2.0)" in text
    _check_transpose(sch)


def test_reverse_compute_at_a_consumer_reading_transposed():
    sch = tir.Schedule(_transpose_pair())
    sch.reverse_compute_at(sch.get_block("C"), sch.get_loops(sch.get_block("B"))[0])
    text = sch.mod.script()
    assert "v_i_1 = T.axis.spatial(16, ax0)" in text
    assert "v_j_1 = T.axis.spatial(8, ax1 + j)" in text
    _check_transpose(sch)


def _strided(tile):
    """Y = X * 2 (34); Z[i] = Y[2 * i + 1] + 1 (16); Y's loop split by tile."""
    x = te.placeholder((34,), name="X")
    y = te.compute((34,), lambda i: x[i] * 2.0, name="Y")
    z = te.compute((16,), lambda i: y[i * 2 + 1] + 1.0, name="Z")
    sch = tir.Schedule(te.create_prim_func([x, z]))
    outer, _ = sch.split(sch.get_loops(sch.get_block("Y"))[0], [None, tile])
    return sch, outer


def _check_strided(sch):
    xv = np.random.default_rng(1).random(34, dtype="float32")
    out = np.zeros(16, "float32")
    tvm.compile(sch.mod)(xv, out)
    np.testing.assert_allclose(out, xv[1::2][:16] * 2 + 1, rtol=1e-6)


@pytest.mark.parametrize("tile", [4, 3, 17])
def test_reverse_compute_at_a_consumer_reading_with_a_stride(tile):
    sch, outer = _strided(tile)
    sch.reverse_compute_at(sch.get_block("Z"), outer)
    realize_text = sch.mod.script()
    assert f"for ax0 in range({-(-tile // 2)}):" in realize_text
    _check_strided(sch)


def test_compute_at_under_a_consumer_reading_with_a_stride():
    sch, _ = _strided(2)
    sch.compute_at(sch.get_block("Y"), sch.get_loops(sch.get_block("Z"))[0])
    assert "v_i = T.axis.spatial(34, i * 2 + ax0 + 1)" in sch.mod.script()
    _check_strided(sch)


def test_moving_a_block_with_a_non_affine_or_repeated_access_is_refused():
    x = te.placeholder((16,), name="X")
    y = te.compute((16,), lambda i: x[i] * 2.0, name="Y")
    z = te.compute((8,), lambda i: y[i // 2] + 1.0, name="Z")
    sch = tir.Schedule(te.create_prim_func([x, z]))
    with pytest.raises(ScheduleError, match="reverse_compute_at: block 'Z' must access 'Y' at an"):
        sch.reverse_compute_at(sch.get_block("Z"), sch.get_loops(sch.get_block("Y"))[0])
    w = te.compute((15,), lambda i: y[i] + y[i + 1], name="W")
    sch = tir.Schedule(te.create_prim_func([x, w]))
    with pytest.raises(ScheduleError, match="accesses 'Y' at more than one place"):
        sch.reverse_compute_at(sch.get_block("W"), sch.get_loops(sch.get_block("Y"))[0])
