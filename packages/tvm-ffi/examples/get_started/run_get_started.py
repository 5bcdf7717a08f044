"""Calls the get_started plugin from NumPy and, when it is installed, PyTorch (zero copy both)."""

from __future__ import annotations

import importlib
import importlib.util

import numpy as np
import tvm_ffi_get_started as plugin


def run_numpy() -> None:
    x = np.arange(5, dtype="float32")
    y = np.empty_like(x)
    plugin.add_one(x, y)  # y is written in place: the kernel sees NumPy's own buffer
    print("numpy:  add_one", x, "->", y)
    try:
        plugin.add_one(x.astype("float64"), y)
    except ValueError as err:
        print("numpy:  float64 input ->", err)


def run_torch() -> None:
    if importlib.util.find_spec("torch") is None:
        print("torch:  not installed, skipped (pip install torch)")
        return
    torch = importlib.import_module("torch")
    x = torch.arange(5, dtype=torch.float32)
    y = torch.empty_like(x)
    plugin.add_one(x, y)
    print("torch:  add_one", x, "->", y)


if __name__ == "__main__":
    run_numpy()
    run_torch()
    print("fibonacci(50) =", plugin.fibonacci(50))
