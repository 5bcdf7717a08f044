# relax.op.where / argmax / argmin struct info as upstream infers it: an unknown value dtype
# makes the result's unknown, only literal shapes broadcast, a shared shape variable is kept,
# and a full reduction of a tensor of unknown rank is a scalar.
import pytest
from tvm import relax
from tvm.ir import VDevice
from tvm.script import relax as R


def _sinfo(call):
    return relax.BlockBuilder().normalize(call).struct_info


def test_where_dtype_and_condition():
    cond = relax.Var("c", R.Tensor((2, 3), "bool"))
    x, y = relax.Var("x", R.Tensor((2, 3), "float32")), relax.Var("y", R.Tensor((2, 3)))
    out = _sinfo(relax.op.where(cond, x, y))
    assert out.dtype == "void" and [int(d) for d in out.shape.values] == [2, 3]
    with pytest.raises(TypeError, match="where: condition must be a bool tensor, got dtype void"):
        _sinfo(relax.op.where(relax.Var("c", R.Tensor((2, 3))), x, x))


def test_where_shapes_from_variables():
    known = relax.Var("s", relax.ShapeStructInfo((2, 3)))
    other = relax.Var("t", relax.ShapeStructInfo((2, 3)))
    cond = relax.Var("c", relax.TensorStructInfo(known, "bool"))
    x = relax.Var("x", relax.TensorStructInfo(known, "float32"))
    y = relax.Var("y", relax.TensorStructInfo(other, "float32"))
    assert _sinfo(relax.op.where(cond, x, x)).shape.same_as(known)
    out = _sinfo(relax.op.where(cond, x, y))
    assert out.shape is None and out.ndim == 2


def test_where_keeps_vdevice_and_rejects_a_mismatch():
    llvm = VDevice("llvm")
    cond = relax.Var("c", R.Tensor((2,), "bool", llvm))
    x = relax.Var("x", R.Tensor((2,), "float32", llvm))
    assert _sinfo(relax.op.where(cond, x, x)).vdevice.same_as(llvm)
    other = relax.Var("x", R.Tensor((2,), "float32", VDevice("llvm", 1)))
    with pytest.raises(ValueError, match="where: condition is on VDevice"):
        _sinfo(relax.op.where(cond, other, other))


def test_arg_reduction_of_unknown_rank():
    x = relax.Var("x", R.Tensor("float32", ndim=-1))
    for op in (relax.op.argmax, relax.op.argmin):
        assert len(_sinfo(op(x)).shape.values) == 0
        assert _sinfo(op(x, keepdims=True)).ndim == -1
        assert _sinfo(op(x, axis=1)).ndim == -1
