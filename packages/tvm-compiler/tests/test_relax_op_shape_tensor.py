# shape_to_tensor and tensor_to_shape: struct info (errors name the op and the argument) and a
# compiled function on the VM that turns a tensor's shape into a tensor and a tensor into a
# shape that reshapes another tensor.
import numpy as np
import pytest
import tvm
from tvm import relax, tir
from tvm.relax import op as R


def _sinfo(call):
    return relax.BlockBuilder().normalize(call).struct_info


def _v(shape, dtype="int64"):
    return relax.Var("t", relax.TensorStructInfo(shape, dtype))


def test_shape_tensor_struct_info_and_errors():
    n = tir.Var("n", "int64")
    out = _sinfo(R.shape_to_tensor(relax.ShapeExpr([n, 3, 4])))
    assert [int(d) for d in out.shape.values] == [3] and out.dtype == "int64"
    assert _sinfo(R.tensor_to_shape(_v([2]))).ndim == 2
    with pytest.raises(TypeError, match="shape_to_tensor: argument 'expr' must be a shape"):
        _sinfo(R.shape_to_tensor(_v([2])))
    with pytest.raises(ValueError, match="tensor_to_shape: argument 'expr' must be a 1-D"):
        _sinfo(R.tensor_to_shape(_v([2, 2])))
    with pytest.raises(ValueError, match="tensor_to_shape: .* must have a static length"):
        _sinfo(R.tensor_to_shape(_v([n])))
    with pytest.raises(TypeError, match="tensor_to_shape: argument 'expr' must be int64"):
        _sinfo(R.tensor_to_shape(_v([2], "float32")))


def test_shape_to_tensor_and_back_run_on_the_vm():
    if not hasattr(relax, "VirtualMachine"):
        pytest.skip("the Relax VM is not in this build yet")
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo([n, 3], "float32"))
    t = _v([2])
    bb = relax.BlockBuilder()
    with bb.function("main", [x, t]):
        dims = bb.emit(R.shape_to_tensor(R.shape_of(x)))
        shape = bb.emit(R.tensor_to_shape(t))
        a, b = tir.Var("a", "int64"), tir.Var("b", "int64")
        shape = bb.match_cast(shape, relax.ShapeStructInfo([a, b]))
        bb.emit_func_output(relax.Tuple([dims, bb.emit(R.reshape(x, shape))]))
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    data = np.arange(12, dtype="float32").reshape(4, 3)
    got_dims, reshaped = vm["main"](tvm.runtime.tensor(data), tvm.runtime.tensor(np.array([2, 6])))
    np.testing.assert_array_equal(got_dims.numpy(), [4, 3])
    np.testing.assert_array_equal(reshaped.numpy(), data.reshape(2, 6))
