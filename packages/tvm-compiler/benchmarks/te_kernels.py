"""The five te kernels of the user programs, scheduled the same way for tvm-compiler and for
apache-tvm 0.27 (written with the names both have: tvm.s_tir.Schedule, get_sblock), and the
timing loop both measure them with."""

from __future__ import annotations

import time

import numpy as np
from tvm import s_tir, te, tirx


def vector_add(n: int = 1 << 24):
    """C = A + B: split by 64, outer loop parallel, inner vectorized."""
    a = te.placeholder((n,), name="A")
    b = te.placeholder((n,), name="B")
    c = te.compute((n,), lambda i: a[i] + b[i], name="C")
    sch = s_tir.Schedule(te.create_prim_func([a, b, c]))
    (i,) = sch.get_loops(sch.get_sblock("C"))
    outer, inner = sch.split(i, [None, 64])
    sch.parallel(outer)
    sch.vectorize(inner)
    rng = np.random.default_rng(0)
    args = [rng.random(n, dtype="float32"), rng.random(n, dtype="float32")]
    return sch.mod, [*args, np.zeros(n, "float32")], lambda x, y: x + y


def matmul(n: int):
    """The tutorial's matmul: 32x32x4 tiles, reorder, vectorize, parallel, cache_write,
    reverse_compute_at and decompose_reduction (bench_matmul.py's schedule)."""
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
    rng = np.random.default_rng(0)
    args = [rng.random((n, n), dtype="float32"), rng.random((n, n), dtype="float32")]
    return sch.mod, [*args, np.zeros((n, n), "float32")], lambda x, y: x @ y


def conv2d(n=1, c=64, hw=56, f=64, k=3):
    """NCHW conv2d, padding 1: the padding inlined, (batch, channel) fused and parallel,
    reductions outside the vectorized output row, the init hoisted out of them."""
    data = te.placeholder((n, c, hw, hw), name="data")
    weight = te.placeholder((f, c, k, k), name="weight")
    pad = te.compute(
        (n, c, hw + 2, hw + 2),
        lambda b, ch, y, x: tirx.if_then_else(
            tirx.all(y >= 1, y <= hw, x >= 1, x <= hw),
            data[b, ch, y - 1, x - 1],
            tirx.const(0.0, "float32"),
        ),
        name="pad",
    )
    rc = te.reduce_axis((0, c), name="rc")
    ry = te.reduce_axis((0, k), name="ry")
    rx = te.reduce_axis((0, k), name="rx")
    out = te.compute(
        (n, f, hw, hw),
        lambda b, ff, y, x: te.sum(
            pad[b, rc, y + ry, x + rx] * weight[ff, rc, ry, rx], axis=[rc, ry, rx]
        ),
        name="conv",
    )
    sch = s_tir.Schedule(te.create_prim_func([data, weight, out]))
    sch.compute_inline(sch.get_sblock("pad"))
    block = sch.get_sblock("conv")
    b, ff, y, x, r_c, r_y, r_x = sch.get_loops(block)
    fused = sch.fuse(b, ff)
    sch.reorder(fused, y, r_c, r_y, r_x, x)
    sch.parallel(fused)
    sch.vectorize(x)
    sch.decompose_reduction(block, r_c)
    rng = np.random.default_rng(0)
    args = [
        rng.random((n, c, hw, hw), dtype="float32"),
        rng.random((f, c, k, k), dtype="float32"),
    ]

    def reference(x, w):
        xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
        windows = np.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(2, 3))
        return np.einsum("ncyxij,fcij->nfyx", windows, w, optimize=True)

    return sch.mod, [*args, np.zeros((n, f, hw, hw), "float32")], reference


def softmax(m: int = 1024, n: int = 1024):
    """Row softmax in four blocks (max, exp, sum, divide), each row loop parallel and the
    elementwise inner loops vectorized."""
    a = te.placeholder((m, n), name="A")
    j = te.reduce_axis((0, n), name="j")
    row_max = te.compute((m,), lambda i: te.max(a[i, j], axis=j), name="row_max")
    e = te.compute((m, n), lambda i, jj: te.exp(a[i, jj] - row_max[i]), name="exp")
    j2 = te.reduce_axis((0, n), name="j2")
    row_sum = te.compute((m,), lambda i: te.sum(e[i, j2], axis=j2), name="row_sum")
    out = te.compute((m, n), lambda i, jj: e[i, jj] / row_sum[i], name="norm")
    sch = s_tir.Schedule(te.create_prim_func([a, out]))
    for name in ("row_max", "row_sum"):
        sch.parallel(sch.get_loops(sch.get_sblock(name))[0])
    for name in ("exp", "norm"):
        i, jj = sch.get_loops(sch.get_sblock(name))
        sch.parallel(i)
        sch.vectorize(jj)
    rng = np.random.default_rng(0)

    def reference(x):
        z = np.exp(x - x.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    return sch.mod, [rng.random((m, n), dtype="float32"), np.zeros((m, n), "float32")], reference


KERNELS = {
    "vector add 2^24": vector_add,
    "matmul 512": lambda: matmul(512),
    "matmul 1024": lambda: matmul(1024),
    "conv2d 1x64x56x56 3x3x64": conv2d,
    "softmax 1024x1024": softmax,
}


def best_seconds(fn, repeat: int = 10) -> float:
    """The fastest of repeat calls after a warm-up."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def measure(compile_fn, to_tensor, names=None) -> dict:
    """{kernel: best seconds}, each result checked against NumPy first."""
    results = {}
    for name, make in KERNELS.items():
        if names and name not in names:
            continue
        mod, arrays, reference = make()
        kernel = compile_fn(mod)
        tensors = [to_tensor(x) for x in arrays]
        kernel(*tensors)
        got = tensors[-1].numpy()
        np.testing.assert_allclose(got, reference(*arrays[:-1]), rtol=1e-3, atol=1e-4)
        results[name] = best_seconds(lambda k=kernel, t=tensors: k(*t))
    return results
