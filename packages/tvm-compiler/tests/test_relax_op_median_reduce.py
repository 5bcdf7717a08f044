# relax.op.median (struct info as upstream infers it; legalised values against NumPy's lower
# median) and the reductions' full-reduction shapes and scan ops' axis type.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.script import relax as R


def _sinfo(call):
    return relax.BlockBuilder().normalize(call).struct_info


def _run(x_sinfo, make, x):
    p = relax.Var("x", x_sinfo)
    bb = relax.BlockBuilder()
    with bb.function("main", [p]):
        out = bb.emit(make(p))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    res = vm["main"](tvm.runtime.tensor(x))
    return [r.numpy() for r in res] if isinstance(res, (list, tuple)) else res.numpy()


def test_median_struct_info():
    x = relax.Var("x", R.Tensor((2, 3, 4), "float32"))
    assert len(_sinfo(relax.op.median(x)).shape.values) == 0
    vals, idx = _sinfo(relax.op.median(x, axis=1)).fields
    assert [int(d) for d in vals.shape.values] == [2, 4] and idx.dtype == "int64"
    vals, _ = _sinfo(relax.op.median(x, axis=[-1], keepdims=True)).fields
    assert [int(d) for d in vals.shape.values] == [2, 3, 1]
    unknown = relax.Var("u", R.Tensor("float32"))
    assert len(_sinfo(relax.op.median(unknown)).shape.values) == 0
    assert [f.ndim for f in _sinfo(relax.op.median(unknown, keepdims=True)).fields] == [-1, -1]
    with pytest.raises(ValueError, match="median: axis must name one axis"):
        relax.op.median(x, axis=[0, 1])
    with pytest.raises(TypeError, match="median: argument 'x' must be a tensor"):
        _sinfo(relax.op.median(relax.Var("s", relax.ShapeStructInfo((2,)))))


def test_median_values():
    x = np.random.default_rng(0).standard_normal((3, 5, 4)).astype("float32")
    lower = np.sort(x.reshape(-1))[(x.size - 1) // 2]
    got = _run(R.Tensor((3, 5, 4), "float32"), relax.op.median, x)
    np.testing.assert_allclose(got, lower)
    got = _run(R.Tensor((3, 5, 4), "float32"), lambda p: relax.op.median(p, keepdims=True), x)
    assert got.shape == (1, 1, 1)
    for axis, keep in ((1, False), (2, True)):
        vals, idx = _run(
            R.Tensor((3, 5, 4), "float32"), lambda p, a=axis, k=keep: relax.op.median(p, a, k), x
        )
        n = x.shape[axis]
        ref = np.take(np.sort(x, axis), [(n - 1) // 2], axis)
        ref_idx = np.take(np.argsort(x, axis, kind="stable"), [(n - 1) // 2], axis)
        if not keep:
            ref, ref_idx = ref.squeeze(axis), ref_idx.squeeze(axis)
        np.testing.assert_allclose(vals, ref)
        np.testing.assert_array_equal(idx, ref_idx)


def test_full_reduction_is_a_scalar_whatever_the_rank():
    for sinfo in (R.Tensor("float32"), relax.TensorStructInfo(relax.Var("s", R.Shape(ndim=3)))):
        x = relax.Var("x", sinfo)
        assert len(_sinfo(relax.op.sum(x)).shape.values) == 0
    x = relax.Var("x", relax.TensorStructInfo(relax.Var("s", R.Shape(ndim=3)), "float32"))
    assert [int(d) for d in _sinfo(relax.op.max(x, keepdims=True)).shape.values] == [1, 1, 1]


def test_scan_axis_must_be_an_int():
    x = relax.Var("x", R.Tensor((3, 4), "float32"))
    for op in (relax.op.cumsum, relax.op.cumprod):
        with pytest.raises(TypeError, match="axis must be an int or None, got Var"):
            op(x, x)
        assert op(x, np.int64(1)).attrs.axis == 1
