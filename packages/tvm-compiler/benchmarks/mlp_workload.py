"""The MLP both bench_relax_mlp.py and its reference helper measure (NumPy only: the reference
venv has another tvm)."""

import time

import numpy as np

SIZES = (784, 512, 512, 10)
BATCHES = (1, 64)


def weights():
    """(w, b) per layer, the same random values in every run and venv."""
    rng = np.random.default_rng(0)
    return [
        (
            (rng.standard_normal((k, m)) / np.sqrt(k)).astype("float32"),
            rng.standard_normal(m).astype("float32"),
        )
        for k, m in zip(SIZES[:-1], SIZES[1:])
    ]


def batch_input(batch: int):
    return np.random.default_rng(batch).standard_normal((batch, SIZES[0])).astype("float32")


def best_ms(fn, repeat=30):
    """Milliseconds of the fastest of repeat calls, after a warm-up call."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def numpy_mlp(x, ws):
    for w, b in ws:
        x = np.maximum(x @ w + b, 0)
    return x
