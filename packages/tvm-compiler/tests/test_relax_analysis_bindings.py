# relax.analysis on a function's bindings: get_var2val, name_to_binding, udchain, used_vars,
# all_global_vars, post_order_visit, remove_all_unused; expected values are what apache-tvm
# 0.27 returns for the same program (its TIR variables aside: 0.27 also lists those).
import pytest
import tvm
from tvm import relax, tir
from tvm.relax import analysis as A


def _program():
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo((n, 4), "float32"))
    w = relax.Var("w", relax.TensorStructInfo((4, 4), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w], attrs={"num_input": 1}):
        with bb.dataflow():
            lv = bb.emit(relax.op.add(w, w))
            lv1 = bb.emit(relax.op.multiply(lv, w))
            lv2 = bb.emit(relax.op.matmul(x, lv1))
            bb.emit(relax.op.negative(x))  # lv3: nobody reads it
            lv4 = bb.emit(relax.op.add(lv2, lv2))
            gv = bb.emit_output(lv4)
        r = bb.emit(relax.op.reshape(gv, relax.ShapeExpr([n * 4])))
        m = tir.Var("m", "int64")
        k = bb.match_cast(r, relax.TensorStructInfo((m,), "float32"))
        bb.emit_func_output(k)
    return bb.get()["main"]


def _names(vs):
    return [v.name_hint for v in vs]


def test_get_var2val_maps_var_bindings_only():
    f = _program()
    var2val = A.get_var2val(f)
    assert sorted(v.name_hint for v in var2val) == ["gv", "gv1", "lv", "lv1", "lv2", "lv3", "lv4"]
    lv1 = next(v for v in var2val if v.name_hint == "lv1")
    assert var2val[lv1].op.name == "relax.multiply"
    assert var2val[lv1] is f.body.blocks[0].bindings[1].value


def test_name_to_binding_lists_every_binding_of_a_name():
    names = A.name_to_binding(_program())
    assert sorted(names) == ["gv", "gv1", "gv2", "lv", "lv1", "lv2", "lv3", "lv4"]
    assert isinstance(names["gv2"][0], relax.MatchCast)
    assert all(len(bs) == 1 for bs in names.values())


def test_udchain_of_a_dataflow_block():
    block = _program().body.blocks[0]
    chain = {k.name_hint: _names(v) for k, v in A.udchain(block).items()}
    assert chain == {
        "w": ["lv", "lv1"],
        "lv": ["lv1"],
        "lv1": ["lv2"],
        "x": ["lv2", "lv3"],
        "lv2": ["lv4"],
        "lv3": [],
        "lv4": ["gv"],
        "gv": [],
    }


def test_used_vars():
    f = _program()
    matmul = f.body.blocks[0].bindings[2].value
    assert _names(A.used_vars(matmul)) == ["x", "lv1"]
    # lv3 is bound but never read; parameters count where they are read
    assert sorted(_names(A.used_vars(f))) == sorted(
        ["x", "gv2", "gv1", "w", "lv", "gv", "lv1", "lv2", "lv4"]
    )


def test_all_global_vars_and_post_order_visit():
    gv = tvm.ir.GlobalVar("callee")
    x = relax.Var("x", relax.TensorStructInfo((2,), "float32"))
    call = relax.Call(gv, [x, x])
    assert A.all_global_vars(call) == [gv]
    assert A.all_global_vars(_program()) == []

    f = _program()
    seen = []
    assert A.post_order_visit(f.body.blocks[0].bindings[2].value, seen.append) is None
    assert [type(e).__name__ for e in seen] == ["Op", "Var", "DataflowVar", "Call"]
    kinds = []
    A.post_order_visit(f, lambda e: kinds.append(type(e).__name__))
    assert kinds[-1] == "Function" and kinds[-2] == "SeqExpr"


def test_remove_all_unused():
    x = relax.Var("x", relax.TensorStructInfo((2,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x], pure=False):
        bb.emit(relax.op.add(x, x))  # unread and pure: goes
        bb.emit(relax.op.print(x, format="hi"))  # unread but impure: stays
        with bb.dataflow():
            u = bb.emit(relax.op.negative(x))
            bb.emit_output(u)  # the whole block is unread: goes
        bb.emit_func_output(x)
    f = bb.get()["main"]
    out = A.remove_all_unused(f)
    assert len(out.body.blocks) == 1
    [binding] = out.body.blocks[0].bindings
    assert binding.value.op.name == "relax.print"
    assert A.remove_all_unused(out) is out  # nothing left to remove: the same function


@pytest.mark.parametrize(
    "call",
    [
        lambda: A.get_var2val(relax.const(1.0)),
        lambda: A.name_to_binding("main"),
        lambda: A.remove_all_unused(None),
    ],
)
def test_non_function_input_is_a_type_error(call):
    with pytest.raises(TypeError, match=r"(get_var2val|name_to_binding|remove_all_unused): func"):
        call()


def test_bad_inputs_name_the_function_and_argument():
    with pytest.raises(TypeError, match="udchain: dfb must be a relax DataflowBlock, got Function"):
        A.udchain(_program())
    with pytest.raises(TypeError, match="used_vars: expr must be a relax Expr, got int"):
        A.used_vars(3)
    with pytest.raises(TypeError, match="post_order_visit: fvisit must be callable"):
        A.post_order_visit(_program(), None)
