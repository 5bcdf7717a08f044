# relax.transform.Normalize: hand-built functions get struct info and A-normal form; a module
# already normal comes back as itself.
import tvm
from tvm import relax, tir
from tvm.relax import op as R
from tvm.relax.analysis import well_formed


def test_normalize_fills_struct_info_and_binds_nested_calls():
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo([n, 3], "float32"))
    y = relax.Var("y")  # no struct info yet
    block = relax.BindingBlock([relax.VarBinding(y, R.add(R.exp(x), x))])
    func = relax.Function([x], relax.SeqExpr([block], y), relax.TensorStructInfo(ndim=2))
    mod = tvm.IRModule({"main": func})
    assert not well_formed(mod)
    out = relax.transform.Normalize()(mod)
    assert well_formed(out)
    bindings = out["main"].body.blocks[0].bindings
    assert [b.value.op.name for b in bindings] == ["relax.exp", "relax.add"]
    assert y.struct_info.shape.values[0] is n
    assert relax.transform.Normalize()(out) is out


def test_normalize_makes_if_branches_seq_exprs():
    c = relax.Var("c", relax.PrimStructInfo("bool"))
    x = relax.Var("x", relax.TensorStructInfo([2], "float32"))
    func = relax.Function([c, x], relax.If(c, R.exp(x), x), relax.TensorStructInfo([2]))
    out = relax.transform.Normalize()(tvm.IRModule({"main": func}))
    node = out["main"].body.body
    if isinstance(node, relax.Var):
        node = out["main"].body.blocks[-1].bindings[-1].value
    assert isinstance(node.true_branch, relax.SeqExpr) and isinstance(
        node.false_branch, relax.SeqExpr
    )
    assert well_formed(out)


def test_legalized_module_is_well_formed():
    x = relax.Var("x", relax.TensorStructInfo([2, 3], "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            gv = bb.emit_output(R.sum(R.nn.relu(x), axis=1))
        bb.emit_func_output(gv)
    mod = relax.transform.LegalizeOps()(bb.get())
    assert well_formed(mod)
