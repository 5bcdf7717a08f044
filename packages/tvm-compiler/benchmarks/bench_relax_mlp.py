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

sys.path.insert(0, os.path.dirname(__file__))
import tvm  # noqa: E402
from mlp_workload import BATCHES, SIZES, batch_input, best_ms, numpy_mlp, weights  # noqa: E402
from tvm import relax, te, tir  # noqa: E402
from workloads import tile_dense  # noqa: E402


def dense(x, w):
    k = te.reduce_axis((0, x.shape[1]), "k")
    return te.compute(
        (x.shape[0], w.shape[1]), lambda i, j: te.sum(x[i, k] * w[k, j], axis=k), name="dense"
    )


def bias_relu(y, b):
    zero = tir.const(0, "float32")
    return te.compute(y.shape, lambda i, j: tir.Max(y[i, j] + b[j], zero), name="bias_relu")


def mlp_module(ops: bool = False, batch: int | None = None):
    """The MLP with emit_te kernels (dense, bias_relu), or with ops=True as relax.op
    matmul/add/relu that LegalizeOps lowers (the program apache-tvm is measured on); the batch
    is symbolic unless given."""
    n = tir.Var("n", "int64") if batch is None else tir.const(batch, "int64")
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
                w, b = params[1 + 2 * i], params[2 + 2 * i]
                if ops:
                    h = bb.emit(relax.op.matmul(h, w))
                    h = bb.emit(relax.op.nn.relu(bb.emit(relax.op.add(h, b))))
                else:
                    h = bb.emit_te(bias_relu, bb.emit_te(dense, h, w), b)
            out = bb.emit_output(h)
        bb.emit_func_output(out)
    return bb.get()


def schedule_dense(mod):
    """Each dense kernel tiled by workloads.tile_dense (8 rows x 64 columns x 4, no tuning),
    marked tir.is_scheduled so that the default pipeline's dlight rules leave it alone."""
    funcs = {}
    for gv, func in mod.functions.items():
        if isinstance(func, tir.PrimFunc) and gv.name_hint.startswith("dense"):
            func = tile_dense(func).with_attr("tir.is_scheduled", True)
        funcs[gv] = func
    return tvm.IRModule(funcs, mod.attrs)


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
    expected = {batch: numpy_mlp(batch_input(batch), ws) for batch in BATCHES}
    variants = {}
    programs = (
        # relax.op kernels and emit_te kernels, both scheduled by the default pipeline (dlight).
        ("ops default", mlp_module(ops=True)),
        ("te default", mod),
        ("dense scheduled", schedule_dense(mod)),
    )
    for name, m in programs:
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
    # The scheduled MLP again with its VM function compiled to C instead of interpreted.
    ex = tvm.compile(programs[-1][1], target=target, exec_mode="compiled")
    variants["dense scheduled, compiled"] = (relax.VirtualMachine(ex, tvm.cpu())["main"], 0, 0)
    ref = reference_figures()
    print(
        f"MLP {'-'.join(map(str, SIZES))} float32, symbolic batch, VM bytecode mode (and compiled)"
    )
    for name, (_, cold, cached) in list(variants.items())[: len(programs)]:
        print(f"  compile ({name}): cold {cold:.0f} ms, cached {cached:.1f} ms")
    # NumPy runs after every tvm-stack timing: its BLAS leaves worker threads busy-waiting for
    # a while after each matmul, which take a CPU from whatever runs next in this process
    # (docs/runtime.md, "Kernel threads"); the expected values are computed before compiling.
    rows = {}
    for batch in BATCHES:
        x = batch_input(batch)
        xt = tvm.runtime.tensor(x)
        row = rows[batch] = {}
        for name, (fn, _, _) in variants.items():
            err = float(np.abs(fn(xt, *args).numpy() - expected[batch]).max())
            assert err < 1e-3, f"{name} batch {batch}: max error {err}"
            row[f"tvm-stack {name}"] = best_ms(lambda fn=fn, xt=xt: fn(xt, *args))
    for batch in BATCHES:
        x = batch_input(batch)
        rows[batch]["numpy"] = best_ms(lambda x=x: numpy_mlp(x, ws))
    for batch in BATCHES:
        row = rows[batch]
        for key, value in ref.get(str(batch), {}).items():
            row[key] = value
        text = ", ".join(f"{k} {v:.3f} ms" for k, v in row.items())
        print(f"  batch {batch}: {text}")
        for variant in ("ops default", "dense scheduled", "dense scheduled, compiled"):
            ours = row[f"tvm-stack {variant}"]
            for key in ("onnxruntime", "apache-tvm untuned"):
                if key in row:
                    print(f"    ratio tvm-stack ({variant}) / {key}: {ours / row[key]:.2f}x")
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
