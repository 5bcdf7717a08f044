# The Relax BlockBuilder: function and dataflow scopes, emit/match_cast/outputs, normalisation,
# emit_te into private PrimFuncs, name deduplication and the errors of misuse.
import numpy as np
import pytest
import tvm
from tvm import relax, te, tir, topi
from tvm.relax import op as R


def _tensor(shape, dtype="float32"):
    return relax.TensorStructInfo(shape, dtype)


def test_function_with_dataflow_block_and_symbolic_shapes():
    n = tir.Var("n", "int64")
    x = relax.Var("x", _tensor([n, 4]))
    w = relax.Var("w", _tensor([4, 8]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w]):
        with bb.dataflow():
            lv = bb.emit(R.matmul(x, w))
            gv = bb.emit_output(R.nn.relu(lv))
        gvar = bb.emit_func_output(gv)
    mod = bb.get()
    func = mod["main"]
    assert gvar.name_hint == "main" and func.attrs["global_symbol"] == "main"
    assert func.ret_struct_info.shape.values[0] is n
    (block, *rest) = func.body.blocks
    assert isinstance(block, relax.DataflowBlock) and not rest
    assert isinstance(block.bindings[0].var, relax.DataflowVar)
    assert type(block.bindings[1].var) is relax.Var and func.body.body is gv
    assert [int(d) for d in lv.struct_info.shape.values[1:]] == [8]


def test_normalize_binds_nested_calls_to_variables():
    x = relax.Var("x", _tensor([2, 3]))
    bb = relax.BlockBuilder()
    with bb.function("f", [x]):
        out = bb.emit(R.add(R.exp(x), R.multiply(x, x)))
        bb.emit_func_output(out)
    bindings = bb.get()["f"].body.blocks[0].bindings
    assert [b.value.op.name for b in bindings] == ["relax.exp", "relax.multiply", "relax.add"]
    assert bindings[2].value.args == (bindings[0].var, bindings[1].var)
    assert all(relax.normalizer.is_leaf(a) for b in bindings for a in b.value.args)


def test_normalize_outside_a_function_infers_struct_info():
    x = relax.Var("x", _tensor([2, 3]))
    call = relax.BlockBuilder().normalize(R.sum(x, axis=0, keepdims=True))
    assert [int(d) for d in call.struct_info.shape.values] == [1, 3]


def test_names_are_deduplicated():
    x = relax.Var("x", _tensor([4]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        a = bb.emit(R.exp(x))
        b = bb.emit(R.exp(a))
        c = bb.emit(R.exp(b), name_hint="y")
        d = bb.emit(R.exp(c), name_hint="y")
        e1 = bb.emit_te(topi.exp, d)
        e2 = bb.emit_te(
            lambda t: te.compute(t.shape, lambda i: t[i] * 2.0, "twice"),
            e1,
            primfunc_name_hint="exp",
        )
        bb.emit_func_output(e2)
    assert [v.name_hint for v in (a, b, c, d)] == ["gv", "gv1", "y", "y1"]
    assert [gv.name_hint for gv in bb.get().get_global_vars()] == ["exp", "exp1", "main"]


def test_emit_te_adds_a_private_prim_func_called_through_call_tir():
    n = tir.Var("n", "int64")
    x = relax.Var("x", _tensor([n, 3]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        out = bb.emit_te(topi.add, x, x)
        again = bb.emit_te(topi.add, out, out)
        bb.emit_func_output(again)
    mod = bb.get()
    assert len(mod.get_global_vars()) == 2  # the equal PrimFunc is added once
    call = mod["main"].body.blocks[0].bindings[0].value
    assert call.op.name == "relax.call_tir" and call.args[0].name_hint == "add"
    prim = mod["add"]
    assert isinstance(prim, tvm.tir.PrimFunc) and "global_symbol" not in prim.attrs
    assert out.struct_info.shape.values[0] is n
    lib = tvm.compile(tvm.IRModule({"main": prim.with_attr("global_symbol", "main")}))
    a, o = np.random.rand(5, 3).astype("float32"), np.zeros((5, 3), "float32")
    lib(a, o)
    np.testing.assert_allclose(o, a + a)


def test_emit_te_passes_output_only_symbolic_dims_as_tir_vars():
    m = tir.Var("m", "int64")
    x = relax.Var("x", _tensor([4]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, relax.Var("s", relax.ShapeStructInfo([m]))]):
        out = bb.emit_te(lambda t: te.compute((m,), lambda i: t[0] + 1.0, "fill"), x)
        bb.emit_func_output(out)
    call = bb.get()["main"].body.blocks[0].bindings[0].value
    assert len(call.args) == 3 and call.args[2].values[0] is m
    assert bb.get()["lambda"].params[-1] is m  # a lambda names its PrimFunc "lambda"


def test_match_cast_defines_new_symbolic_dims():
    x = relax.Var("x", relax.TensorStructInfo(ndim=1, dtype="float32"))
    m = tir.Var("m", "int64")
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        y = bb.match_cast(x, _tensor([m]))
        z = bb.emit(R.add(y, y))
        bb.emit_func_output(z)
    func = bb.get()["main"]
    assert isinstance(func.body.blocks[0].bindings[0], relax.MatchCast)
    assert z.struct_info.shape.values[0] is m
    # m is not defined by the parameters: the result's dims are erased to its ndim.
    assert func.ret_struct_info.shape is None and func.ret_struct_info.ndim == 1


def test_private_function_has_no_global_symbol_and_calls_derive_shapes():
    n = tir.Var("n", "int64")
    p = relax.Var("p", _tensor([n]))
    bb = relax.BlockBuilder()
    with bb.function("helper", [p], private=True):
        bb.emit_func_output(bb.emit(R.exp(p)))
    x = relax.Var("x", _tensor([7]))
    with bb.function("main", [x]):
        helper = bb.get().get_global_var("helper")
        out = bb.emit(relax.Call(helper, [x]))
        bb.emit_func_output(out)
    assert "global_symbol" not in bb.get()["helper"].attrs
    assert int(out.struct_info.shape.values[0]) == 7


def test_if_branches_become_seq_exprs_with_their_lca():
    c = relax.Var("c", relax.TensorStructInfo([], "bool"))
    x = relax.Var("x", _tensor([3]))
    bb = relax.BlockBuilder()
    with bb.function("main", [c, x]):
        out = bb.emit(relax.If(c, R.exp(x), R.reshape(x, [1, 3])))
        bb.emit_func_output(out)
    node = bb.get()["main"].body.blocks[0].bindings[0].value
    assert isinstance(node.true_branch, relax.SeqExpr)
    assert node.true_branch.blocks[0].bindings[0].value.op.name == "relax.exp"
    assert out.struct_info.ndim == -1 and out.struct_info.dtype == "float32"


def test_misuse_is_reported():
    x = relax.Var("x", _tensor([3]))
    bb = relax.BlockBuilder()
    with pytest.raises(RuntimeError, match="outside the dataflow block"):
        with bb.function("main", [x]):
            with bb.dataflow():
                bb.emit_func_output(bb.emit(R.exp(x)))
    bb = relax.BlockBuilder()
    with pytest.raises(RuntimeError, match="ended without emit_func_output"):
        with bb.function("main", [x]):
            bb.emit(R.exp(x))
    with pytest.raises(RuntimeError, match="only inside `with bb.dataflow"):
        with relax.BlockBuilder().function("main", [x]) as scope:
            scope._bb.emit_output(x)
    with pytest.raises(RuntimeError, match="no block is open"):
        relax.BlockBuilder().emit(R.exp(x))
    with pytest.raises(ValueError, match="variable 'u' has no struct info"):
        relax.BlockBuilder().normalize(R.exp(relax.Var("u")))
    with pytest.raises(ValueError, match="call_te: argument 'v' must have a known shape"):
        v = relax.Var("v", relax.TensorStructInfo(ndim=1))
        relax.BlockBuilder().call_te(topi.exp, v)


def test_params_at_emit_func_output_and_current():
    x = relax.Var("x", _tensor([2]))
    bb = relax.BlockBuilder()
    assert relax.BlockBuilder.current() is None
    with bb.function("main"):
        assert relax.BlockBuilder.current() is bb
        bb.emit_func_output(x, params=[x])
    assert bb.get()["main"].params == (x,)
