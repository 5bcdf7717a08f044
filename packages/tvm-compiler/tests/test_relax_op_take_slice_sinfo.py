# relax.op.take / strided_slice struct info as upstream infers it (a PrimValue index, literal
# shapes only for take, a 1-D x required without an axis, no-axis slices keeping a shape
# variable) and a PrimValue index legalised and run.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.script import relax as R


def _sinfo(call):
    return relax.BlockBuilder().normalize(call).struct_info


def test_take_struct_info():
    x = relax.Var("x", R.Tensor((4, 10), "float32"))
    out = _sinfo(relax.op.take(x, relax.Var("i", R.Prim("int64")), axis=0))
    assert [int(d) for d in out.shape.values] == [10]
    sidx = relax.Var("s", relax.ShapeStructInfo((6,)))
    out = _sinfo(relax.op.take(x, relax.Var("i", relax.TensorStructInfo(sidx, "int64")), axis=1))
    assert out.shape is None and out.ndim == 2
    with pytest.raises(ValueError, match="take: without an axis, x must be 1-D"):
        _sinfo(
            relax.op.take(
                relax.Var("u", R.Tensor("float32")), relax.Var("i", R.Tensor((2,), "int64"))
            )
        )


def test_strided_slice_without_axes_keeps_the_shape_variable():
    s = relax.Var("s", relax.ShapeStructInfo(ndim=2))
    x = relax.Var("x", relax.TensorStructInfo(s, "float32"))
    assert _sinfo(relax.op.strided_slice(x, axes=[], begin=[], end=[])).shape.same_as(s)
    out = _sinfo(relax.op.strided_slice(x, axes=[0], begin=[0], end=[1]))
    assert out.shape is None and out.ndim == 2
    unknown = relax.Var("s", relax.ShapeStructInfo())
    y = relax.Var("y", relax.TensorStructInfo(unknown, "float32"))
    assert _sinfo(relax.op.strided_slice(y, axes=[], begin=[], end=[])).shape.same_as(unknown)
    assert _sinfo(relax.op.strided_slice(y, axes=[0], begin=[0], end=[1])).shape is None


def test_take_with_a_prim_value_index_runs():
    x = relax.Var("x", R.Tensor((4, 10), "float32"))
    i = relax.Var("i", R.Prim("int64"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, i]):
        out = bb.emit(relax.op.take(x, i, axis=1))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    a = np.arange(40, dtype="float32").reshape(4, 10)
    np.testing.assert_array_equal(vm["main"](tvm.runtime.tensor(a), 3).numpy(), a[:, 3])


def test_strided_slice_of_a_symbolic_extent():
    m = tvm.tir.Var("m", "int64")
    x = relax.Var("x", R.Tensor((m, 4), "float32"))
    one = _sinfo(relax.op.strided_slice(x, axes=[0], begin=[1], end=[3]))
    tvm.ir.assert_structural_equal(one.shape.values[0], tvm.tir.min(3, m) - tvm.tir.min(1, m))
    three = _sinfo(relax.op.strided_slice(x, axes=[0], begin=[1], end=[8], strides=[3]))
    want = (tvm.tir.min(8, m) + 2 - tvm.tir.min(1, m)) // 3
    tvm.ir.assert_structural_equal(three.shape.values[0], want)
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        out = bb.emit(relax.op.strided_slice(x, axes=[0], begin=[1], end=[8], strides=[3]))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    for rows in (0, 2, 5, 11):
        a = np.arange(rows * 4, dtype="float32").reshape(rows, 4)
        np.testing.assert_array_equal(vm["main"](tvm.runtime.tensor(a)).numpy(), a[1:8:3])


def test_strided_slice_lengths_must_agree():
    from tvm.error import InternalError

    x = relax.Var("x", R.Tensor((8, 9), "float32"))
    with pytest.raises(InternalError, match="one entry per axis, got 1, 0, 1, 1"):
        relax.op.strided_slice(x, axes=[1], begin=[], end=[9])
