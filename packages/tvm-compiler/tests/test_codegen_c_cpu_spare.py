# tir.stmt.CPU_SPARE: the C backend's run-time check a parallel loop's PARALLEL_IF may call.
import os

import numpy as np
import pytest
import tvm
from tvm import tir
from tvm.codegen.c import generate_c_source
from tvm.driver import lower
from tvm.tir.op import call_extern
from tvm.tir.stmt import CPU_SPARE, PARALLEL_IF


def _spare():
    return tir.NE(call_extern("int32", CPU_SPARE), tir.const(0, "int32"))


def _parallel_fill(condition=None):
    a = tir.decl_buffer((64, 8), "float32", name="A")
    pa = tir.Var("a", "handle")
    i, j = tir.Var("i", "int32"), tir.Var("j", "int32")
    store = tir.BufferStore(a, tir.Cast("float32", i * 8 + j), [i, j])
    annotations = None if condition is None else {PARALLEL_IF: condition}
    body = tir.For(
        i, 0, 64, tir.ForKind.PARALLEL, tir.For(j, 0, 8, tir.ForKind.SERIAL, store), annotations
    )
    return tir.PrimFunc([pa], body, buffer_map={pa: a})


def test_a_parallel_loop_asks_for_a_spare_cpu_and_computes_the_same_either_way():
    func = _parallel_fill(_spare())
    source = generate_c_source(lower(func)).text
    assert "#pragma omp parallel for schedule(static) if((tvm_cpu_spare() != 0))" in source
    assert source.count("static int32_t tvm_cpu_spare(void) {") == 1
    assert "extern int32_t tvm_cpu_spare" not in source
    out = np.zeros((64, 8), "float32")
    tvm.compile(func)["main"](out)
    np.testing.assert_array_equal(out, np.arange(512, dtype="float32").reshape(64, 8))


def test_a_module_that_never_asks_has_no_helper():
    assert "tvm_cpu_spare" not in generate_c_source(lower(_parallel_fill())).text


@pytest.mark.skipif(not hasattr(os, "getloadavg"), reason="this OS has no load average")
def test_a_cpu_is_spare_while_the_load_average_is_below_the_cpu_count():
    func = tir.PrimFunc(
        [], tir.Evaluate(tir.ret(call_extern("int32", CPU_SPARE))), ret_type="int32"
    )
    spare = tvm.compile(func)["main"]()
    assert spare in (0, 1)
    load, cpus = os.getloadavg()[0], os.sysconf("SC_NPROCESSORS_ONLN")
    if abs(load - cpus) > 0.5:  # near the threshold the two reads may fall either side
        assert spare == int(load < cpus)
