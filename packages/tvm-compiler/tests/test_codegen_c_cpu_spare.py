# tir.stmt.SPARE_THREADS / CPU_SPARE: how many threads the C backend's parallel loops run on.
import os
import subprocess
import sys
import time

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
    assert (
        "#pragma omp parallel if((tvm_cpu_spare() != 0)) num_threads(tvm_spare_threads())" in source
    )
    assert source.count("static int32_t tvm_cpu_spare(void) {") == 1
    assert "extern int32_t tvm_cpu_spare" not in source
    out = np.zeros((64, 8), "float32")
    tvm.compile(func)["main"](out)
    np.testing.assert_array_equal(out, np.arange(512, dtype="float32").reshape(64, 8))


def test_a_module_without_parallel_loops_has_no_helper():
    a = tir.decl_buffer((8,), "float32", name="A")
    pa, i = tir.Var("a", "handle"), tir.Var("i", "int32")
    fill = tir.For(i, 0, 8, tir.ForKind.SERIAL, tir.BufferStore(a, tir.Cast("float32", i), [i]))
    source = generate_c_source(lower(tir.PrimFunc([pa], fill, buffer_map={pa: a}))).text
    assert "tvm_spare_threads" not in source and "tvm_cpu_spare" not in source


def test_every_top_level_parallel_loop_asks_how_many_threads_to_run_on():
    source = generate_c_source(lower(_parallel_fill())).text
    assert "#pragma omp parallel num_threads(tvm_spare_threads())" in source
    # every thread of the team joins the set whose CPU time is the module's own
    lines = [line.strip() for line in source.splitlines()]
    first = lines.index("tvm_team_thread();")
    assert lines[first - 2 : first + 2] == [
        "#pragma omp parallel num_threads(tvm_spare_threads())",
        "{",
        "tvm_team_thread();",
        "#pragma omp for schedule(static) nowait",
    ]
    assert source.count("static int32_t tvm_spare_threads(void) {") == 1


# A module with a parallel loop (so it is built with OpenMP) that returns the spare-thread count.
_REPORTER = """
import sys, time
import numpy as np, tvm
from tvm import tir
from tvm.tir.op import call_extern
a = tir.decl_buffer((64,), "float32", name="A")
pa, i = tir.Var("a", "handle"), tir.Var("i", "int32")
fill = tir.For(i, 0, 64, tir.ForKind.PARALLEL, tir.BufferStore(a, tir.Cast("float32", i), [i]))
ask = tir.Evaluate(tir.ret(call_extern("int32", "tvm_spare_threads")))
func = tir.PrimFunc([pa], tir.SeqStmt([fill, ask]), buffer_map={pa: a}, ret_type="int32")
report = tvm.compile(func)["main"]
x = tvm.runtime.tensor(np.zeros(64, "float32"))
seen = []
if sys.argv[2:] == ["spin"]:  # a thread of this process that is not the team keeps a CPU busy
    import hashlib, threading
    block = bytes(1 << 24)
    def spin():
        while True:
            hashlib.sha256(block).digest()  # releases the GIL while it hashes
    threading.Thread(target=spin, daemon=True).start()
for call in range(int(sys.argv[1])):
    seen.append(report(x))
    time.sleep(0.06)
    if call == 0 and sys.argv[2:] == ["narrow"]:  # down to one CPU after the first call
        import os
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
print(" ".join(map(str, seen)))
"""


def _spare_threads_seen(calls, *extra, **env):
    full = {k: v for k, v in os.environ.items() if k not in ("OMP_DYNAMIC", "OMP_NUM_THREADS")}
    full.update(env)
    proc = subprocess.run(
        [sys.executable, "-c", _REPORTER, str(calls), *extra],
        env=full,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return [int(v) for v in proc.stdout.split()]


_ALLOWED = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
_LINUX = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the spare-thread count reads Linux's /proc/stat"
)


@_LINUX
def test_the_count_never_exceeds_the_cpus_this_process_may_use():
    seen = _spare_threads_seen(6, OMP_NUM_THREADS=str(_ALLOWED + 2))
    assert seen[0] == _ALLOWED  # before the first measurement: every allowed CPU
    assert all(1 <= v <= _ALLOWED for v in seen[2:]), seen


@_LINUX
def test_a_huge_omp_num_threads_runs_on_the_allowed_cpus_not_that_many_threads():
    # libgomp crashed starting 100000 threads for the first call
    seen = _spare_threads_seen(3, OMP_NUM_THREADS="100000")
    assert all(1 <= v <= _ALLOWED for v in seen), seen


@_LINUX
def test_narrowing_the_affinity_after_the_first_call_narrows_the_count():
    seen = _spare_threads_seen(9, "narrow")  # a measurement every 200 ms, a call every 60
    assert seen[-2:] == [1, 1], seen


def test_omp_dynamic_false_keeps_every_thread():
    seen = _spare_threads_seen(6, OMP_NUM_THREADS=str(_ALLOWED + 2), OMP_DYNAMIC="false")
    assert seen == [_ALLOWED + 2] * 6


@_LINUX
def test_cpus_other_processes_keep_busy_are_not_counted_as_spare():
    spinners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(_ALLOWED)
    ]
    try:
        time.sleep(0.3)  # the spinners run before the measurement starts
        seen = _spare_threads_seen(10)
    finally:
        for p in spinners:
            p.kill()
            p.wait()
    assert seen[-1] == 1, seen


@_LINUX
@pytest.mark.skipif(_ALLOWED < 2, reason="needs 2 CPUs this process may use")
def test_a_busy_thread_of_this_process_outside_the_team_is_not_counted_as_spare():
    # NumPy's BLAS workers busy-wait after each matmul: the process's CPU time is not all the
    # team's, and a thread that is not the team's takes a CPU like another process would.
    seen = _spare_threads_seen(10, "spin")
    assert seen[-1] <= _ALLOWED - 1, seen


@_LINUX
def test_under_omp_proc_bind_the_cpus_are_openmps_places_not_the_pinned_caller():
    # libgomp pins the calling thread to one place when it loads; its own affinity read as one
    seen = _spare_threads_seen(2, OMP_PROC_BIND="true")
    assert seen[0] == _ALLOWED, seen
