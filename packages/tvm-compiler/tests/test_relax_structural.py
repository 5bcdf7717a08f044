# Structural equality and hashing of Relax: Vars and symbolic dimensions match up to renaming.
import numpy as np
import tvm
from tvm import relax, tir


def _identity_fn(shape_of, names=("x", "y")):
    """fn(x: shape_of(n), y: shape_of(n)) -> the tuple (y, x), with fresh variables."""
    n = tir.Var("n", "int64")
    x = relax.Var(names[0], relax.TensorStructInfo(shape_of(n), "float32"))
    y = relax.Var(names[1], relax.TensorStructInfo(shape_of(n), "float32"))
    t = relax.Var("t", relax.TupleStructInfo([y.struct_info, x.struct_info]))
    block = relax.BindingBlock([relax.VarBinding(t, relax.Tuple([y, x]))])
    return relax.Function([x, y], relax.SeqExpr([block], t))


def test_functions_equal_up_to_renaming_of_vars_and_symbolic_dims():
    a = _identity_fn(lambda n: [n, 4])
    b = _identity_fn(lambda n: [n, 4], names=("p", "q"))
    tvm.ir.assert_structural_equal(a, b)
    assert tvm.ir.structural_hash(a) == tvm.ir.structural_hash(b)


def test_functions_with_other_shapes_differ():
    a = _identity_fn(lambda n: [n, 4])
    assert not tvm.ir.structural_equal(a, _identity_fn(lambda n: [n, 5]))
    assert not tvm.ir.structural_equal(a, _identity_fn(lambda n: [4, n]))
    assert tvm.ir.structural_hash(a) != tvm.ir.structural_hash(_identity_fn(lambda n: [n, 5]))


def test_a_shared_symbolic_dim_is_not_two_independent_ones():
    n, m = tir.Var("n", "int64"), tir.Var("m", "int64")
    k = tir.Var("k", "int64")

    def fn(d0, d1):
        x = relax.Var("x", relax.TensorStructInfo([d0, d1], "float32"))
        return relax.Function([x], relax.SeqExpr([], x))

    assert not tvm.ir.structural_equal(fn(n, n), fn(n, m))
    assert tvm.ir.structural_equal(fn(n, m), fn(k, n))


def test_swapped_uses_of_params_differ():
    def fn(swap):
        x = relax.Var("x", relax.TensorStructInfo([2], "float32"))
        y = relax.Var("y", relax.TensorStructInfo([2], "float32"))
        body = relax.Tuple([y, x] if swap else [x, y])
        return relax.Function([x, y], relax.SeqExpr([], body))

    assert not tvm.ir.structural_equal(fn(True), fn(False))
    tvm.ir.assert_structural_equal(fn(True), fn(True))


def test_free_vars_compare_by_identity_unless_mapped():
    x1 = relax.Var("x", relax.TensorStructInfo([2], "float32"))
    x2 = relax.Var("x", relax.TensorStructInfo([2], "float32"))
    assert not tvm.ir.structural_equal(relax.Tuple([x1]), relax.Tuple([x2]))
    assert tvm.ir.structural_equal(relax.Tuple([x1]), relax.Tuple([x2]), map_free_vars=True)


def test_match_cast_defines_its_symbolic_dims():
    def fn():
        x = relax.Var("x", relax.TensorStructInfo(ndim=1, dtype="float32"))
        m = tir.Var("m", "int64")
        sinfo = relax.TensorStructInfo([m], "float32")
        y = relax.Var("y", sinfo)
        block = relax.BindingBlock([relax.MatchCast(y, x, sinfo)])
        return relax.Function([x], relax.SeqExpr([block], relax.ShapeExpr([m * 2])))

    tvm.ir.assert_structural_equal(fn(), fn())


def test_constants_compare_by_content():
    a = relax.const(np.arange(4, dtype="float32"))
    assert tvm.ir.structural_equal(a, relax.const(np.arange(4, dtype="float32")))
    assert not tvm.ir.structural_equal(a, relax.const(np.arange(1, 5, dtype="float32")))
    assert not tvm.ir.structural_equal(a, relax.const(np.arange(4, dtype="int32")))
    assert tvm.ir.structural_hash(a) == tvm.ir.structural_hash(
        relax.const(np.arange(4, dtype="float32"))
    )


def test_function_attrs_are_equal_whatever_order_their_keys_were_set_in():
    a = _identity_fn(lambda n: [n, 4]).with_attr("num_input", 1).with_attr("global_symbol", "f")
    b = _identity_fn(lambda n: [n, 4]).with_attr("global_symbol", "f").with_attr("num_input", 1)
    tvm.ir.assert_structural_equal(a, b)
    assert tvm.ir.structural_hash(a) == tvm.ir.structural_hash(b)
    c = _identity_fn(lambda n: [n, 4]).with_attr("global_symbol", "f").with_attr("num_input", 2)
    assert not tvm.ir.structural_equal(a, c)


def test_a_bool_attribute_equals_its_bool_imm():
    # Upstream's attribute maps hold T.bool(True) (an IntImm) where ours hold True: a fused
    # kernel's {"tir.noalias": True} equals one parsed from {"tir.noalias": T.bool(True)}.
    body = tir.Evaluate(tir.IntImm("int32", 0))
    plain = tir.PrimFunc([], body, attrs={"tir.noalias": True})
    imm = tir.PrimFunc([], body, attrs={"tir.noalias": tir.IntImm("bool", 1)})
    tvm.ir.assert_structural_equal(plain, imm)
    assert tvm.ir.structural_hash(plain) == tvm.ir.structural_hash(imm)
    other = tir.PrimFunc([], body, attrs={"tir.noalias": tir.IntImm("bool", 0)})
    assert not tvm.ir.structural_equal(plain, other)
    one = tir.PrimFunc([], body, attrs={"tir.noalias": tir.IntImm("int32", 1)})
    assert not tvm.ir.structural_equal(plain, one)
