# relax.transform.FuseTransposeMatmul: x @ permute_dims(w) (last two axes swapped) becomes one
# NT_matmul kernel reading w as is (the PrimFunc apache-tvm 0.27 generates); other
# permutations stay; results match NumPy, with batches and symbolic dims.
import numpy as np
import pytest
import tvm
from tvm import relax, tir
from tvm.relax.transform import FuseTransposeMatmul

n = tir.Var("n", "int64")


def _build(x_shape, w_shape, axes=None):
    x = relax.Var("x", relax.TensorStructInfo(x_shape, "float32"))
    w = relax.Var("w", relax.TensorStructInfo(w_shape, "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w]):
        with bb.dataflow():
            wt = bb.emit(relax.op.permute_dims(w, axes))
            out = bb.emit_output(relax.op.matmul(x, wt))
        bb.emit_func_output(out)
    return bb.get()


@pytest.mark.parametrize(
    "x_shape, w_shape, axes, data_shapes",
    [
        ((2, 8), (4, 8), None, [(2, 8), (4, 8)]),
        ((3, 2, 8), (4, 8), None, [(3, 2, 8), (4, 8)]),  # x batched, w shared
        ((3, 2, 8), (3, 4, 8), [0, 2, 1], [(3, 2, 8), (3, 4, 8)]),
        ((1, 2, 8), (3, 4, 8), [0, 2, 1], [(1, 2, 8), (3, 4, 8)]),  # x's batch broadcast
        ((n, 8), (4, 8), None, [(5, 8), (4, 8)]),
    ],
)
def test_fused(x_shape, w_shape, axes, data_shapes):
    mod = _build(x_shape, w_shape, axes)
    out = FuseTransposeMatmul()(mod)
    [binding] = out["main"].body.blocks[0].bindings
    assert binding.value.op.name == "relax.call_tir"
    assert binding.value.args[0].name_hint == "NT_matmul"
    assert [a.name_hint for a in binding.value.args[1].fields] == ["x", "w"]
    assert relax.analysis.well_formed(out)
    rng = np.random.default_rng(4)
    x, w = (rng.standard_normal(s).astype("float32") for s in data_shapes)
    vm = relax.VirtualMachine(tvm.compile(out, target="llvm"), tvm.cpu())
    want = x @ np.swapaxes(w, -1, -2)
    np.testing.assert_allclose(vm["main"](x, w).numpy(), want, rtol=1e-5, atol=1e-5)


def test_other_permutations_stay():
    mod = _build((2, 4), (4, 3), [0, 1])  # the identity permutation: no transpose to fuse
    assert FuseTransposeMatmul()(mod) is mod
