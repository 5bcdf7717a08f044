# Struct info of relax binary ops as upstream infers it: PrimValue operands, dtypes, shape vars.
import pytest
import tvm
from tvm import relax, tir
from tvm.script import relax as R


def _infer(call):
    return relax.BlockBuilder().normalize(call).struct_info


def _var(name, sinfo):
    return relax.Var(name, sinfo)


def test_tensor_and_prim_value_broadcast_as_shape_one():
    x = _var("x", R.Tensor((2, 3), "float32"))
    y = _var("y", R.Prim("float32"))
    for call in (relax.op.add(x, y), relax.op.subtract(y, x)):
        tvm.ir.assert_structural_equal(_infer(call), R.Tensor((2, 3), "float32"))
    tvm.ir.assert_structural_equal(_infer(relax.op.less(y, x)), R.Tensor((2, 3), "bool"))
    scalar = _var("s", R.Tensor((), "float32"))
    tvm.ir.assert_structural_equal(_infer(relax.op.add(scalar, y)), R.Tensor((1,), "float32"))


def test_two_prim_values_give_a_prim_value():
    y = _var("y", R.Prim("float32"))
    i = _var("i", R.Prim("int32"))
    tvm.ir.assert_structural_equal(_infer(relax.op.multiply(y, y)), R.Prim("float32"))
    tvm.ir.assert_structural_equal(_infer(relax.op.greater(y, i)), R.Prim("bool"))
    with pytest.raises(TypeError, match="add: x1 has dtype float32 and x2 has dtype int32"):
        _infer(relax.op.add(y, i))


def test_unknown_dtype_makes_the_result_unknown_and_comparisons_mix_dtypes():
    x = _var("x", R.Tensor(ndim=2))
    y = _var("y", R.Tensor((2, 3), "float32"))
    tvm.ir.assert_structural_equal(_infer(relax.op.add(x, y)), R.Tensor(ndim=2))
    i = _var("i", R.Tensor((2, 3), "int32"))
    tvm.ir.assert_structural_equal(_infer(relax.op.equal(y, i)), R.Tensor((2, 3), "bool"))
    with pytest.raises(TypeError, match="x1 has dtype float32 and x2 has dtype int32"):
        _infer(relax.op.add(y, i))


def test_one_shape_variable_on_both_sides_is_kept():
    s = _var("s", relax.ShapeStructInfo(ndim=2))
    t = _var("t", relax.ShapeStructInfo(ndim=2))
    x = _var("x", relax.TensorStructInfo(s, "float32"))
    y = _var("y", relax.TensorStructInfo(s, "float32"))
    z = _var("z", relax.TensorStructInfo(t, "float32"))
    out = _infer(relax.op.add(x, y))
    assert out.shape is s and out.dtype == "float32"
    tvm.ir.assert_structural_equal(_infer(relax.op.add(x, z)), R.Tensor("float32", ndim=2))


def test_symbolic_broadcast_still_works():
    n = tir.Var("n", "int64")
    x = _var("x", R.Tensor((1, n), "float32"))
    y = _var("y", R.Tensor((4, 1), "float32"))
    tvm.ir.assert_structural_equal(_infer(relax.op.add(x, y)), R.Tensor((4, n), "float32"))


def test_operands_on_different_vdevices_are_a_value_error():
    vd0 = relax.global_info.VDevice("llvm", 0)
    vd1 = relax.global_info.VDevice("llvm", 1)
    x = _var("x", relax.TensorStructInfo((2,), "float32", vd0))
    y = _var("y", relax.TensorStructInfo((2,), "float32", vd1))
    z = _var("z", relax.TensorStructInfo((2,), "float32"))
    with pytest.raises(ValueError, match="add: x1 is on VDevice .* same VDevice"):
        _infer(relax.op.add(x, y))
    assert _infer(relax.op.add(z, x)).vdevice is vd0


def test_non_tensor_operand_is_a_type_error_naming_it():
    s = _var("s", R.Shape((2, 3)))
    x = _var("x", R.Tensor((2, 3), "float32"))
    with pytest.raises(TypeError, match="add: argument 'x1' must be a tensor or a prim value"):
        _infer(relax.op.add(s, x))
    with pytest.raises(TypeError, match="multiply: argument 'x2' must be a tensor or a prim"):
        _infer(relax.op.multiply(x, _var("o", R.Object())))
