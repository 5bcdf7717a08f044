# relax.transform.ConvertToDataflow: which bindings become dataflow blocks, which of their
# variables become DataflowVars, min_size, and that the result still computes the same values
# (block structure as apache-tvm 0.27 gives for the same programs).
import numpy as np
import pytest
import tvm
from tvm import relax, tir
from tvm.relax.transform import ConvertToDataflow

T2 = relax.TensorStructInfo((2,), "float32")


def _with_print():
    x = relax.Var("x", T2)
    bb = relax.BlockBuilder()
    with bb.function("main", [x], pure=False):
        a = bb.emit(relax.op.add(x, x))
        b = bb.emit(relax.op.multiply(a, a))
        bb.emit(relax.op.print(b, format="b"))  # impure: splits the runs
        d = bb.emit(relax.op.exp(b))
        e = bb.emit(relax.op.negative(d))
        f = bb.emit(relax.op.negative(e))
        g = bb.match_cast(f, T2)
        h = bb.emit(relax.op.add(g, a))
        bb.emit_func_output(h)
    return bb.get()


def _layout(func):
    return [
        (
            type(block).__name__,
            [(type(b).__name__, type(b.var).__name__, b.var.name_hint) for b in block.bindings],
        )
        for block in func.body.blocks
    ]


def test_runs_of_pure_bindings_become_dataflow_blocks():
    mod = _with_print()
    out = ConvertToDataflow()(mod)
    assert _layout(out["main"]) == [
        ("DataflowBlock", [("VarBinding", "Var", "gv"), ("VarBinding", "Var", "gv1")]),
        ("BindingBlock", [("VarBinding", "Var", "gv2")]),
        (
            "DataflowBlock",
            [
                ("VarBinding", "DataflowVar", "gv3"),
                ("VarBinding", "DataflowVar", "gv4"),
                ("VarBinding", "DataflowVar", "gv5"),
                ("MatchCast", "DataflowVar", "gv6"),
                ("VarBinding", "Var", "gv7"),
            ],
        ),
    ]
    assert relax.analysis.well_formed(out)
    assert "R.dataflow" not in mod.script()  # the input is untouched


def test_min_size():
    out = ConvertToDataflow(min_size=3)(_with_print())
    kinds = [kind for kind, _ in _layout(out["main"])]
    assert kinds == ["BindingBlock", "DataflowBlock"]
    assert _layout(out["main"])[0][1][0][2] == "gv"  # the run of two stayed plain
    assert ConvertToDataflow(min_size=10)(_with_print()) is not None


def test_merges_with_an_adjacent_dataflow_block_and_runs():
    x = relax.Var("x", T2)
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            a = bb.emit_output(relax.op.add(x, x))
        b = bb.emit(relax.op.multiply(a, a))
        c = bb.emit(relax.op.multiply(b, b))
        bb.emit_func_output(c)
    mod = bb.get()
    out = ConvertToDataflow()(mod)
    [(kind, bindings)] = _layout(out["main"])
    # the old block's output is now read only inside the merged block: a DataflowVar too
    assert kind == "DataflowBlock"
    assert [v for _, v, _ in bindings] == ["DataflowVar", "DataflowVar", "Var"]
    ex = tvm.compile(out, target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    data = np.array([1.0, -2.0], "float32")
    np.testing.assert_allclose(vm["main"](data).numpy(), ((data + data) ** 2) ** 2)


def test_nothing_to_convert_returns_the_same_module():
    x = relax.Var("x", T2)
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            a = bb.emit(relax.op.add(x, x))
            b = bb.emit_output(relax.op.multiply(a, a))
        bb.emit_func_output(b)
    mod = bb.get()
    assert ConvertToDataflow()(mod) is mod
    once = ConvertToDataflow()(_with_print())
    assert ConvertToDataflow()(once) is once


def test_symbolic_match_cast_and_tuples_join_the_block():
    n = tir.Var("n", "int64")
    x = relax.Var("x", T2)
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        a = bb.emit(relax.op.add(x, x))
        g = bb.match_cast(a, relax.TensorStructInfo((n,), "float32"))
        h = bb.emit(relax.op.add(g, g))
        t = bb.emit(relax.Tuple([h, a]))
        bb.emit_func_output(bb.emit(relax.TupleGetItem(t, 0)))
    out = ConvertToDataflow()(bb.get())
    [(kind, bindings)] = _layout(out["main"])
    assert kind == "DataflowBlock" and len(bindings) == 5
    assert [v for _, v, _ in bindings] == ["DataflowVar"] * 4 + ["Var"]
    assert relax.analysis.well_formed(out)


IF_PROGRAM = """
from tvm.script import relax as R

@R.function
def main(x: R.Tensor((2,), dtype="float32"), c: R.Prim("bool")) -> R.Tensor((2,), dtype="float32"):
    if c:
        a: R.Tensor((2,), dtype="float32") = R.add(x, x)
        r: R.Tensor((2,), dtype="float32") = R.multiply(a, a)
    else:
        r: R.Tensor((2,), dtype="float32") = x
    return r
"""


def test_if_branches_are_converted_but_the_if_stays_outside():
    func = tvm.script.from_source(IF_PROGRAM)
    out = ConvertToDataflow()(tvm.IRModule({"main": func}))
    outer = out["main"].body.blocks
    assert [type(blk).__name__ for blk in outer] == ["BindingBlock"]
    branch = outer[0].bindings[0].value.true_branch
    assert [type(blk).__name__ for blk in branch.blocks] == ["DataflowBlock"]
    assert [type(bnd.var).__name__ for bnd in branch.blocks[0].bindings] == ["DataflowVar", "Var"]
    # printed as upstream prints it (a dataflow block inside the branch), and read back
    text = out.script()
    assert "        if c:\n            with R.dataflow():\n" in text
    tvm.ir.assert_structural_equal(tvm.script.from_source(text), out)


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True])
def test_bad_min_size(bad):
    with pytest.raises(ValueError, match="ConvertToDataflow: min_size must be an int >= 1"):
        ConvertToDataflow(min_size=bad)
