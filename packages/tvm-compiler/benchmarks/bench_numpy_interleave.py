"""The batch-64 Relax MLP called alone and alternating with NumPy's MLP in one process: NumPy's
BLAS workers busy-wait after each matmul, and the kernels' parallel loops then run on the CPUs
those threads leave (docs/runtime.md, "Kernel threads"). Median of the last 1,000 of 2,000 calls."""

from __future__ import annotations

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import tvm  # noqa: E402
from bench_relax_mlp import mlp_module  # noqa: E402
from mlp_workload import batch_input, numpy_mlp, weights  # noqa: E402
from tvm import relax  # noqa: E402

CALLS = 2000


def median_ms(fn, between=None) -> float:
    times = []
    for _ in range(CALLS):
        if between is not None:
            between()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times[CALLS // 2 :]) * 1e3


def main():
    ws = weights()
    x = batch_input(64)
    ex = tvm.compile(mlp_module(ops=True), target="llvm -mcpu=native")
    mlp = relax.VirtualMachine(ex, tvm.cpu())["main"]
    args = [tvm.runtime.tensor(a) for pair in ws for a in pair]
    xt = tvm.runtime.tensor(x)
    alone = median_ms(lambda: mlp(xt, *args))
    mixed = median_ms(lambda: mlp(xt, *args), between=lambda: numpy_mlp(x, ws))
    print("MLP 784-512-512-10 batch 64, VM bytecode (median ms per call)")
    print(f"  alone: {alone:.3f} ms; each call after a NumPy MLP: {mixed:.3f} ms")


if __name__ == "__main__":
    sys.exit(main())
