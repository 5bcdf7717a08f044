# Tests of Schedule.rfactor: the partial-result block, the write-back block, results and errors.
import numpy as np
import pytest
import tvm
import tvm.s_tir
from tvm import te, tir
from tvm.error import ScheduleError


def _row_reduce(kind="sum", consumer=False):
    a = te.placeholder((4, 16), name="A")
    k = te.reduce_axis((0, 16), name="k")
    reducer = te.sum if kind == "sum" else te.max
    s = te.compute((4,), lambda i: reducer(a[i, k], axis=k), name="S")
    if not consumer:
        return te.create_prim_func([a, s])
    t = te.compute((4,), lambda i: s[i] * 2.0, name="T")
    return te.create_prim_func([a, t])


def _run(mod):
    x = np.random.default_rng(0).random((4, 16), dtype="float32")
    y = np.zeros(4, "float32")
    tvm.compile(mod)(x, y)
    return x, y


def test_rfactor_of_an_inner_split_loop_builds_both_blocks():
    sch = tir.Schedule(_row_reduce())
    _, k = sch.get_loops(sch.get_block("S"))
    _, ki = sch.split(k, [4, 4])
    rf = sch.rfactor(ki, 0)
    assert rf.name == "S_rf" and sch.block_names() == ["S_rf", "S"]
    text = sch.mod.script()
    assert "S_rf = T.alloc_buffer((4, 4))" in text
    # The factored loop is a spatial iterator of S_rf, the other reduction loop stays reduce.
    assert 'vk_1, v_i, vk_0 = T.axis.remap("SSR", [k_1, i, k_0])' in text
    assert "S_rf[vk_1, v_i] = S_rf[vk_1, v_i] + A[v_i, vk_0 * 4 + vk_1]" in text
    # The write-back block reduces over the factored loop only.
    assert 'vk_1_1, v_i_1 = T.axis.remap("RS", [k_1_1, i_1])' in text
    assert "S[v_i_1] = S[v_i_1] + S_rf[vk_1_1, v_i_1]" in text
    assert str(sch.trace).splitlines()[-1] == "b5 = sch.rfactor(loop=l4, factor_axis=0)"
    x, y = _run(sch.mod)
    np.testing.assert_allclose(y, x.sum(axis=1), rtol=1e-5)


def test_rfactor_of_the_whole_reduction_loop_drops_the_partial_init():
    sch = tvm.s_tir.Schedule(_row_reduce(consumer=True))
    i, k = sch.get_loops(sch.get_sblock("S"))
    sch.reorder(k, i)
    sch.rfactor(k, -1)  # -1: the new axis goes last
    text = sch.mod.script()
    assert "S_rf = T.alloc_buffer((4, 16))" in text
    assert "S_rf[v_i, vk] = A[v_i, vk]" in text
    assert sch.get(sch.get_block("S_rf")).init is None
    assert sch.block_names() == ["S_rf", "S", "T"]
    x = np.random.default_rng(0).random((4, 16), dtype="float32")
    y = np.zeros(4, "float32")
    tvm.compile(sch.mod)(x, y)
    np.testing.assert_allclose(y, x.sum(axis=1) * 2, rtol=1e-5)


def test_rfactor_keeps_the_reducer():
    sch = tir.Schedule(_row_reduce("max"))
    _, k = sch.get_loops(sch.get_block("S"))
    _, ki = sch.split(k, [None, 8])
    sch.rfactor(ki, 1)
    assert "T.max(S_rf[v_i, vk_1]" in sch.mod.script()
    x, y = _run(sch.mod)
    np.testing.assert_allclose(y, x.max(axis=1))


def test_rfactor_errors():
    sch = tir.Schedule(_row_reduce(consumer=True))
    i, k = sch.get_loops(sch.get_block("S"))
    with pytest.raises(ScheduleError, match="rfactor: loop 'i' is bound to a spatial iterator"):
        sch.rfactor(i, 0)
    with pytest.raises(ScheduleError, match=r"factor_axis must be in \[-2, 1\]; got 3"):
        sch.rfactor(k, 3)
    with pytest.raises(ScheduleError, match=r"got -3"):
        sch.rfactor(k, -3)
    with pytest.raises(TypeError, match="rfactor: argument 'factor_axis' must be an int"):
        sch.rfactor(k, 1.5)
    (t_loop,) = sch.get_loops(sch.get_block("T"))
    with pytest.raises(ScheduleError, match="block 'T' is not a reduction block"):
        sch.rfactor(t_loop, 0)
    # A failed rfactor leaves the schedule as it was.
    assert sch.block_names() == ["S", "T"]
