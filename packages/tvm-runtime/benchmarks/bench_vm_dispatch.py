"""VM dispatch overhead: 100 chained calls of a 1-element add kernel, microseconds per call.

Run by `nox -s bench`; figures are printed, never asserted. With TVM_BENCH_REFERENCE_PYTHON
set (nox does it from requirements-reference.txt) the same program runs on apache-tvm's VM in
that interpreter and is printed side by side.
"""

import json
import os
import subprocess
import sys

import numpy as np
import tvm
from tvm import relax, te
from tvm.relax.vm_link import vm_link
from vm_dispatch_program import CALLS, add_module, build, us_per_call  # this folder is sys.path[0]

HERE = os.path.dirname(os.path.abspath(__file__))


def reference() -> str:
    python = os.environ.get("TVM_BENCH_REFERENCE_PYTHON")
    if not python:
        return "not measured (TVM_BENCH_REFERENCE_PYTHON unset)"
    out = subprocess.run(
        [python, os.path.join(HERE, "bench_vm_dispatch_reference.py")],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=HERE,
        # The reference venv has its own tvm: none of ours may shadow it.
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    if out.returncode != 0:
        return "failed: " + (out.stderr.strip().splitlines() or ["?"])[-1]
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    mod = add_module(tvm, te)
    ib = relax.ExecBuilder()
    build(ib)
    x = tvm.runtime.tensor(np.ones(1, "float32"))
    a, b = tvm.runtime.empty((1,), "float32"), tvm.runtime.empty((1,), "float32")
    figures = {}
    for mode in ("bytecode", "compiled"):
        ex = vm_link(ib, "llvm", tir_mod=mod, exec_mode=mode)
        vm = relax.VirtualMachine(ex, tvm.cpu())
        out = vm["main"](x, a, b)
        assert out.numpy()[0] == CALLS + 1, out.numpy()
        figures[mode] = us_per_call(vm["main"], (x, a, b))
    ours = figures["bytecode"]
    kernel = ex.lib["add"]
    floor = us_per_call(lambda: [kernel(a, x, b) for _ in range(CALLS)], ())
    ref = reference()
    print(f"VM dispatch, {CALLS} chained calls of a 1-element add (us per call, best / median):")
    print(f"  tvm-stack VM (bytecode)      : {ours[0]:6.3f} / {ours[1]:6.3f}  (goal <= 1)")
    compiled = figures["compiled"]
    print(
        f"  tvm-stack VM (compiled)      : {compiled[0]:6.3f} / {compiled[1]:6.3f}  (goal <= 0.3)"
    )
    print(f"  the kernel called from Python: {floor[0]:6.3f} / {floor[1]:6.3f}  (the FFI floor)")
    if isinstance(ref, dict):
        print(f"  apache-tvm 0.27 VM (bytecode): {ref['best']:6.3f} / {ref['median']:6.3f}")
        print(
            f"  ratio ours / apache-tvm      : {ours[0] / ref['best']:6.2f} (bytecode), "
            f"{compiled[0] / ref['best']:6.2f} (compiled)"
        )
    else:
        print(f"  apache-tvm 0.27 VM (bytecode): {ref}")


if __name__ == "__main__":
    sys.exit(main())
