"""Demo: describe a matmul with te, schedule it, compile it to C and run it on NumPy data."""

import time

import numpy as np
import tvm
from tvm import te, tir

n = 256
A = te.placeholder((n, n), name="A")
B = te.placeholder((n, n), name="B")
k = te.reduce_axis((0, n), name="k")
C = te.compute((n, n), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")
func = te.create_prim_func([A, B, C])
print("is_pure_function (it writes its argument C):", tir.analysis.is_pure_function(func))

sch = tir.Schedule(func)
block = sch.get_block("C")
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
print("schedule trace:\n" + str(sch.trace))

start = time.perf_counter()
mod = tvm.compile(sch.mod, target="llvm -mcpu=native")
print(f"compiled to {mod.path} in {(time.perf_counter() - start) * 1e3:.0f} ms")

rng = np.random.default_rng(0)
a = rng.random((n, n), dtype="float32")
b = rng.random((n, n), dtype="float32")
c = np.zeros((n, n), dtype="float32")
mod["main"](a, b, c)
print("max |C - A @ B| =", float(np.abs(c - a @ b).max()))
try:
    mod["main"](a, b, np.zeros((n, n), dtype="float64"))
except ValueError as err:
    print("a wrong dtype is refused:", err)
