"""Timing helpers shared by the tvm-rpc benchmark and its reference script (no tvm imports)."""

import statistics
import time

MIB = 1 << 20
COPY_BYTES = 64 * MIB


def median_us(func, calls, batches=7):
    """Median over batches of the time per call, in microseconds."""
    per_call = []
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(calls):
            func()
        per_call.append((time.perf_counter() - start) / calls)
    return statistics.median(per_call) * 1e6


def gib_per_s(func, nbytes, repeat=5):
    """Median throughput of func moving nbytes, after one warm-up (first touch of pages)."""
    func()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return nbytes / statistics.median(times) / (1 << 30)
