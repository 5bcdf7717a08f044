# tvm.relax.dpl: the dataflow pattern language: each pattern kind matches what upstream's does
# (calls, commutative add/multiply, constants, vars, tuples, properties, attributes), bound
# variables are looked through with var2val, extract_matched_expr reports every sub-match,
# and bad input is a TypeError naming the function and the argument.
import numpy as np
import pytest
from tvm import relax
from tvm.relax.dpl import (
    AndPattern,
    CallPattern,
    ConstantPattern,
    DFPattern,
    ExprPattern,
    NotPattern,
    OrPattern,
    PrimArrPattern,
    StructInfoPattern,
    TupleGetItemPattern,
    TuplePattern,
    TypePattern,
    VarPattern,
    WildcardPattern,
    has_attr,
    has_dtype,
    has_shape,
    is_call_dps_packed,
    is_call_tir,
    is_const,
    is_dfv,
    is_expr,
    is_gv,
    is_op,
    is_shape,
    is_tuple,
    is_tuple_get_item,
    is_var,
    make_fused_bias_activation_pattern,
    wildcard,
)
from tvm.script import relax as R

x = relax.Var("x", relax.TensorStructInfo((2, 3), "float32"))
y = relax.Var("y", relax.TensorStructInfo((2, 3), "float32"))
c = relax.const(np.ones((2, 3), "float32"))


def test_call_pattern_matches_op_and_args():
    pat = is_op("relax.add")(wildcard(), wildcard())
    assert isinstance(pat, CallPattern) and isinstance(pat.op, ExprPattern)
    assert pat.match(relax.op.add(x, y))
    assert not pat.match(relax.op.subtract(x, y))
    assert not is_op("relax.add")(wildcard()).match(relax.op.add(x, y))  # arity differs
    assert is_op("relax.add")(wildcard(), varg_default_wildcard=True).match(relax.op.add(x, y))
    assert not is_op("relax.exp")(is_var("y")).match(relax.op.exp(x))


def test_commutative_ops_match_either_order():
    assert is_op("relax.add")(is_const(), is_var("x")).match(relax.op.add(x, c))
    assert is_op("relax.multiply")(is_const(), is_var("x")).match(relax.op.multiply(x, c))
    assert not is_op("relax.subtract")(is_const(), is_var("x")).match(relax.op.subtract(x, c))


def test_a_pattern_used_twice_matches_one_expression():
    w = wildcard()
    pat = is_op("relax.add")(w, w)
    assert pat.match(relax.op.add(x, x))
    assert not pat.match(relax.op.add(x, y))


def test_patterns_are_immutable_so_none_can_contain_itself():
    # Mutated into a cycle, repr, dup and matching recursed without end (RecursionError).
    pat = is_op("relax.add")(wildcard(), wildcard())
    with pytest.raises(TypeError):
        pat.args[0] = pat
    either = wildcard() | wildcard()
    with pytest.raises(AttributeError, match="OrPattern.left cannot be reassigned"):
        either.left = either
    with pytest.raises(AttributeError, match="cannot be deleted"):
        del either.right
    assert repr(pat) == "relax.add(*, *)" and pat.dup().match(relax.op.add(x, y))


def test_leaf_patterns():
    assert is_const().match(c) and not is_const().match(x)
    assert is_var("x").match(x) and not is_var("y").match(x) and is_var().match(x)
    dv = relax.DataflowVar("d", relax.TensorStructInfo((2,), "float32"))
    assert is_dfv().match(dv) and is_dfv("d").match(dv) and not is_dfv().match(x)
    gv = relax.GlobalVar("my_func")
    assert is_gv("my_func").match(gv) and is_gv("my").match(gv) and not is_gv("other").match(gv)
    assert is_expr(x).match(x) and not is_expr(x).match(y)
    assert wildcard().match(x) and isinstance(wildcard(), WildcardPattern)


def test_tuple_patterns():
    tup = relax.Tuple([x, c])
    assert is_tuple([is_var(), is_const()]).match(tup)
    assert not is_tuple([is_const(), is_var()]).match(tup)
    assert is_tuple([is_const(), is_var()], unordered=True).match(tup)
    assert not is_tuple([wildcard()]).match(tup)
    item = relax.TupleGetItem(tup, 1)
    assert isinstance(is_tuple_get_item(wildcard(), 1), TupleGetItemPattern)
    assert is_tuple_get_item(wildcard(), 1).match(item)
    assert not is_tuple_get_item(wildcard(), 0).match(item)
    assert is_tuple_get_item(wildcard()).match(item)  # any index


def test_or_and_not():
    either = is_const() | is_var()
    both = is_const() & is_var()
    assert isinstance(either, OrPattern) and isinstance(both, AndPattern)
    assert either.match(x) and either.match(c) and not both.match(x)
    assert isinstance(~is_const(), NotPattern)
    assert (~is_const()).match(x) and not (~is_const()).match(c)


def test_properties_of_struct_info():
    assert has_dtype("float32").match(x) and not has_dtype("int32").match(x)
    assert wildcard().has_dtype("float32").match(x)
    assert wildcard().has_shape([2, 3]).match(x) and not wildcard().has_shape([3, 2]).match(x)
    assert has_shape([2, 3]).match(x)
    sinfo = wildcard().has_struct_info(relax.TensorStructInfo((2, 3), "float32"))
    assert isinstance(sinfo, StructInfoPattern) and StructInfoPattern is TypePattern
    assert sinfo.match(x)
    assert wildcard().has_struct_info(relax.TensorStructInfo(dtype="float32", ndim=2)).match(x)
    assert not wildcard().has_struct_info(relax.TensorStructInfo((2, 4), "float32")).match(x)
    assert isinstance(is_shape([2, 3]), PrimArrPattern)
    assert is_shape([2, 3]).match(relax.ShapeExpr([2, 3]))
    assert not is_shape([2, 4]).match(relax.ShapeExpr([2, 3]))


def test_attribute_patterns():
    call = relax.op.sum(x, axis=[1], keepdims=True)
    assert is_op("relax.sum")(wildcard()).has_attr({"keepdims": True}).match(call)
    assert not is_op("relax.sum")(wildcard()).has_attr({"keepdims": False}).match(call)
    assert has_attr({"axis": [1]}).match(call)
    assert not has_attr({"no_such_attr": 1}).match(call)
    assert not has_attr({"keepdims": True}).match(x)

    @R.function
    def f(a: R.Tensor((2,), "float32")):
        R.func_attr({"Composite": "x.y"})
        return a

    assert has_attr({"Composite": "x.y"}).match(f)
    assert not has_attr({"Composite": "x.z"}).match(f)


def test_var2val_looks_through_bindings():
    e = relax.op.exp(x)
    call = relax.op.add(x, y)
    pat = is_op("relax.add")(wildcard(), is_op("relax.exp")(wildcard()))
    assert not pat.match(call)
    assert pat.match(call, var2val={y: e})
    matched = pat.extract_matched_expr(call, var2val={y: e})
    assert matched[pat] is call
    assert matched[pat.args[1]] is e  # the bound value, not the variable
    assert matched[pat.args[0]] is x
    assert matched[pat.op].name == "relax.add"
    assert pat.extract_matched_expr(relax.op.add(x, x)) is None


def test_dps_call_patterns():
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            out = bb.emit(relax.call_tir(relax.GlobalVar("tir_exp"), [x], x.struct_info))
            packed = bb.emit(relax.call_dps_packed("my_ext", [x], x.struct_info))
            bb.emit_output(relax.Tuple([out, packed]))
        bb.emit_func_output(out)
    var2val = relax.analysis.get_var2val(bb.get()["main"])
    call_tir = var2val[out]
    assert is_call_tir("tir_exp").match(call_tir)
    assert is_call_tir("tir_exp", [is_var("x")]).match(call_tir)
    assert not is_call_tir("tir_exp", [is_const()]).match(call_tir)
    assert not is_call_tir("other").match(call_tir)
    assert is_call_dps_packed("my_ext").match(var2val[packed])
    assert not is_call_dps_packed("my_ext").match(call_tir)


def test_dup_gives_a_separate_pattern():
    w = wildcard()
    pat = is_op("relax.add")(w, w)
    copy = pat.dup()
    assert copy is not pat and copy.args[0] is not w
    assert copy.args[0] is copy.args[1]  # shared sub-patterns stay shared
    assert copy.match(relax.op.add(x, x)) and not copy.match(relax.op.add(x, y))


def test_fused_bias_activation_pattern():
    pat = make_fused_bias_activation_pattern(
        "relax.matmul", with_bias=True, activation="relax.nn.relu"
    )
    w = relax.Var("w", relax.TensorStructInfo((3, 3), "float32"))
    b = relax.Var("b", relax.TensorStructInfo((3,), "float32"))
    assert pat.match(relax.op.nn.relu(relax.op.add(relax.op.matmul(x, w), b)))
    assert not pat.match(relax.op.nn.relu(relax.op.matmul(x, w)))


def test_pattern_classes_are_dfpatterns():
    for p in (wildcard(), is_const(), is_var(), is_tuple([]), is_op("relax.add")):
        assert isinstance(p, DFPattern)
    assert isinstance(is_const(), ConstantPattern) and isinstance(is_var(), VarPattern)
    assert isinstance(is_tuple([wildcard()]), TuplePattern)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: is_op(3), "is_op: op_name must be"),
        (lambda: is_var(1), "is_var: name must be a str"),
        (lambda: wildcard().match(3), "DFPattern.match: expr must be a relax Expr"),
        (lambda: wildcard().match(x, var2val=[1]), "DFPattern.match: var2val must be a dict"),
        (lambda: has_dtype(5), "DataTypePattern: dtype must be a str"),
        (lambda: is_op("relax.add")(3), r"CallPattern: args\[0\] must be a DFPattern"),
        (lambda: is_tuple(wildcard()), "is_tuple: fields must be a list of DFPatterns"),
        (lambda: wildcard().has_shape("2x3"), "ShapePattern: shape must be a list"),
        (lambda: has_attr([1]), "AttrPattern: attrs must be a dict"),
        (lambda: is_call_tir("f", 3), "is_call_tir: args must be"),
        (lambda: wildcard().has_struct_info(3), "StructInfoPattern: struct_info must be"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_unknown_op_name():
    with pytest.raises(Exception, match="relax.no_such_op"):
        is_op("relax.no_such_op")


def test_one_op_pattern_shared_by_two_calls():
    add = is_op("relax.add")
    pat = add(add(wildcard(), wildcard()), wildcard())
    assert pat.match(relax.op.add(relax.op.add(x, y), x))
    assert not pat.match(relax.op.add(relax.op.multiply(x, y), x))
