# relax.op.collapse_sum_like / collapse_sum_to: struct info (the target's shape, data's dtype),
# a target that does not broadcast to data refused, and legalised values against NumPy.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.ir import Op
from tvm.script import relax as R


def _sinfo(call):
    return relax.BlockBuilder().normalize(call).struct_info


def test_struct_info_and_bad_targets():
    x = relax.Var("x", R.Tensor((3, 4, 5), "float32"))
    y = relax.Var("y", R.Tensor((4, 5), "int8"))
    assert relax.op.collapse_sum_to(x, (4, 5)).op == Op.get("relax.collapse_sum_to")
    like = _sinfo(relax.op.collapse_sum_like(x, y))
    assert [int(d) for d in like.shape.values] == [4, 5] and like.dtype == "float32"
    to = _sinfo(relax.op.collapse_sum_to(x, (1, 5)))
    assert [int(d) for d in to.shape.values] == [1, 5]
    s = relax.Var("s", relax.ShapeStructInfo(ndim=2))
    assert _sinfo(relax.op.collapse_sum_to(x, s)).shape.same_as(s)
    with pytest.raises(ValueError, match=r"collapse_sum_to: the target shape \(2, 5\) does not"):
        _sinfo(relax.op.collapse_sum_to(x, (2, 5)))
    with pytest.raises(ValueError, match="collapse_sum_like: the target shape .* more axes"):
        _sinfo(relax.op.collapse_sum_like(y, x))
    with pytest.raises(TypeError, match="collapse_sum_to: argument 'shape' must be a shape"):
        _sinfo(relax.op.collapse_sum_to(x, y))


def test_values():
    a = np.random.default_rng(0).standard_normal((3, 4, 5)).astype("float32")
    x = relax.Var("x", R.Tensor((3, 4, 5), "float32"))
    y = relax.Var("y", R.Tensor((4, 1), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, y]):
        like = bb.emit(relax.op.collapse_sum_like(x, y))
        to = bb.emit(relax.op.collapse_sum_to(x, (1, 5)))
        bb.emit_func_output(relax.Tuple([like, to]))
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    got_like, got_to = vm["main"](tvm.runtime.tensor(a), tvm.runtime.tensor(np.ones((4, 1), "f4")))
    np.testing.assert_allclose(got_like.numpy(), a.sum(axis=(0, 2)).reshape(4, 1), rtol=1e-5)
    np.testing.assert_allclose(got_to.numpy(), a.sum(axis=(0, 1)).reshape(1, 5), rtol=1e-5)
