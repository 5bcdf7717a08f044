"""Elementwise add of 16M float32 (split, parallel, vectorize) against NumPy in the same run."""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import tvm  # noqa: E402
from workloads import side_by_side, vector_add_schedule  # noqa: E402


def main():
    n = int(os.environ.get("BENCH_ADD_N", str(16 * 1024 * 1024)))
    rng = np.random.default_rng(0)
    a = rng.random(n, dtype="float32")
    b = rng.random(n, dtype="float32")
    c = np.empty_like(a)
    kernel = tvm.compile(vector_add_schedule(n).mod)["main"]
    kernel(a, b, c)
    np.testing.assert_array_equal(c, a + b)
    out = np.empty_like(a)
    ours, ref = side_by_side(lambda: kernel(a, b, c), lambda: np.add(a, b, out=out), repeat=10)
    gbytes = 3 * 4 * n / 1e9
    print(f"elementwise add, {n} float32")
    print(f"  tvm-compiler: {ours * 1e3:7.2f} ms  ({gbytes / ours:6.1f} GB/s)")
    print(f"  numpy       : {ref * 1e3:7.2f} ms  ({gbytes / ref:6.1f} GB/s)")
    print(f"  ratio tvm/numpy (speed): {ref / ours:5.2f}  (goal >= 0.90)")


if __name__ == "__main__":
    main()
