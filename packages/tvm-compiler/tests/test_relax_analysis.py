# relax.analysis: well_formed's rules (each with a module breaking it) and the struct info
# relations (base check, least common ancestor, erasing undefined symbolic dims).
import logging

import pytest
import tvm
from tvm import relax, tir
from tvm.relax import op as R
from tvm.relax.analysis import (
    erase_to_well_defined,
    struct_info_base_check,
    struct_info_lca,
    well_formed,
)


def _t(shape, dtype="float32"):
    return relax.TensorStructInfo(shape, dtype)


def _func(blocks, body, params):
    return relax.Function(params, relax.SeqExpr(blocks, body))


def _messages(caplog, obj):
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tvm.relax.analysis"):
        ok = well_formed(obj)
    return ok, " | ".join(r.getMessage() for r in caplog.records)


def test_a_builder_made_module_is_well_formed(caplog):
    n = tir.Var("n", "int64")
    x = relax.Var("x", _t([n, 2]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            lv = bb.emit(R.exp(x))
            gv = bb.emit_output(R.add(lv, x))
        bb.emit_func_output(gv)
    assert _messages(caplog, bb.get()) == (True, "")


def test_var_used_out_of_scope(caplog):
    x = relax.Var("x", _t([2]))
    stray = relax.Var("stray", _t([2]))
    y = relax.Var("y", _t([2]))
    block = relax.BindingBlock([relax.VarBinding(y, R.add(x, stray))])
    ok, text = _messages(caplog, _func([block], y, [x]))
    assert not ok and "variable 'stray' is used out of its scope" in text


def test_dataflow_var_escaping_its_block(caplog):
    x = relax.Var("x", _t([2]))
    lv = relax.DataflowVar("lv", _t([2]))
    block = relax.DataflowBlock([relax.VarBinding(lv, R.exp(x))])
    ok, text = _messages(caplog, _func([block], lv, [x]))
    assert not ok and "DataflowVar 'lv' is used outside its dataflow block" in text


def test_dataflow_var_bound_outside_a_dataflow_block(caplog):
    x = relax.Var("x", _t([2]))
    lv = relax.DataflowVar("lv", _t([2]))
    ok, text = _messages(caplog, _func([relax.BindingBlock([relax.VarBinding(lv, x)])], x, [x]))
    assert not ok and "bound outside a dataflow block" in text


def test_undefined_symbolic_var(caplog):
    n, m = tir.Var("n", "int64"), tir.Var("m", "int64")
    x = relax.Var("x", _t([n]))
    y = relax.Var("y", _t([m]))
    block = relax.BindingBlock([relax.VarBinding(y, R.reshape(x, relax.ShapeExpr([m])))])
    ok, text = _messages(caplog, _func([block], x, [x]))
    assert not ok and "symbolic variable 'm'" in text and "is not defined" in text


def test_match_cast_defines_symbolic_vars(caplog):
    m = tir.Var("m", "int64")
    x = relax.Var("x", relax.TensorStructInfo(ndim=1))
    y = relax.Var("y", _t([m]))
    blocks = [relax.BindingBlock([relax.MatchCast(y, x, _t([m]))])]
    assert _messages(caplog, _func(blocks, relax.ShapeExpr([m]), [x])) == (True, "")


def test_impure_call_in_a_dataflow_block(caplog):
    x = relax.Var("x", _t([2]))
    lv = relax.DataflowVar("lv", relax.ObjectStructInfo())
    out = relax.Var("out", _t([2]))
    call = relax.BlockBuilder().normalize(R.call_packed("side_effect", x))
    block = relax.DataflowBlock([relax.VarBinding(lv, call), relax.VarBinding(out, x)])
    ok, text = _messages(caplog, _func([block], out, [x]))
    assert not ok and "impure call of side_effect inside a dataflow block" in text


def test_nested_call_is_not_normal_form_and_unknown_global_var(caplog):
    x = relax.Var("x", _t([2]))
    y = relax.Var("y", _t([2]))
    nested = relax.Call(R.add(x, x).op, [R.exp(x), x])
    block = relax.BindingBlock([relax.VarBinding(y, nested)])
    ok, text = _messages(caplog, _func([block], y, [x]))
    assert not ok and "is not a leaf" in text
    import tvm

    z = relax.Var("z", relax.ObjectStructInfo())
    call = relax.Call(relax.GlobalVar("missing"), [x], sinfo_args=[relax.ObjectStructInfo()])
    mod = tvm.IRModule({"main": _func([relax.BindingBlock([relax.VarBinding(z, call)])], z, [x])})
    ok, text = _messages(caplog, mod)
    assert not ok and "GlobalVar @missing is not a function of the module" in text


def test_struct_info_base_check_and_lca():
    n = tir.Var("n", "int64")
    assert struct_info_base_check(relax.ObjectStructInfo(), _t([2]))
    assert struct_info_base_check(relax.TensorStructInfo(ndim=2), _t([2, 3]))
    assert struct_info_base_check(relax.TensorStructInfo(dtype=None, ndim=-1), _t([2], "int8"))
    assert not struct_info_base_check(_t([2, 3]), relax.TensorStructInfo(ndim=2))
    assert not struct_info_base_check(_t([2]), _t([3]))
    assert struct_info_base_check(_t([n]), _t([n]))
    assert _t([2]).is_base_of(_t([2]))
    lca = struct_info_lca(_t([2, 3]), _t([2, 4]))
    assert lca.ndim == 2 and lca.shape is None and lca.dtype == "float32"
    assert struct_info_lca(_t([2]), _t([2], "int32")).dtype == "void"
    assert isinstance(
        struct_info_lca(_t([2]), relax.ShapeStructInfo(ndim=1)), relax.ObjectStructInfo
    )
    tup = struct_info_lca(relax.TupleStructInfo([_t([1])]), relax.TupleStructInfo([_t([1])]))
    assert isinstance(tup, relax.TupleStructInfo)


def test_erase_to_well_defined():
    n, m = tir.Var("n", "int64"), tir.Var("m", "int64")
    erased = erase_to_well_defined(_t([n, m]), {n: n})
    assert erased.shape is None and erased.ndim == 2
    kept = erase_to_well_defined(_t([n, 2]), {n: n})
    assert kept.shape.values[0] is n
    replaced = erase_to_well_defined(_t([n * 2]), {n: tir.const(3, "int64")})
    assert int(tvm_simplify(replaced.shape.values[0])) == 6


def test_erase_to_well_defined_drops_a_shape_variable_out_of_scope():
    # A tensor whose shape is held by a Relax variable bound inside a function cannot name that
    # variable in the function's return annotation: its shape is erased, its ndim kept.
    s = relax.Var("s", relax.ShapeStructInfo(ndim=2))
    by_var = relax.TensorStructInfo(s, "float32")
    in_tuple = relax.TupleStructInfo([by_var])
    erased = erase_to_well_defined(in_tuple, {}, {})
    assert erased.fields[0].shape is None and erased.fields[0].ndim == 2
    assert erase_to_well_defined(by_var, {}, {s: s}).shape is s
    value = relax.ShapeExpr([2, 3])
    assert erase_to_well_defined(by_var, {}, {s: value}).shape is value


def test_a_function_returning_a_tensor_shaped_by_an_inner_variable_has_a_well_defined_ret():
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo([6], "float32"))
    t = relax.Var("t", relax.TensorStructInfo([2], "int64"))
    a, b = tir.Var("a", "int64"), tir.Var("b", "int64")
    with bb.function("main", [x, t]):
        shape = bb.emit(relax.op.tensor_to_shape(t))
        shape = bb.match_cast(shape, relax.ShapeStructInfo([a, b]))
        bb.emit_func_output(bb.emit(relax.op.reshape(x, shape)))
    ret = bb.get()["main"].ret_struct_info
    assert ret.shape is None and ret.ndim == 2 and ret.dtype == "float32"


def tvm_simplify(e):
    from tvm.arith import Analyzer

    return Analyzer().simplify(e)


def test_well_formed_rejects_other_objects():
    with pytest.raises(TypeError, match="well_formed: expected an IRModule or a relax Function"):
        well_formed(relax.const(1.0))


def test_normal_form_leaves_seq_body_if_condition_and_tuple_of_an_item(caplog):
    x = relax.Var("x", _t([2]))
    y = relax.Var("y", _t([2]))
    ok, text = _messages(caplog, _func([], R.add(x, y), [x, y]))
    assert not ok and "the body of a SeqExpr is a Call, not a leaf" in text

    c = relax.Var("c", relax.TensorStructInfo([], "bool"))
    item = relax.TupleGetItem(relax.Tuple([c]), 0)
    cond = relax.If(item, relax.SeqExpr([], x), relax.SeqExpr([], x))
    r = relax.Var("r", _t([2]))
    ok, text = _messages(
        caplog, _func([relax.BindingBlock([relax.VarBinding(r, cond)])], r, [x, c])
    )
    assert not ok and "the condition of an If is a TupleGetItem, not a leaf" in text

    t = relax.Var("t", relax.TupleStructInfo([relax.TupleStructInfo([_t([2])])]))
    nested = relax.TupleGetItem(relax.TupleGetItem(t, 0), 0)
    ok, text = _messages(caplog, _func([relax.BindingBlock([relax.VarBinding(r, nested)])], r, [t]))
    assert not ok and "the tuple of a TupleGetItem is a TupleGetItem, not a leaf" in text


def test_a_symbolic_var_shared_by_two_functions(caplog):
    # Upstream: each function defines its own symbolic vars; one tir Var in two is malformed.
    n = tir.Var("n", "int64")
    x, y = relax.Var("x", _t([n])), relax.Var("y", _t([n]))
    mod = tvm.IRModule({"f": _func([], x, [x]), "g": _func([], y, [y])})
    ok, text = _messages(caplog, mod)
    assert not ok and "g: symbolic variable 'n' is also used in function f" in text
    m = tir.Var("n", "int64")  # the same name, another var: well formed
    z = relax.Var("z", _t([m]))
    assert _messages(caplog, tvm.IRModule({"f": _func([], x, [x]), "g": _func([], z, [z])})) == (
        True,
        "",
    )
