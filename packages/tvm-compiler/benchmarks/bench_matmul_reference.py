"""bench_matmul.py's matmul built by apache-tvm (LLVM); runs in its own venv, prints JSON."""

import json
import os
import time

import numpy as np
import tvm
from tvm import s_tir, te
from tvm.target import codegen


def scheduled_matmul(n: int):
    """The same schedule as workloads.matmul_schedule, in apache-tvm 0.27's names."""
    a = te.placeholder((n, n), name="A")
    b = te.placeholder((n, n), name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute((n, n), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    sch = s_tir.Schedule(te.create_prim_func([a, b, c]))
    block = sch.get_sblock("C")
    write_back = sch.cache_write(block, 0, "global")
    i, j, kk = sch.get_loops(block)
    io, ii = sch.split(i, [None, 32])
    jo, ji = sch.split(j, [None, 32])
    ko, ki = sch.split(kk, [None, 4])
    sch.reorder(io, jo, ko, ki, ii, ji)
    sch.vectorize(ji)
    sch.parallel(io)
    sch.reverse_compute_at(write_back, jo)
    sch.decompose_reduction(block, ko)
    return sch.mod


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
