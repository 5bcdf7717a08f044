"""bench_matmul.py's matmul built by apache-tvm (LLVM); runs in its own venv, prints JSON."""

import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import tvm  # noqa: E402
from te_kernels import matmul  # noqa: E402
from tvm.target import codegen  # noqa: E402


def scheduled_matmul(n: int):
    """The same schedule as workloads.matmul_schedule (te_kernels.matmul, which is written in
    the names apache-tvm 0.27 has)."""
    return matmul(n)[0]


def main():
    n = int(os.environ.get("BENCH_MATMUL_N", "1024"))
    mod = scheduled_matmul(n)
    rng = np.random.default_rng(0)
    arrays = [tvm.runtime.tensor(rng.random((n, n), dtype="float32")) for _ in range(2)]
    out = tvm.runtime.tensor(np.zeros((n, n), dtype="float32"))
    results = {}
    for cpu in ("generic", codegen.llvm_get_system_cpu()):
        target = {"kind": "llvm"} if cpu == "generic" else {"kind": "llvm", "mcpu": cpu}
        kernel = tvm.compile(mod, target=tvm.target.Target(target))["main"]
        kernel(*arrays, out)
        best = float("inf")
        for _ in range(10):
            start = time.perf_counter()
            kernel(*arrays, out)
            best = min(best, time.perf_counter() - start)
        results[f"llvm -mcpu={cpu}"] = 2.0 * n**3 / best / 1e9
    print(json.dumps(results))


if __name__ == "__main__":
    main()
