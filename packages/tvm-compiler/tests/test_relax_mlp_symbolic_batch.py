# The benchmark's MLP with its tiled dense kernels: a symbolic batch computes what a static one
# does at every batch size, full row tiles or not.
import sys
from pathlib import Path

import numpy as np
import pytest
import tvm
from tvm import relax

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from bench_relax_mlp import mlp_module, schedule_dense  # noqa: E402
from mlp_workload import batch_input, numpy_mlp, weights  # noqa: E402

_TARGET = "llvm -mcpu=native"  # runs here; the tiling itself is checked under pinned targets


@pytest.fixture(scope="module")
def symbolic_main():
    ex = tvm.compile(schedule_dense(mlp_module()), target=_TARGET)
    return relax.VirtualMachine(ex, tvm.cpu())["main"]


@pytest.mark.parametrize("batch", [1, 7, 64, 65])
def test_symbolic_batch_mlp_equals_static_batch_mlp(symbolic_main, batch):
    ws = weights()
    args = [tvm.runtime.tensor(a) for pair in ws for a in pair]
    x = batch_input(batch)
    out = symbolic_main(tvm.runtime.tensor(x), *args).numpy()
    static = tvm.compile(schedule_dense(mlp_module(batch=batch)), target=_TARGET)
    expected = relax.VirtualMachine(static, tvm.cpu())["main"](tvm.runtime.tensor(x), *args)
    # Every element adds its terms in the same order in both; only where a shape leaves a loop
    # of one row out (static batch 1, the 65th row) may the C compiler fuse multiply-adds
    # differently, a rounding apart.
    np.testing.assert_allclose(out, expected.numpy(), rtol=1e-6, atol=1e-6)
    if batch % 8 == 0:
        np.testing.assert_array_equal(out, expected.numpy())
    np.testing.assert_allclose(out, numpy_mlp(x, ws), rtol=1e-4, atol=1e-4)
