# relax.transform.ReorderPermuteDimsAfterConcat and ReorderTakeAfterMatmul: the rewritten
# bindings (as apache-tvm 0.27 rewrites the same programs) and unchanged values.
import numpy as np
import tvm
from tvm import relax
from tvm.relax.transform import ReorderPermuteDimsAfterConcat, ReorderTakeAfterMatmul


def _t(*shape, dtype="float32"):
    return relax.TensorStructInfo(shape, dtype)


def _values(mod, out):
    lines = out["main"].script().splitlines()
    return [ln.strip().split(" = ", 1)[1] for ln in lines if ": R." in ln and " = " in ln]


def _same_results(mod, out, args):
    results = []
    for m in (mod, out):
        vm = relax.VirtualMachine(tvm.compile(m, target="llvm"), tvm.cpu())
        results.append(vm["main"](*args).numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-5, atol=1e-5)


def test_permute_dims_moves_after_concat():
    x, a, b = relax.Var("x", _t(2, 4)), relax.Var("a", _t(16, 4)), relax.Var("b", _t(8, 4))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, a, b]):
        with bb.dataflow():
            pa = bb.emit(relax.op.permute_dims(a))
            pb = bb.emit(relax.op.permute_dims(b))
            c = bb.emit(relax.op.concat([pa, pb], axis=1))
            o = bb.emit_output(relax.op.matmul(x, c))
        bb.emit_func_output(o)
    mod = bb.get()
    out = ReorderPermuteDimsAfterConcat()(mod)
    assert _values(mod, out)[:2] == [
        "R.concat((a, b), axis=0)",
        "R.permute_dims(lv, axes=None)",
    ]
    rng = np.random.default_rng(1)
    _same_results(
        mod, out, [rng.standard_normal(s).astype("float32") for s in ((2, 4), (16, 4), (8, 4))]
    )
    assert ReorderPermuteDimsAfterConcat()(out) is out


def test_explicit_axes_and_mismatched_permutations():
    a, b = relax.Var("a", _t(2, 3, 4)), relax.Var("b", _t(2, 5, 4))
    bb = relax.BlockBuilder()
    with bb.function("main", [a, b]):
        with bb.dataflow():
            pa = bb.emit(relax.op.permute_dims(a, [2, 0, 1]))
            pb = bb.emit(relax.op.permute_dims(b, [2, 0, 1]))
            c = bb.emit_output(relax.op.concat([pa, pb], axis=2))
        bb.emit_func_output(c)
    out = ReorderPermuteDimsAfterConcat()(bb.get())
    assert _values(None, out) == [
        "R.concat((a, b), axis=1)",
        "R.permute_dims(lv, axes=[2, 0, 1])",
    ]
    # different permutations: nothing to share
    c2, d2 = relax.Var("c", _t(3, 4)), relax.Var("d", _t(4, 3))
    bb = relax.BlockBuilder()
    with bb.function("main", [c2, d2]):
        with bb.dataflow():
            pc = bb.emit(relax.op.permute_dims(c2, [0, 1]))
            pd = bb.emit(relax.op.permute_dims(d2, [1, 0]))
            e = bb.emit_output(relax.op.concat([pc, pd], axis=0))
        bb.emit_func_output(e)
    mod = bb.get()
    assert ReorderPermuteDimsAfterConcat()(mod) is mod


def test_take_moves_after_matmul():
    x, w = relax.Var("x", _t(1, 16)), relax.Var("w", _t(16, 32))
    idx = relax.Var("idx", _t(4, dtype="int64"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w, idx]):
        with bb.dataflow():
            wt = bb.emit(relax.op.take(w, idx, axis=1))
            o = bb.emit_output(relax.op.matmul(x, wt))
        bb.emit_func_output(o)
    mod = bb.get()
    out = ReorderTakeAfterMatmul()(mod)
    values = _values(mod, out)
    assert values[0].startswith("R.matmul(x, w")
    assert values[1] == 'R.take(lv, idx, axis=1, mode="fast")'
    rng = np.random.default_rng(2)
    args = [
        rng.standard_normal((1, 16)).astype("float32"),
        rng.standard_normal((16, 32)).astype("float32"),
        np.array([3, 0, 31, 3], "int64"),
    ]
    _same_results(mod, out, args)


def test_batched_take_is_left_alone():
    x, w = relax.Var("x", _t(4, 1, 16)), relax.Var("w", _t(3, 16, 32))
    idx = relax.Var("idx", _t(4, dtype="int64"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w, idx]):
        with bb.dataflow():
            wt = bb.emit(relax.op.take(w, idx, axis=0))
            o = bb.emit_output(relax.op.matmul(x, wt))
        bb.emit_func_output(o)
    mod = bb.get()
    assert ReorderTakeAfterMatmul()(mod) is mod
