"""Relax MLP 784-512-512-10 (matmul + bias + relu, float32) built with the BlockBuilder, run by
the VM at batch 1 and 64 with a symbolic batch: against NumPy, and (from the reference venv)
onnxruntime and apache-tvm 0.27 untuned, side by side; compile time cold and cached; the
intermediates' storage after StaticPlanBlockMemory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np
import tvm
from tvm import relax, te, tir

SIZES = (784, 512, 512, 10)
BATCHES = (1, 64)


def dense(x, w):
    k = te.reduce_axis((0, x.shape[1]), "k")
    return te.compute(
        (x.shape[0], w.shape[1]), lambda i, j: te.sum(x[i, k] * w[k, j], axis=k), name="dense"
    )


def bias_relu(y, b):
    zero = tir.const(0, "float32")
    return te.compute(y.shape, lambda i, j: tir.Max(y[i, j] + b[j], zero), name="bias_relu")


def mlp_module():
    n = tir.Var("n", "int64")
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((n, SIZES[0]), "float32"))
    params = [x]
    for i, (k, m) in enumerate(zip(SIZES[:-1], SIZES[1:])):
        params += [
            relax.Var(f"w{i}", relax.TensorStructInfo((k, m), "float32")),
            relax.Var(f"b{i}", relax.TensorStructInfo((m,), "float32")),
        ]
    with bb.function("main", params):
        with bb.dataflow():
            h = x
            for i in range(len(SIZES) - 1):
                h = bb.emit_te(dense, h, params[1 + 2 * i])
                h = bb.emit_te(bias_relu, h, params[2 + 2 * i])
            out = bb.emit_output(h)
        bb.emit_func_output(out)
    return bb.get()


def schedule_dense(mod):
    """A hand schedule for each dense kernel: columns in vectors of 16, column blocks in
    parallel, the reduction outside the vector loop (no tuning)."""
    funcs = {}
    for gv, func in mod.functions.items():
        if isinstance(func, tir.PrimFunc) and gv.name_hint.startswith("dense"):
            sch = tir.Schedule(func)
            block = sch.get_block("dense")
            i, j, k = sch.get_loops(block)
            cols = int(func.buffer_map[func.params[1]].shape[1])
            inner = 16 if cols % 16 == 0 else 1
            jo, ji = sch.split(j, [None, inner])
            sch.reorder(jo, i, k, ji)
            if inner > 1:
                sch.vectorize(ji)
            sch.parallel(jo)
            sch.decompose_reduction(block, k)
            func = sch.mod["main"]
        funcs[gv] = func
    return tvm.IRModule(funcs, mod.attrs)


def weights():
    rng = np.random.default_rng(0)
    return [
        (
            (rng.standard_normal((k, m)) / np.sqrt(k)).astype("float32"),
            rng.standard_normal(m).astype("float32"),
        )
        for k, m in zip(SIZES[:-1], SIZES[1:])
    ]


def best_ms(fn, repeat=30):
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


def reference_figures() -> dict:
    python = os.environ.get("TVM_BENCH_REFERENCE_PYTHON")
    if not python:
        return {"error": "not measured (TVM_BENCH_REFERENCE_PYTHON unset)"}
    script = os.path.join(os.path.dirname(__file__), "bench_relax_mlp_reference.py")
    proc = subprocess.run([python, script], capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        return {"error": f"failed: {proc.stderr.strip().splitlines()[-1:]}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def planned_storage_bytes(mod, batch):
    """Bytes of the storages StaticPlanBlockMemory gives the intermediates at this batch."""
    from tvm.arith import Analyzer
    from tvm.relax import transform
    from tvm.relax.transform.lowering_utils import is_op_call
    from tvm.tir.analysis.well_formed import undefined_vars
    from tvm.tir.functor import substitute

    for p in (transform.ToNonDataflow(), transform.CallTIRRewrite()):
        mod = p(mod)
    func = transform.StaticPlanBlockMemory()(mod)["main"]
    total = 0
    for block in func.body.blocks:
        for b in block.bindings:
            if is_op_call(b.value, "relax.memory.alloc_storage"):
                (size,) = b.value.args[0].values
                vmap = {v: tir.IntImm("int64", batch) for v in undefined_vars(size)}
                total += Analyzer().simplify(substitute(size, vmap)).value
    return total


def main():
    mod = mlp_module()
    target = "llvm -mcpu=native"
    ws = weights()
    args = [tvm.runtime.tensor(a) for pair in ws for a in pair]
    variants = {}
    for name, m in (("untuned", mod), ("dense scheduled", schedule_dense(mod))):
        os.environ["TVM_STACK_KERNEL_CACHE"] = os.path.join(
            os.environ.get("TMPDIR", "/tmp"), f"bench-relax-mlp-{os.getpid()}-{len(variants)}"
        )
        start = time.perf_counter()
        ex = tvm.compile(m, target=target)
        cold = (time.perf_counter() - start) * 1e3
        start = time.perf_counter()
        tvm.compile(m, target=target)
        cached = (time.perf_counter() - start) * 1e3
        variants[name] = (relax.VirtualMachine(ex, tvm.cpu())["main"], cold, cached)
    ref = reference_figures()
    print(f"MLP {'-'.join(map(str, SIZES))} float32, symbolic batch, VM bytecode mode")
    for name, (_, cold, cached) in variants.items():
        print(f"  compile ({name}): cold {cold:.0f} ms, cached {cached:.1f} ms")
    for batch in BATCHES:
        x = np.random.default_rng(batch).standard_normal((batch, SIZES[0])).astype("float32")
        xt = tvm.runtime.tensor(x)
        expected = numpy_mlp(x, ws)
        row = {}
        for name, (fn, _, _) in variants.items():
            err = float(np.abs(fn(xt, *args).numpy() - expected).max())
            assert err < 1e-3, f"{name} batch {batch}: max error {err}"
            row[f"tvm-stack {name}"] = best_ms(lambda fn=fn, xt=xt: fn(xt, *args))
        row["numpy"] = best_ms(lambda x=x: numpy_mlp(x, ws))
        for key, value in ref.get(str(batch), {}).items():
            row[key] = value
        ours = row["tvm-stack dense scheduled"]
        text = ", ".join(f"{k} {v:.3f} ms" for k, v in row.items())
        print(f"  batch {batch}: {text}")
        for key in ("onnxruntime", "apache-tvm untuned"):
            if key in row:
                print(f"    ratio tvm-stack (scheduled) / {key}: {ours / row[key]:.2f}x")
        plan = planned_storage_bytes(mod, batch)
        two_largest = 2 * batch * max(SIZES[1:]) * 4
        print(
            f"    intermediates' storage after StaticPlanBlockMemory: {plan} bytes "
            f"(two largest live tensors: {two_largest} bytes)"
        )
    if "error" in ref:
        print(f"  reference: {ref['error']}")


if __name__ == "__main__":
    sys.exit(main())
