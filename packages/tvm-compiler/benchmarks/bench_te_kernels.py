"""The five te kernels of the user programs (vector add, matmul 512 and 1024, conv2d, softmax),
tvm-compiler against apache-tvm 0.27 with the same schedule and thread count, side by side."""

from __future__ import annotations

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import tvm  # noqa: E402
from te_kernels import KERNELS, measure  # noqa: E402

GOAL = 0.8  # ours / apache-tvm time, the goal for each kernel


def _threads() -> str:
    return os.environ.get("BENCH_THREADS", str(min(2, os.cpu_count() or 1)))


def _reference(env) -> dict | str:
    """apache-tvm's best seconds per kernel, from the reference venv `nox -s bench` names in
    TVM_BENCH_REFERENCE_PYTHON; a string saying why when it cannot run."""
    python = os.environ.get("TVM_BENCH_REFERENCE_PYTHON")
    if not python:
        return "not measured (TVM_BENCH_REFERENCE_PYTHON unset)"
    script = os.path.join(os.path.dirname(__file__), "bench_te_kernels_reference.py")
    # The reference venv imports its own tvm: a PYTHONPATH naming our sources would shadow it.
    env = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    proc = subprocess.run([python, script], capture_output=True, text=True, timeout=1200, env=env)
    if proc.returncode != 0:
        return f"failed: {proc.stderr.strip().splitlines()[-1:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _compile_ours(mod):
    return tvm.compile(mod, target="llvm -mcpu=native")["main"]


def main():
    threads = _threads()
    # Both runtimes get the same count: ours runs OpenMP, apache-tvm its own pool.
    env = dict(os.environ, OMP_NUM_THREADS=threads, TVM_NUM_THREADS=threads)
    if os.environ.get("OMP_NUM_THREADS") != threads:
        # OpenMP reads its thread count once, at start: measure ours in a child set up so.
        os.execve(sys.executable, [sys.executable, __file__], env)
    rounds = int(os.environ.get("BENCH_ROUNDS", "3"))
    ours, reference = {}, {}
    # Alternating rounds, the best of each kept, so that load from other processes on a
    # shared machine hits both sides alike.
    for _ in range(rounds):
        for name, seconds in measure(_compile_ours, tvm.runtime.tensor).items():
            ours[name] = min(seconds, ours.get(name, float("inf")))
        got = _reference(env)
        if isinstance(got, str):
            reference = got
            break
        for name, seconds in got.items():
            reference[name] = min(seconds, reference.get(name, float("inf")))
    print(
        f"te kernels, {threads} threads each, best of {rounds} alternating rounds: "
        "ours (C backend) vs apache-tvm 0.27 (LLVM)"
    )
    if isinstance(reference, str):
        for name in KERNELS:
            print(f"  {name:26s}: ours {ours[name] * 1e3:8.2f} ms; apache-tvm {reference}")
        return
    for name in KERNELS:
        ratio = ours[name] / reference[name]
        verdict = "ok" if ratio <= GOAL else f"above the goal {GOAL}"
        print(
            f"  {name:26s}: ours {ours[name] * 1e3:8.2f} ms  apache-tvm "
            f"{reference[name] * 1e3:8.2f} ms  ours/apache {ratio:5.2f}  ({verdict})"
        )


if __name__ == "__main__":
    main()
