"""A NumPy matmul interleaved with one of our parallel kernels, under each OpenMP wait policy.

Spinning OpenMP workers take the cores NumPy's BLAS threads need; the figure is the time of
one (our kernel, NumPy matmul) pair against the sum of the two run apart (1.0 = no
interference). Each policy runs in its own process, since libgomp reads it once at load.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
POLICIES = {
    "tvm default (short spin)": {},
    "libgomp default (long spin)": {"GOMP_SPINCOUNT": "300000"},
    "OMP_WAIT_POLICY=passive": {"OMP_WAIT_POLICY": "passive"},
}

_MEASURE = r"""
import json, sys
sys.path.insert(0, HERE)
import numpy as np, tvm
from workloads import best_time, matmul_schedule
lib = tvm.compile(matmul_schedule(256).mod)
a, b, c = (np.random.rand(256, 256).astype("float32") for _ in range(3))
ta, tb, tc = (tvm.runtime.tensor(x) for x in (a, b, c))
x = np.random.rand(512, 512).astype("float32")
ours = lambda: lib(ta, tb, tc)
numpy_mm = lambda: x @ x
def pair():
    ours()
    numpy_mm()
times = [best_time(f, repeat=15, number=5) for f in (ours, numpy_mm, pair)]
print(json.dumps(times))
"""


def measure(extra_env):
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    env.update(extra_env)
    code = _MEASURE.replace("HERE", repr(HERE))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    print("NumPy 512^3 matmul interleaved with our parallel 256^3 matmul (ms; ratio = pair /")
    print("(ours alone + numpy alone), goal <= 1.3)")
    for name, extra in POLICIES.items():
        ours, numpy_mm, pair = measure(extra)
        print(
            f"  {name:30s} ours {ours * 1e3:6.2f}  numpy {numpy_mm * 1e3:6.2f}  "
            f"pair {pair * 1e3:6.2f}  ratio {pair / (ours + numpy_mm):5.2f}"
        )


if __name__ == "__main__":
    main()
