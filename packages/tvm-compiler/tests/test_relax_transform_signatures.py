# relax.transform.NormalizeGlobalVar, ExpandTupleArguments and UpdateParamType: the renamed
# functions and references, expanded parameters and call sites, updated types with their
# re-inferred bindings, as apache-tvm 0.27 rewrites the same modules; values still computed.
import numpy as np
import pytest
import tvm
from tvm import relax, tir
from tvm.relax.transform import ExpandTupleArguments, NormalizeGlobalVar, UpdateParamType

T2 = relax.TensorStructInfo((2,), "float32")
T3 = relax.TensorStructInfo((3,), "float32")


def _run(mod, *args):
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    return vm["main"](*args)


def _unary(op, name="f"):
    x = relax.Var("x", T2)
    bb = relax.BlockBuilder()
    with bb.function(name, [x], private=True):
        bb.emit_func_output(bb.emit(op(x)))
    return bb.get()[name]


def test_normalize_global_var_renames_and_follows_references():
    helper_gv = tvm.ir.GlobalVar("main")  # a private function squatting on "main"
    x = relax.Var("x", T2)
    r = relax.Var("r", T2)
    body = relax.SeqExpr([relax.BindingBlock([relax.VarBinding(r, relax.Call(helper_gv, [x]))])], r)
    public = relax.Function([x], body, T2).with_attr("global_symbol", "main")
    mod = tvm.IRModule({tvm.ir.GlobalVar("foo"): public, helper_gv: _unary(relax.op.negative)})
    mod = relax.transform.Normalize()(mod)
    out = NormalizeGlobalVar()(mod)
    names = {gv.name_hint: (f.attrs or {}).get("global_symbol") for gv, f in out.functions.items()}
    assert names == {"main": "main", "main1": None}
    call = out["main"].body.blocks[0].bindings[0].value
    assert call.op.name_hint == "main1"
    data = np.array([1.0, -2.0], "float32")
    np.testing.assert_allclose(_run(out, data).numpy(), -data)
    assert NormalizeGlobalVar()(out) is out


def _tuple_helper():
    bb = relax.BlockBuilder()
    t = relax.Var("t", relax.TupleStructInfo([T2, T3]))
    with bb.function("helper", [t], private=True):
        a = bb.emit(relax.TupleGetItem(t, 0))
        b = bb.emit(relax.TupleGetItem(t, 1))
        bb.emit_func_output(relax.Tuple([relax.op.exp(a), relax.op.negative(b)]))
    h = bb.get().get_global_var("helper")
    x, y = relax.Var("x", T2), relax.Var("y", T3)
    with bb.function("main", [x, y]):
        packed = bb.emit(relax.Tuple([x, y]))
        r1 = bb.emit(relax.Call(h, [relax.Tuple([x, y])]))
        r2 = bb.emit(relax.Call(h, [packed]))  # a tuple held by a variable
        bb.emit_func_output(relax.Tuple([r1, r2]))
    return bb.get()


def test_expand_tuple_arguments():
    mod = _tuple_helper()
    # a tuple literal passed to a function prints as f((x, y)) and parses back
    tvm.ir.assert_structural_equal(tvm.script.from_source(mod.script()), mod)
    out = ExpandTupleArguments()(mod)
    assert [p.name_hint for p in out["helper"].params] == ["t_0", "t_1"]
    calls = [
        b.value
        for b in out["main"].body.blocks[0].bindings
        if isinstance(b.value, relax.Call) and isinstance(b.value.op, tvm.ir.GlobalVar)
    ]
    assert [len(c.args) for c in calls] == [2, 2]
    assert [a.name_hint for a in calls[0].args] == ["x", "y"]
    assert relax.analysis.well_formed(out)
    x, y = np.array([0.5, 1.0], "float32"), np.array([1.0, 2.0, 3.0], "float32")
    got, want = _run(out, x, y), _run(mod, x, y)
    for i in range(2):
        for j in range(2):
            np.testing.assert_allclose(got[i][j].numpy(), want[i][j].numpy(), rtol=1e-6)
    assert ExpandTupleArguments()(out) is out


def test_update_param_type():
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo((n, 4), "float32"))
    w = relax.Var("w", relax.TensorStructInfo((4, 4), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w]):
        y = bb.emit(relax.op.matmul(x, w))
        bb.emit_func_output(bb.emit(relax.op.add(y, y)))
    with bb.function("other", [w]):
        bb.emit_func_output(bb.emit(relax.op.exp(w)))
    mod = bb.get()
    seen = []

    def ty_func(var):
        seen.append(var.name_hint)
        return relax.TensorStructInfo((8, 4), "float32") if var.name_hint == "x" else None

    out = UpdateParamType(ty_func)(mod)
    assert seen == ["x", "w", "w"]  # every parameter of every function, once
    main = out["main"]
    assert str(main.params[0].struct_info) == 'R.Tensor((8, 4), dtype="float32")'
    assert str(main.ret_struct_info) == 'R.Tensor((8, 4), dtype="float32")'
    assert str(main.body.blocks[0].bindings[0].var.struct_info) == (
        'R.Tensor((8, 4), dtype="float32")'
    )
    assert out["other"] is mod["other"]
    assert UpdateParamType(lambda v: None)(mod) is mod


def test_update_param_type_errors():
    x = relax.Var("x", relax.TensorStructInfo((2, 4), "float32"))
    w = relax.Var("w", relax.TensorStructInfo((4, 4), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w]):
        bb.emit_func_output(bb.emit(relax.op.matmul(x, w)))
    mod = bb.get()
    bad = relax.TensorStructInfo((8, 5), "float32")
    with pytest.raises(ValueError, match="matmul"):
        UpdateParamType(lambda v: bad if v.name_hint == "x" else None)(mod)
    with pytest.raises(TypeError, match="UpdateParamType: ty_func must return a relax Type"):
        UpdateParamType(lambda v: 3)(mod)
    with pytest.raises(TypeError, match="UpdateParamType: ty_func must be callable"):
        UpdateParamType("x")
