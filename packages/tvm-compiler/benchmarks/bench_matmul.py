"""float32 matmul 1024^3 with the tiled schedule, against NumPy in the same run."""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import tvm  # noqa: E402
from workloads import matmul_schedule, naive_matmul, side_by_side  # noqa: E402


def main():
    n = int(os.environ.get("BENCH_MATMUL_N", "1024"))
    flops = 2.0 * n**3
    rng = np.random.default_rng(0)
    a = rng.random((n, n), dtype="float32")
    b = rng.random((n, n), dtype="float32")
    c = np.zeros((n, n), dtype="float32")
    kernel = tvm.compile(matmul_schedule(n).mod, target="llvm -mcpu=native")["main"]
    kernel(a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-3)
    out = np.empty_like(c)
    ours, ref = side_by_side(lambda: kernel(a, b, c), lambda: np.matmul(a, b, out=out))
    print(f"matmul {n}x{n}x{n} float32 (split 32x32x4, reorder, vectorize, parallel, "
          "cache_write, decompose_reduction)")
    print(f"  tvm-compiler (C backend): {flops / ours / 1e9:8.1f} GFLOP/s  ({ours * 1e3:.1f} ms)")
    print(f"  numpy                   : {flops / ref / 1e9:8.1f} GFLOP/s  ({ref * 1e3:.1f} ms)")
    print(f"  ratio tvm/numpy         : {ref / ours:8.2f}  (goal >= 0.60)")
    small = 256
    naive = tvm.compile(naive_matmul(small))["main"]
    sa, sb = a[:small, :small].copy(), b[:small, :small].copy()
    sc = np.zeros((small, small), dtype="float32")
    naive_t, _ = side_by_side(lambda: naive(sa, sb, sc), lambda: None, rounds=1, repeat=3)
    print(f"  naive loops ({small}^3, no schedule): {2.0 * small**3 / naive_t / 1e9:8.1f} GFLOP/s")


if __name__ == "__main__":
    main()
