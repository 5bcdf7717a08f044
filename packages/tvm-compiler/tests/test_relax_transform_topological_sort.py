# relax.transform.TopologicalSort: the binding order of each traversal (depth/breadth-first,
# from inputs/outputs) pinned to apache-tvm 0.27's on the same dataflow blocks.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax.transform import TopologicalSort

T2 = relax.TensorStructInfo((2,), "float32")


def _chain():
    x, y = relax.Var("x", T2), relax.Var("y", T2)
    bb = relax.BlockBuilder()
    with bb.function("main", [x, y]):
        with bb.dataflow():
            a = bb.emit(relax.op.add(x, x), "a")
            b = bb.emit(relax.op.add(y, y), "b")
            c = bb.emit(relax.op.multiply(a, a), "c")
            d = bb.emit(relax.op.multiply(b, b), "d")
            e = bb.emit(relax.op.add(c, d), "e")
            f = bb.emit(relax.op.negative(x), "f")
            g = bb.emit_output(relax.op.add(e, f), "g")
        bb.emit_func_output(g)
    return bb.get(), 0


def _two_outputs():
    x, y, z = relax.Var("x", T2), relax.Var("y", T2), relax.Var("z", T2)
    bb = relax.BlockBuilder()
    with bb.function("main", [x, y, z]):
        pre = bb.emit(relax.op.add(z, z), "pre")
        with bb.dataflow():
            k = bb.emit(relax.op.zeros((2,), "float32"), "k")
            a = bb.emit(relax.op.add(y, x), "a")
            b = bb.emit(relax.op.multiply(a, pre), "b")
            c = bb.emit(relax.op.multiply(x, a), "c")
            d = bb.emit(relax.op.add(k, b), "d")
            o1 = bb.emit_output(relax.op.add(c, d), "o1")
            e = bb.emit(relax.op.negative(pre), "e")
            o2 = bb.emit_output(relax.op.add(e, y), "o2")
        bb.emit_func_output(relax.Tuple([o1, o2]))
    return bb.get(), 1


CASES = {
    (_chain, "depth-first", "from-inputs"): "a c f b d e g",
    (_chain, "depth-first", "from-outputs"): "a c b d e f g",
    (_chain, "breadth-first", "from-inputs"): "a f b c d e g",
    (_chain, "breadth-first", "from-outputs"): "b a d c f e g",
    (_two_outputs, "depth-first", "from-inputs"): "a c b e o2 k d o1",
    (_two_outputs, "depth-first", "from-outputs"): "a c k b d o1 e o2",
    (_two_outputs, "breadth-first", "from-inputs"): "k a c b e d o2 o1",
    (_two_outputs, "breadth-first", "from-outputs"): "a b k e d c o2 o1",
}


@pytest.mark.parametrize("case", list(CASES), ids=lambda c: f"{c[0].__name__}-{c[1]}-{c[2]}")
def test_orders(case):
    build, order, direction = case
    mod, block = build()
    out = TopologicalSort(order, direction)(mod)
    names = [b.var.name_hint for b in out["main"].body.blocks[block].bindings]
    assert names == CASES[case].split()
    assert relax.analysis.well_formed(out)


def test_default_is_depth_first_from_inputs_and_values_do_not_change():
    mod, _ = _two_outputs()
    out = TopologicalSort()(mod)
    names = [b.var.name_hint for b in out["main"].body.blocks[1].bindings]
    assert names == CASES[(_two_outputs, "depth-first", "from-inputs")].split()
    data = [np.array([1.0, 2.0], "float32") * (i + 1) for i in range(3)]

    def run(m):
        vm = relax.VirtualMachine(tvm.compile(m, target="llvm"), tvm.cpu())
        return [t.numpy() for t in vm["main"](*data)]

    for got, want in zip(run(out), run(mod)):
        np.testing.assert_allclose(got, want)


def test_sorted_block_comes_back_unchanged():
    mod, _ = _chain()
    once = TopologicalSort()(mod)
    assert TopologicalSort()(once) is once


def test_bad_arguments():
    with pytest.raises(ValueError, match='traversal order: "x".  Allowed values are'):
        TopologicalSort("x")
    with pytest.raises(ValueError, match='starting location: "y".  Allowed values are'):
        TopologicalSort("depth-first", "y")
