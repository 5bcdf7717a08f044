# Tests of Schedule.work_on, get_block(func_name=...) on modules of several functions, and
# Schedule.bind to GPU thread axes (kept in the IR; a CPU build refuses it clearly).
import numpy as np
import pytest
import tvm
import tvm.s_tir
from tvm import te, tir
from tvm.error import ScheduleError
from tvm.ir.module import IRModule
from tvm.tir.stmt import ForKind


def _add_one():
    a = te.placeholder((4, 16), name="A")
    b = te.compute((4, 16), lambda i, j: a[i, j] + 1.0, name="B")
    return te.create_prim_func([a, b])


def _two_functions():
    return IRModule({"main": _add_one(), "other": _add_one()})


def test_work_on_and_get_block_with_func_name_schedule_the_chosen_function():
    sch = tir.Schedule(_two_functions())
    block = sch.get_block("B", func_name="other")
    i, _ = sch.get_loops(block)
    sch.split(i, [2, 2])
    assert "i_0" in sch.mod["other"].script() and "i_0" not in sch.mod["main"].script()
    sch.work_on("main")
    (_, j) = sch.get_loops(sch.get_block("B"))
    sch.split(j, [4, 4])
    # Both functions keep what was done to them.
    assert "j_0" in sch.mod["main"].script() and "i_0" in sch.mod["other"].script()
    assert str(sch.trace).splitlines()[0] == "b0 = sch.get_block(name='B', func_name='other')"
    for name in ("main", "other"):
        x = np.random.default_rng(0).random((4, 16), dtype="float32")
        y = np.zeros((4, 16), "float32")
        tvm.compile(IRModule({name: sch.mod[name]}))(x, y)
        np.testing.assert_allclose(y, x + 1)


def test_work_on_errors_list_the_candidates():
    sch = tir.Schedule(_two_functions())
    with pytest.raises(ValueError, match=r"work_on: no PrimFunc 'nope'; candidates are: \["):
        sch.work_on("nope")
    with pytest.raises(ValueError, match="candidates are"):
        sch.get_block("B", func_name="nope")


def test_bind_keeps_thread_axes_in_the_ir():
    sch = tvm.s_tir.Schedule(_add_one())
    i, j = sch.get_loops(sch.get_sblock("B"))
    sch.bind(i, "blockIdx.x")
    sch.bind(j, "threadIdx.x")
    text = sch.mod.script()
    assert 'for i in T.thread_binding(4, thread="blockIdx.x"):' in text
    assert 'for j in T.thread_binding(16, thread="threadIdx.x"):' in text
    loop = sch.get(i)
    assert loop.kind == ForKind.THREAD_BINDING and loop.thread_binding == "blockIdx.x"
    assert str(sch.trace).splitlines()[-1] == "sch.bind(loop=l2, thread_axis='threadIdx.x')"


def test_building_a_bound_loop_for_the_cpu_is_a_clear_error():
    sch = tir.Schedule(_add_one())
    i, _ = sch.get_loops(sch.get_block("B"))
    sch.bind(i, "threadIdx.x")
    with pytest.raises(Exception, match="bound to GPU thread axis 'threadIdx.x'") as info:
        tvm.compile(sch.mod, target="c")
    assert "the C target runs on the CPU" in str(info.value)


def test_bind_errors():
    sch = tir.Schedule(_add_one())
    i, j = sch.get_loops(sch.get_block("B"))
    with pytest.raises(ScheduleError, match="bind: thread_axis 'bogus.x' is not a thread axis"):
        sch.bind(i, "bogus.x")
    with pytest.raises(TypeError, match="bind: argument 'thread_axis' must be a str"):
        sch.bind(i, 3)
    sch.parallel(j)
    with pytest.raises(ScheduleError, match="bind: loop 'j' is already parallel"):
        sch.bind(j, "threadIdx.x")


def test_decompose_reduction_keeps_the_thread_axis_of_copied_loops():
    a = te.placeholder((4, 16), name="A")
    k = te.reduce_axis((0, 16), name="k")
    s = te.compute((4,), lambda i: te.sum(a[i, k], axis=k), name="S")
    sch = tir.Schedule(te.create_prim_func([a, s]))
    block = sch.get_block("S")
    i, k_loop = sch.get_loops(block)
    sch.reorder(k_loop, i)
    sch.bind(i, "threadIdx.x")
    sch.decompose_reduction(block, k_loop)
    text = sch.mod.script()
    assert 'for i_init in T.thread_binding(4, thread="threadIdx.x"):' in text
