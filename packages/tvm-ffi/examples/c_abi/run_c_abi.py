"""Loads the C plugin built by build_c_abi.py and calls it with NumPy arrays and ints."""

from __future__ import annotations

import os
import sys

import numpy as np
import tvm_ffi

HERE = os.path.dirname(os.path.abspath(__file__))


def main(library: str) -> None:
    mod = tvm_ffi.load_module(library)
    x = np.arange(10, dtype="float32")
    print("vector_sum(arange(10)) =", mod["vector_sum"](x))
    print("vector_sum(arange(10)[::3]) =", mod["vector_sum"](x[::3]))
    print("gcd(84, 36) =", mod["gcd"](84, 36))
    try:
        mod["vector_sum"](x.astype("float64"))
    except ValueError as err:
        print("float64 input ->", type(err).__name__ + ":", err)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "build", "libvector_sum.so"))
