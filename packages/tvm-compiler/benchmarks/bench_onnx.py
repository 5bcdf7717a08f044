"""ONNX models (benchmarks/onnx_models.py) imported with from_onnx, compiled for the CPU and run
on the Relax VM: cold and cached compile time, and the time per call for each input shape
next to onnxruntime (from the reference venv, TVM_BENCH_REFERENCE_PYTHON); figures are printed,
never asserted (test_onnx_models.py checks the same models' outputs against onnxruntime)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import tvm  # noqa: E402
from mlp_workload import best_ms  # noqa: E402
from onnx_models import BENCH_MODELS, bench_input  # noqa: E402
from tvm import relax  # noqa: E402
from tvm.relax.frontend.onnx import from_onnx  # noqa: E402


def reference_times():
    """onnxruntime's figures from the reference venv, or None when it is not configured."""
    python = os.environ.get("TVM_BENCH_REFERENCE_PYTHON")
    if not python:
        return None
    script = os.path.join(os.path.dirname(__file__), "bench_onnx_reference.py")
    out = subprocess.run([python, script], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def compile_model(model):
    """(VM main, cold ms, cold CPU ms, cached ms): the cold build has a kernel cache of its own;
    its CPU time (this process and the C compiler it runs) is the figure a loaded machine
    inflates least."""
    os.environ["TVM_STACK_KERNEL_CACHE"] = tempfile.mkdtemp(prefix="bench-onnx-")
    start, cpu_start = time.perf_counter(), _cpu_seconds()
    mod = relax.transform.DecomposeOpsForInference()(from_onnx(model))
    ex = tvm.compile(mod, target="llvm")
    cold = (time.perf_counter() - start) * 1e3
    cold_cpu = (_cpu_seconds() - cpu_start) * 1e3
    start = time.perf_counter()
    tvm.compile(mod, target="llvm")
    cached = (time.perf_counter() - start) * 1e3
    return relax.VirtualMachine(ex, tvm.cpu())["main"], cold, cold_cpu, cached


def _cpu_seconds():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main():
    reference = reference_times()
    print("ONNX models on the Relax VM (ms per call, best of 30)")
    for name, build, kwargs, shapes in BENCH_MODELS:
        model = build(**kwargs)
        run, cold, cold_cpu, cached = compile_model(model)
        print(f"{name}: compile cold {cold:.0f} ms ({cold_cpu:.0f} ms CPU), cached {cached:.1f} ms")
        for shape in shapes:
            x = tvm.runtime.tensor(bench_input(shape))
            ours = best_ms(lambda x=x, run=run: run(x))
            line = f"  input {shape}: ours {ours:.3f} ms"
            if reference is not None:
                theirs = reference[name][str(shape)]
                line += f", onnxruntime {theirs:.3f} ms, ours/onnxruntime {ours / theirs:.2f}"
            print(line)
        if reference is None:
            print("  (TVM_BENCH_REFERENCE_PYTHON unset: no onnxruntime figures)")


if __name__ == "__main__":
    main()
