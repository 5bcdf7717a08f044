"""Kernels the compiler benchmarks measure: the scheduled matmul, the MLP's dense layers and a
parallel vector add."""

from __future__ import annotations

import time

from tvm import te, tir


def matmul_schedule(
    n: int = 1024, tile: int = 32, k_tile: int = 4, m: int | None = None, k: int | None = None
) -> tir.Schedule:
    """float32 C = A @ B (m x k times k x n, square by default) with split tile x tile x k_tile,
    reorder, vectorize, parallel, cache_write and decompose_reduction."""
    m, k_extent = m or n, k or n
    a = te.placeholder((m, k_extent), name="A")
    b = te.placeholder((k_extent, n), name="B")
    k = te.reduce_axis((0, k_extent), name="k")
    c = te.compute((m, n), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    sch = tir.Schedule(te.create_prim_func([a, b, c]))
    block = sch.get_block("C")
    write_back = sch.cache_write(block, 0, "global")
    i, j, kk = sch.get_loops(block)
    io, ii = sch.split(i, [None, tile])
    jo, ji = sch.split(j, [None, tile])
    ko, ki = sch.split(kk, [None, k_tile])
    sch.reorder(io, jo, ko, ki, ii, ji)
    sch.vectorize(ji)
    sch.parallel(io)
    sch.reverse_compute_at(write_back, jo)
    sch.decompose_reduction(block, ko)
    return sch


def tile_dense(func: tir.PrimFunc, block: str = "dense", rows: int = 8) -> tir.PrimFunc:
    """func's x @ w block in tiles of rows x 64 columns (16, or all of them, when 64 does not
    divide) x 4 reduction steps: columns vectorized, column blocks in parallel. A symbolic
    batch split by rows leaves a bound check that PartitionFullTiles turns into whole tiles
    (register-tiled) and one guarded tail."""
    sch = tir.Schedule(func)
    dense = sch.get_block(block)
    i, j, k = sch.get_loops(dense)
    cols = int(func.buffer_map[func.params[1]].shape[1])
    inner = next((v for v in (64, 16) if cols % v == 0), cols)
    io, ii = sch.split(i, [None, rows])
    jo, ji = sch.split(j, [None, inner])
    ko, ki = sch.split(k, [None, 4])
    sch.reorder(jo, io, ko, ki, ii, ji)
    sch.vectorize(ji)
    sch.parallel(jo)
    sch.decompose_reduction(dense, ko)
    return sch.mod["main"]


def dense_func(batch, k: int, m: int) -> tir.PrimFunc:
    """dense = x @ w for x of (batch, k), batch an int or a symbolic int64 Var."""
    batch = tir.const(batch, "int64") if isinstance(batch, int) else batch
    x = te.placeholder((batch, tir.const(k, "int64")), name="x")
    w = te.placeholder((tir.const(k, "int64"), tir.const(m, "int64")), name="w")
    r = te.reduce_axis((0, x.shape[1]), "k")
    dense = te.compute(
        (batch, w.shape[1]), lambda i, j: te.sum(x[i, r] * w[r, j], axis=r), name="dense"
    )
    return te.create_prim_func([x, w, dense])


def naive_matmul(n: int):
    a = te.placeholder((n, n), name="A")
    b = te.placeholder((n, n), name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute((n, n), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    return te.create_prim_func([a, b, c])


def vector_add_schedule(n: int, inner: int = 64, name: str = "C") -> tir.Schedule:
    a = te.placeholder((n,), name="A")
    b = te.placeholder((n,), name="B")
    c = te.compute((n,), lambda i: a[i] + b[i], name=name)
    sch = tir.Schedule(te.create_prim_func([a, b, c]))
    (i,) = sch.get_loops(sch.get_block(name))
    outer, vec = sch.split(i, [None, inner])
    sch.parallel(outer)
    sch.vectorize(vec)
    return sch


def best_time(fn, repeat: int = 7, number: int = 1) -> float:
    """Seconds of the fastest of repeat runs (each the mean of number calls), after a warm-up."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def side_by_side(ours, reference, rounds: int = 3, repeat: int = 5, number: int = 1):
    """Best times of ours and reference, measured in alternating rounds so load hits both."""
    best_ours = best_ref = float("inf")
    for _ in range(rounds):
        best_ours = min(best_ours, best_time(ours, repeat, number))
        best_ref = min(best_ref, best_time(reference, repeat, number))
    return best_ours, best_ref
