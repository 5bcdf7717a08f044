"""float32 matmul 1024^3 with the tiled schedule, against NumPy in the same run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import tvm  # noqa: E402
from workloads import best_time, matmul_schedule, naive_matmul, side_by_side  # noqa: E402


def _cpu_seconds(fn, repeat: int = 5) -> float:
    """Best CPU time of the calling thread: unlike wall time, untouched by other processes."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.thread_time()
        fn()
        best = min(best, time.thread_time() - start)
    return best


def _operands(n: int):
    """A and B (the same random values in every run) and a zeroed C."""
    rng = np.random.default_rng(0)
    a, b = rng.random((n, n), dtype="float32"), rng.random((n, n), dtype="float32")
    return a, b, np.zeros((n, n), dtype="float32")


def _kernel(n: int):
    return tvm.compile(matmul_schedule(n).mod, target="llvm -mcpu=native")["main"]


def single_thread(n: int):
    a, b, c = _operands(n)
    out = np.empty_like(c)
    kernel = _kernel(n)
    ours = _cpu_seconds(lambda: kernel(a, b, c))
    ref = _cpu_seconds(lambda: np.matmul(a, b, out=out))
    flops = 2.0 * n**3
    print(
        f"  one thread, CPU time    : tvm {flops / ours / 1e9:.1f} GFLOP/s, numpy "
        f"{flops / ref / 1e9:.1f} GFLOP/s, ratio {ref / ours:.2f}"
    )


def alone(n: int, library: str):
    """GFLOP/s of one library with no other in the process (the thread count comes from the
    environment): pools that spin after a call cannot take the other's cores."""
    a, b, c = _operands(n)
    if library == "tvm":
        kernel = _kernel(n)
        seconds = best_time(lambda: kernel(a, b, c), repeat=15)
    else:
        seconds = best_time(lambda: np.matmul(a, b, out=c), repeat=15)
    print(2.0 * n**3 / seconds / 1e9)


def thread_scaling():
    """Each library alone in its own process at 1, 2, 4, ... threads up to the core count."""
    cores = os.cpu_count() or 1
    counts = sorted({*(1 << p for p in range(cores.bit_length()) if 1 << p <= cores), cores})
    print("  each alone in its own process (threads: tvm / numpy GFLOP/s):")
    for threads in counts:
        env = dict(
            os.environ,
            OMP_NUM_THREADS=str(threads),
            OPENBLAS_NUM_THREADS=str(threads),
            MKL_NUM_THREADS=str(threads),
        )
        figures = [
            float(
                subprocess.run(
                    [sys.executable, __file__, "--alone", library],
                    env=env,
                    check=True,
                    timeout=600,
                    capture_output=True,
                    text=True,
                ).stdout.split()[-1]
            )
            for library in ("tvm", "numpy")
        ]
        print(
            f"    {threads:3d}: {figures[0]:8.1f} / {figures[1]:8.1f}  ratio "
            f"{figures[0] / figures[1]:.2f}"
        )


def reference_gflops() -> str:
    """apache-tvm's figures for the same schedule, from bench_matmul_reference.py in the
    reference venv that `nox -s bench` names in TVM_BENCH_REFERENCE_PYTHON."""
    python = os.environ.get("TVM_BENCH_REFERENCE_PYTHON")
    if not python:
        return "not measured (TVM_BENCH_REFERENCE_PYTHON unset)"
    script = os.path.join(os.path.dirname(__file__), "bench_matmul_reference.py")
    proc = subprocess.run([python, script], capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        return f"failed: {proc.stderr.strip().splitlines()[-1:]}"
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    return ", ".join(f"{target} {value:.1f} GFLOP/s" for target, value in figures.items())


def main():
    n = int(os.environ.get("BENCH_MATMUL_N", "1024"))
    if "--single-thread" in sys.argv:
        single_thread(n)
        return
    if "--alone" in sys.argv:
        alone(n, sys.argv[sys.argv.index("--alone") + 1])
        return
    flops = 2.0 * n**3
    a, b, c = _operands(n)
    kernel = _kernel(n)
    kernel(a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-3)
    out = np.empty_like(c)
    ours, ref = side_by_side(lambda: kernel(a, b, c), lambda: np.matmul(a, b, out=out))
    print(
        f"matmul {n}x{n}x{n} float32 (split 32x32x4, reorder, vectorize, parallel, "
        "cache_write, decompose_reduction)"
    )
    print(f"  tvm-compiler (C backend): {flops / ours / 1e9:8.1f} GFLOP/s  ({ours * 1e3:.1f} ms)")
    print(f"  numpy                   : {flops / ref / 1e9:8.1f} GFLOP/s  ({ref * 1e3:.1f} ms)")
    print(f"  ratio tvm/numpy         : {ref / ours:8.2f}  (goal >= 0.60)")
    print(f"  apache-tvm 0.27, same schedule: {reference_gflops()}")
    small = 256
    naive = tvm.compile(naive_matmul(small))["main"]
    sa, sb = a[:small, :small].copy(), b[:small, :small].copy()
    sc = np.zeros((small, small), dtype="float32")
    naive_t, _ = side_by_side(lambda: naive(sa, sb, sc), lambda: None, rounds=1, repeat=3)
    print(f"  naive loops ({small}^3, no schedule): {2.0 * small**3 / naive_t / 1e9:8.1f} GFLOP/s")
    one_thread = dict(
        os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1"
    )
    subprocess.run(
        [sys.executable, __file__, "--single-thread"], env=one_thread, check=True, timeout=600
    )
    thread_scaling()


if __name__ == "__main__":
    main()
