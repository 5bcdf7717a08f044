# relax.transform.CombineParallelMatmul: parallel matmuls of one input become one matmul by the
# concatenated weights, then a split; shared bias adds and activations move before the split
# (the op sequence apache-tvm 0.27 produces for the same programs); values unchanged.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax.transform import CombineParallelMatmul


def _t(*shape):
    return relax.TensorStructInfo(shape, "float32")


WIDTHS = (4, 6, 2)


def _build(with_bias, acts):
    x = relax.Var("x", _t(2, 8))
    ws = [relax.Var(f"w{i}", _t(8, n)) for i, n in enumerate(WIDTHS)]
    bs = [relax.Var(f"b{i}", _t(n)) for i, n in enumerate(WIDTHS)]
    bb = relax.BlockBuilder()
    with bb.function("main", [x, *ws, *bs]):
        with bb.dataflow():
            outs = []
            for w, b, act in zip(ws, bs, acts):
                y = bb.emit(relax.op.matmul(x, w))
                if with_bias:
                    y = bb.emit(relax.op.add(y, b))
                if act is not None:
                    y = bb.emit(act(y))
                outs.append(y)
            out = bb.emit_output(relax.Tuple(outs))
        bb.emit_func_output(out)
    return bb.get()


def _ops(mod):
    ops = []
    for b in mod["main"].body.blocks[0].bindings:
        v = b.value
        ops.append(
            v.op.name.replace("relax.", "") if isinstance(v, relax.Call) else type(v).__name__
        )
    return ops


relu = relax.op.nn.relu

CASES = [
    (False, [None] * 3, ["concat", "matmul", "split"] + ["TupleGetItem"] * 3 + ["Tuple"]),
    (
        True,
        [relu] * 3,
        ["concat", "matmul", "concat", "add", "nn.relu", "split"]
        + ["TupleGetItem"] * 3
        + ["Tuple"],
    ),
    (
        True,
        [relu, None, relu],
        ["concat", "matmul", "concat", "add", "split", "TupleGetItem", "nn.relu", "TupleGetItem"]
        + ["TupleGetItem", "nn.relu", "Tuple"],
    ),
]


@pytest.mark.parametrize("with_bias, acts, expected", CASES)
def test_combined(with_bias, acts, expected):
    mod = _build(with_bias, acts)
    out = CombineParallelMatmul()(mod)
    assert _ops(out) == expected
    assert relax.analysis.well_formed(out)
    rng = np.random.default_rng(3)
    args = [rng.standard_normal((2, 8)).astype("float32")]
    args += [rng.standard_normal((8, n)).astype("float32") for n in WIDTHS]
    args += [rng.standard_normal((n,)).astype("float32") for n in WIDTHS]
    results = []
    for m in (mod, out):
        vm = relax.VirtualMachine(tvm.compile(m, target="llvm"), tvm.cpu())
        results.append([t.numpy() for t in vm["main"](*args)])
    for got, want in zip(*results):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_check_can_veto_and_single_matmuls_stay():
    mod = _build(True, [None] * 3)
    seen = []

    def check(lhs, rhs, biases, var2val):
        seen.append((lhs.name_hint, [r.name_hint for r in rhs], [b.name_hint for b in biases]))
        return False

    assert CombineParallelMatmul(check)(mod) is mod
    assert seen == [("x", ["w0", "w1", "w2"], ["b0", "b1", "b2"])]
    x = relax.Var("x", _t(2, 8))
    w = relax.Var("w", _t(8, 4))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w]):
        with bb.dataflow():
            y = bb.emit_output(relax.op.matmul(x, w))
        bb.emit_func_output(y)
    single = bb.get()
    assert CombineParallelMatmul()(single) is single
    with pytest.raises(TypeError, match="CombineParallelMatmul: check must be callable"):
        CombineParallelMatmul(check=3)
