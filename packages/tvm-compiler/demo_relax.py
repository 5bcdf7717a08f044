"""Demo: a Relax MLP built with the BlockBuilder, compiled to a VM executable, exported, and
run in a fresh process that imports only tvm-runtime, on batch sizes known only at run time."""

import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import tvm
from tvm import relax, te, tir


def dense(x, w):
    k = te.reduce_axis((0, x.shape[1]), "k")
    return te.compute(
        (x.shape[0], w.shape[1]), lambda i, j: te.sum(x[i, k] * w[k, j], axis=k), name="dense"
    )


def bias_relu(y, b):
    zero = tir.const(0, "float32")
    return te.compute(y.shape, lambda i, j: tir.Max(y[i, j] + b[j], zero), name="bias_relu")


sizes = (64, 128, 10)
batch = tir.Var("batch", "int64")
bb = relax.BlockBuilder()
x = relax.Var("x", relax.TensorStructInfo((batch, sizes[0]), "float32"))
params = [x]
for i, (k, m) in enumerate(zip(sizes[:-1], sizes[1:])):
    params += [
        relax.Var(f"w{i}", relax.TensorStructInfo((k, m), "float32")),
        relax.Var(f"b{i}", relax.TensorStructInfo((m,), "float32")),
    ]
with bb.function("main", params):
    with bb.dataflow():
        h = x
        for i in range(len(sizes) - 1):
            h = bb.emit_te(dense, h, params[1 + 2 * i])
            h = bb.emit_te(bias_relu, h, params[2 + 2 * i])
        out = bb.emit_output(h)
    bb.emit_func_output(out)
mod = bb.get()

start = time.perf_counter()
ex = tvm.compile(mod, target="llvm")
print(f"compiled the Relax MLP {sizes} in {(time.perf_counter() - start) * 1e3:.0f} ms")
print("bytecode of main:\n" + ex.as_text().split("\n\n")[0])

rng = np.random.default_rng(0)
weights = [
    (
        (rng.standard_normal((k, m)) / np.sqrt(k)).astype("float32"),
        rng.random(m).astype("float32"),
    )
    for k, m in zip(sizes[:-1], sizes[1:])
]

# The fresh process refuses every compiler package: only tvm-runtime (and tvm-ffi) serve it.
RUNNER = r"""
import sys, importlib.abc
class NoCompiler(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        parts = name.split(".")
        if parts[0] == "tvm" and len(parts) > 1 and parts[1] in (
                "relax", "tir", "te", "ir", "driver", "codegen", "target", "topi", "arith"):
            raise ImportError("the runner must not import the compiler: " + name)
sys.meta_path.insert(0, NoCompiler())
import numpy as np, tvm
from tvm.runtime.vm import VirtualMachine
vm = VirtualMachine(tvm.runtime.load_module(sys.argv[1]), tvm.cpu())
data = np.load(sys.argv[2])
arrays = [data[f"a{i}"] for i in range(len(data.files))]
for rows in (1, 5, 33):
    x = arrays[0][:rows]
    out = vm["main"](tvm.runtime.tensor(x), *[tvm.runtime.tensor(a) for a in arrays[1:]])
    np.save(f"{sys.argv[2]}.{rows}.npy", out.numpy())
    print(f"  batch {rows}: output shape {tuple(out.shape)}")
"""

with tempfile.TemporaryDirectory() as tmp:
    lib = os.path.join(tmp, "mlp.so")
    ex.export_library(lib)
    print(f"exported to {lib} ({os.path.getsize(lib)} bytes)")
    x_all = rng.standard_normal((33, sizes[0])).astype("float32")
    arrays = [x_all] + [a for pair in weights for a in pair]
    data = os.path.join(tmp, "inputs.npz")
    np.savez(data, **{f"a{i}": a for i, a in enumerate(arrays)})
    subprocess.run([sys.executable, "-c", RUNNER, lib, data], check=True, timeout=300)
    for rows in (1, 5, 33):
        expected = x_all[:rows]
        for w, b in weights:
            expected = np.maximum(expected @ w + b, 0)
        got = np.load(f"{data}.{rows}.npy")
        err = float(np.abs(got - expected).max())
        assert err < 1e-4, f"batch {rows}: max error {err}"
        print(f"batch {rows}: max |VM - NumPy| = {err:.2e}")
print("the Relax MLP ran in a process without the compiler and matched NumPy")
