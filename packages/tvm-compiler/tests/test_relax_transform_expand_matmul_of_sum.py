# relax.transform.ExpandMatmulOfSum (x @ (A + B) -> x @ A + x @ B unless A + B is known at
# compile time; choices as apache-tvm 0.27's) and the VMBuiltinLower alias of
# LowerRuntimeBuiltin.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax.transform import ExpandMatmulOfSum


def _t(*shape):
    return relax.TensorStructInfo(shape, "float32")


def _build(attrs, bias_shape=(8, 4)):
    x, a, b = relax.Var("x", _t(2, 8)), relax.Var("A", _t(8, 4)), relax.Var("B", _t(*bias_shape))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, a, b], attrs=attrs):
        with bb.dataflow():
            s = bb.emit(relax.op.add(a, b))
            out = bb.emit_output(relax.op.matmul(x, s))
        bb.emit_func_output(out)
    return bb.get()


def _ops(mod):
    return [b.value.op.name.replace("relax.", "") for b in mod["main"].body.blocks[0].bindings]


@pytest.mark.parametrize(
    "attrs, expanded",
    [(None, True), ({"num_input": 1}, False), ({"num_input": 2}, True), ({"num_input": 3}, True)],
)
def test_expansion(attrs, expanded):
    mod = _build(attrs)
    out = ExpandMatmulOfSum()(mod)
    if not expanded:  # A and B are both compile-time weights: their sum folds once
        assert out is mod
        return
    assert _ops(out) == ["matmul", "matmul", "add"]
    assert relax.analysis.well_formed(out)
    rng = np.random.default_rng(5)
    args = [rng.standard_normal(s).astype("float32") for s in ((2, 8), (8, 4), (8, 4))]
    results = []
    for m in (mod, out):
        vm = relax.VirtualMachine(tvm.compile(m, target="llvm"), tvm.cpu())
        results.append(vm["main"](*args).numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-5, atol=1e-5)


def test_broadcast_sum_is_left_alone():
    mod = _build(None, bias_shape=(4,))
    assert ExpandMatmulOfSum()(mod) is mod


def test_vm_builtin_lower_is_lower_runtime_builtin():
    with pytest.warns(
        UserWarning, match="VMBuiltinLower has been renamed to 'LowerRuntimeBuiltin'"
    ):
        p = relax.transform.VMBuiltinLower()
    assert p.info.name == "LowerRuntimeBuiltin"
