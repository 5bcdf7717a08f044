"""example.gemm throughput (GFLOP/s) beside NumPy's matmul on the same float32 matrices."""

from __future__ import annotations

import time

import numpy as np
import tvm  # noqa: F401  (autoloads the example backend)
import tvm_ffi


def best_seconds(fn, repeat=5):
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    gemm = tvm_ffi.get_global_func("example.gemm")
    rng = np.random.default_rng(0)
    print(f"{'size':>6} {'example.gemm GFLOP/s':>22} {'numpy GFLOP/s':>15}")
    for n in (128, 256, 512):
        a = rng.standard_normal((n, n)).astype("float32")
        b = rng.standard_normal((n, n)).astype("float32")
        c = np.empty((n, n), "float32")
        flops = 2 * n**3
        ours = best_seconds(lambda a=a, b=b, c=c: gemm(a, b, c))
        ref = best_seconds(lambda a=a, b=b: np.matmul(a, b))
        print(f"{n:>6} {flops / ours / 1e9:>22.2f} {flops / ref / 1e9:>15.2f}")


if __name__ == "__main__":
    main()
