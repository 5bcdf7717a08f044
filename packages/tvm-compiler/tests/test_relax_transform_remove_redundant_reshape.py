# relax.transform.RemoveRedundantReshape: no-op reshapes dropped, reshape chains collapsed,
# dead intermediates removed (the same module apache-tvm 0.27 produces), values unchanged.
import numpy as np
import tvm
from tvm import relax, tir
from tvm.relax.transform import RemoveRedundantReshape


def _module():
    x = relax.Var("x", relax.TensorStructInfo((2, 3, 4), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            a = bb.emit(relax.op.reshape(x, (6, 4)))
            b = bb.emit(relax.op.reshape(a, (24,)))  # chain: becomes reshape(x, (24,))
            c = bb.emit(relax.op.reshape(b, (24,)))  # no-op: becomes b
            d = bb.emit(relax.op.add(c, c))
            e = bb.emit(relax.op.reshape(d, (2, 3, 4)))
            f = bb.emit(relax.op.reshape(x, (2, 3, 4)))  # no-op: becomes x
            g = bb.emit_output(relax.op.add(e, f))
        bb.emit_func_output(g)
    return bb.get()


def _lines(mod):
    return [line.strip() for line in mod["main"].script().splitlines()[4:]]


def test_matches_upstream():
    mod = _module()
    out = RemoveRedundantReshape()(mod)
    assert _lines(out) == [
        "with R.dataflow():",
        'lv1: R.Tensor((24,), dtype="float32") = R.reshape(x, R.shape([24]))',
        'lv3: R.Tensor((24,), dtype="float32") = R.add(lv1, lv1)',
        'lv4: R.Tensor((2, 3, 4), dtype="float32") = R.reshape(lv3, R.shape([2, 3, 4]))',
        'gv: R.Tensor((2, 3, 4), dtype="float32") = R.add(lv4, x)',
        "R.output(gv)",
        "return gv",
    ]
    assert relax.analysis.well_formed(out)
    data = np.arange(24, dtype="float32").reshape(2, 3, 4)
    results = []
    for m in (mod, out):
        vm = relax.VirtualMachine(tvm.compile(m, target="llvm"), tvm.cpu())
        results.append(vm["main"](data).numpy())
    np.testing.assert_allclose(results[0], results[1])
    assert RemoveRedundantReshape()(out) is out


def test_output_of_a_noop_reshape_of_a_dataflow_var_stays_a_binding():
    x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            lv = bb.emit(relax.op.add(x, x))
            gv = bb.emit_output(relax.op.reshape(lv, (4,)))
        bb.emit_func_output(gv)
    out = RemoveRedundantReshape()(bb.get())
    [block] = out["main"].body.blocks
    assert [type(b.value).__name__ for b in block.bindings] == ["Call", "DataflowVar"]
    assert relax.analysis.well_formed(out)


def test_symbolic_noop_and_primitive_functions():
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo((n, 4), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        y = bb.emit(relax.op.reshape(x, relax.ShapeExpr([n, 4])))
        bb.emit_func_output(bb.emit(relax.op.add(y, y)))
    mod = bb.get()
    out = RemoveRedundantReshape()(mod)
    assert "R.reshape" not in out["main"].script()
    prim = tvm.IRModule({"main": mod["main"].with_attr("Primitive", 1)})
    assert RemoveRedundantReshape()(prim) is prim
