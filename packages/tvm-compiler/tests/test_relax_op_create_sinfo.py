# relax.op creation ops as upstream infers and checks them: full's scalar fill value and its
# vdevice, shapes given as a shape variable kept symbolic, required dtypes, constant float
# arange lengths, and a bare int/PrimExpr refused as a shape.
import pytest
from tvm import relax, tir
from tvm.ir import VDevice
from tvm.script import relax as R


def _sinfo(call):
    return relax.BlockBuilder().normalize(call).struct_info


def test_full_fill_value_must_be_0d_and_gives_the_vdevice():
    llvm = VDevice("llvm")
    out = _sinfo(relax.op.full((2, 3), relax.Var("v", R.Tensor((), "float32", llvm))))
    assert out.vdevice.same_as(llvm) and out.dtype == "float32"
    for bad in (R.Tensor((1,), "float32"), R.Tensor("float32")):
        with pytest.raises(ValueError, match="full: fill_value must be a 0-d"):
            _sinfo(relax.op.full((2, 3), relax.Var("v", bad)))
        with pytest.raises(ValueError, match="full_like: fill_value must be a 0-d"):
            _sinfo(
                relax.op.full_like(relax.Var("x", R.Tensor((2,), "float32")), relax.Var("v", bad))
            )


def test_shape_variable_stays_symbolic():
    s = relax.Var("s", relax.ShapeStructInfo(ndim=2))
    for out in (_sinfo(relax.op.ones(s, "int8")), _sinfo(relax.op.zeros(s, "float32"))):
        assert out.shape.same_as(s) and out.ndim == 2


def test_shape_and_dtype_arguments():
    with pytest.raises(TypeError, match="reshape: shape must be a tuple/list of dims"):
        relax.op.reshape(relax.Var("x", R.Tensor((2, 3), "float32")), 6)
    with pytest.raises(TypeError, match="ones: shape must be a tuple/list of dims"):
        relax.op.ones(tir.Var("m", "int64"), "float32")
    with pytest.raises(TypeError):
        relax.op.zeros((2, 3))  # dtype is required, as upstream
    with pytest.raises(ValueError, match="ones: dtype must be a concrete dtype"):
        relax.op.ones((2, 3), "")


def test_arange_length_of_float_constants():
    assert [int(d) for d in _sinfo(relax.op.arange(10.0)).shape.values] == [10]
    assert [int(d) for d in _sinfo(relax.op.arange(0, 20, 2.5)).shape.values] == [8]
    assert [int(d) for d in _sinfo(relax.op.arange(1, 10, 2.3)).shape.values] == [4]
    assert _sinfo(relax.op.arange(1, 10, 2.3)).dtype == "float32"
