# relax.op.reshape / permute_dims / expand_dims / squeeze / flatten / concat as upstream builds
# and infers them: 0 copies x's dim, malformed new shapes are InternalErrors at construction,
# a shape variable's known values become reshape's shape, identity permutations and empty
# expansions keep x's struct info, only literal shapes are permuted / expanded / joined.
import pytest
import tvm
from tvm import relax
from tvm.error import InternalError
from tvm.script import relax as R


def _sinfo(call):
    return relax.BlockBuilder().normalize(call).struct_info


def _ints(sinfo):
    return [int(d) for d in sinfo.shape.values]


def test_reshape_new_shape():
    x = relax.Var("x", R.Tensor((2, 3, 4, 5), "float32"))
    assert _ints(_sinfo(relax.op.reshape(x, (1, 3, 0, -1)))) == [1, 3, 4, 10]
    for bad in ((2.0, 3, 4, 5), (2, -1, -1, 5), (-2, -3, -4, -5)):
        with pytest.raises(InternalError, match="reshape: "):
            relax.op.reshape(x, bad)
    with pytest.raises(InternalError, match="x must have a known shape to infer"):
        relax.op.reshape(relax.Var("u", R.Tensor("float32", ndim=4)), (2, 3, -1))
    with pytest.raises(TypeError, match="reshape: the new shape must hold ints or PrimExprs"):
        relax.op.reshape(x, [relax.Var("pv", R.Prim("int64"))])


def test_reshape_to_a_shape_variable():
    x = relax.Var("x", R.Tensor((2, 3, 4, 5), "float32"))
    known = relax.Var("s", R.Shape((3, 8, 5)))
    out = _sinfo(relax.op.reshape(x, known))
    assert _ints(out) == [3, 8, 5] and not out.shape.same_as(known)
    unknown = relax.Var("s", R.Shape(ndim=3))
    assert _sinfo(relax.op.reshape(x, unknown)).shape.same_as(unknown)


def test_permute_and_expand_keep_or_forget_a_shape_variable():
    s = relax.Var("s", relax.ShapeStructInfo((1, 2, 3, 4)))
    x = relax.Var("x", relax.TensorStructInfo(s, "float32"))
    assert _sinfo(relax.op.permute_dims(x, [0, 1, 2, 3])).shape.same_as(s)
    out = _sinfo(relax.op.permute_dims(x, [2, 3, 0, 1]))
    assert out.shape is None and out.ndim == 4
    assert _sinfo(relax.op.expand_dims(x, [])).shape.same_as(s)
    out = _sinfo(relax.op.expand_dims(x, [1]))
    assert out.shape is None and out.ndim == 5
    with pytest.raises(InternalError, match="permute_dims: x of unknown rank"):
        _sinfo(relax.op.permute_dims(relax.Var("u", R.Tensor("float32")), [1, 0]))


def test_squeeze_as_upstream():
    x = relax.Var("x", R.Tensor((2, 3, 4), "float32"))
    assert _sinfo(relax.op.squeeze(x, [0])).same_as(x.struct_info)  # extent 2: a no-op
    s = relax.Var("s", relax.ShapeStructInfo((2, 1, 3)))
    y = relax.Var("y", relax.TensorStructInfo(s, "float32"))
    assert _sinfo(relax.op.squeeze(y, [])).shape.same_as(s)
    named = _sinfo(relax.op.squeeze(y, [1]))
    assert named.shape is None and named.ndim == 2
    assert _sinfo(relax.op.squeeze(y)).ndim == -1  # unnamed axes of a shape variable
    n = tvm.tir.Var("n", "int64")
    z = relax.Var("z", R.Tensor((n, 3), "float32"))
    assert _sinfo(relax.op.squeeze(z, [0])).ndim == 1  # a symbolic extent is taken to be 1


def test_flatten_as_upstream():
    assert _ints(_sinfo(relax.op.flatten(relax.Var("x", R.Tensor("float32", ndim=0))))) == [1]
    one = relax.Var("s", relax.ShapeStructInfo(ndim=1))
    x = relax.Var("x", relax.TensorStructInfo(one, "float32"))
    assert _sinfo(relax.op.flatten(x)).shape.same_as(one)
    known = relax.Var("s", relax.ShapeStructInfo((3, 4)))
    y = relax.Var("y", relax.TensorStructInfo(known, "float32"))
    out = _sinfo(relax.op.flatten(y))
    assert out.shape is None and out.ndim == 1


def test_squeeze_of_a_non_unit_axis_runs_as_a_no_op():
    import numpy as np

    x = relax.Var("x", R.Tensor((1, 3), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        keep = bb.emit(relax.op.squeeze(x, [1]))
        both = bb.emit(relax.op.squeeze(keep, [0, 1]))
        bb.emit_func_output(relax.Tuple([keep, both]))
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    a = np.arange(3, dtype="float32").reshape(1, 3)
    keep, both = vm["main"](tvm.runtime.tensor(a))
    np.testing.assert_array_equal(keep.numpy(), a)
    np.testing.assert_array_equal(both.numpy(), a[0])


def test_concat_as_upstream():
    import numpy as np

    llvm = tvm.ir.VDevice("llvm")
    a = relax.Var("a", R.Tensor((2, 3), "float32", llvm))
    b = relax.Var("b", R.Tensor((2, 4)))  # unknown dtype
    out = _sinfo(relax.op.concat([a, b], axis=1))
    assert _ints(out) == [2, 7] and out.dtype == "void" and out.vdevice.same_as(llvm)
    m, n = tvm.tir.Var("m", "int64"), tvm.tir.Var("n", "int64")
    c = relax.Var("c", R.Tensor((m, 3), "float32"))
    d = relax.Var("d", R.Tensor((n, 4), "float32"))
    out = _sinfo(relax.op.concat([c, d], axis=1))  # m vs n: checked at run time
    assert [str(v) for v in out.shape.values] == ["m", "T.int64(7)"]
    with pytest.raises(ValueError, match="concat: tensor 1 of shape"):
        _sinfo(relax.op.concat([c, relax.Var("e", R.Tensor((m + 1, 4), "float32"))], axis=1))
    x = relax.Var("x", R.Tensor((3,), "float32"))
    y = relax.Var("y", R.Tensor((4,), "float32"))
    assert _ints(_sinfo(relax.op.concat([x, y], axis=None))) == [7]
    with pytest.raises(ValueError, match="without an axis the tensors must be 1-D"):
        _sinfo(relax.op.concat([c, c], axis=None))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, y]):
        out = bb.emit(relax.op.concat([x, y], axis=None))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    p, q = np.arange(3, dtype="float32"), np.arange(4, dtype="float32")
    got = vm["main"](tvm.runtime.tensor(p), tvm.runtime.tensor(q)).numpy()
    np.testing.assert_array_equal(got, np.concatenate([p, q]))


def test_concat_of_one_tensor_and_of_shape_variables():
    s = relax.Var("s", relax.ShapeStructInfo(ndim=2))
    x = relax.Var("x", relax.TensorStructInfo(s, "float32"))
    assert _sinfo(relax.op.concat([x], axis=1)).shape.same_as(s)
    u = relax.Var("u", R.Tensor("float32"))
    assert _sinfo(relax.op.concat([u], axis=None)).ndim == -1
    known = relax.Var("k", relax.ShapeStructInfo((3, 4)))
    y = relax.Var("y", relax.TensorStructInfo(known, "float32"))
    with pytest.raises(ValueError, match="concat: tensor 1 of shape"):  # values still checked
        _sinfo(relax.op.concat([y, relax.Var("z", R.Tensor((3, 3), "float32"))]))
    out = _sinfo(relax.op.concat([y, relax.Var("z", R.Tensor((2, 4), "float32"))]))
    assert out.shape is None and out.ndim == 2


def test_split_by_indices_clamps_like_upstream():
    import numpy as np

    llvm = tvm.ir.VDevice("llvm")
    x = relax.Var("x", R.Tensor((2, 10, 4), "float32", llvm))
    idx = [-2, 2, 6, 4, 8, 12, 9]
    fields = _sinfo(relax.op.split(x, idx, axis=1)).fields
    assert [_ints(f)[1] for f in fields] == [0, 2, 4, 0, 4, 2, 0, 1]
    assert all(f.vdevice.same_as(llvm) for f in fields)
    b = tvm.tir.Var("b", "int64")
    y = relax.Var("y", R.Tensor((3, b), "float32"))
    last = _sinfo(relax.op.split(y, [10, 20], axis=1)).fields[2]
    tvm.ir.assert_structural_equal(last.shape.values[1], tvm.tir.max(b - 20, 0))
    z = relax.Var("z", R.Tensor((2, 10), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [z]):
        out = bb.emit(relax.op.split(z, idx, axis=1))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    a = np.arange(20, dtype="float32").reshape(2, 10)
    got = [t.numpy() for t in vm["main"](tvm.runtime.tensor(a))]
    cuts = [0, *[min(max(i, 0), 10) for i in idx], 10]
    want = [a[:, lo : max(lo, hi)] for lo, hi in zip(cuts, cuts[1:])]
    assert [g.shape for g in got] == [w.shape for w in want]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_split_into_uneven_sections_like_upstream():
    import numpy as np

    x = relax.Var("x", R.Tensor((2, 10, 4), "float32"))
    assert [_ints(f)[1] for f in _sinfo(relax.op.split(x, 3, axis=1)).fields] == [4, 4, 2]
    b = tvm.tir.Var("b", "int64")
    y = relax.Var("y", R.Tensor((3, b), "float32"))
    fields = _sinfo(relax.op.split(y, 3, axis=1)).fields
    tvm.ir.assert_structural_equal(fields[0].shape.values[1], (b + 2) // 3)
    tvm.ir.assert_structural_equal(fields[2].shape.values[1], b - (b + 2) // 3 * 2)
    with pytest.raises(ValueError, match="split: axis 1 of x .* is too short for 4 sections"):
        _sinfo(relax.op.split(relax.Var("z", R.Tensor((2, 5), "float32")), 4, axis=1))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        out = bb.emit(relax.op.split(x, 3, axis=1))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    a = np.arange(80, dtype="float32").reshape(2, 10, 4)
    got = [t.numpy() for t in vm["main"](tvm.runtime.tensor(a))]
    for g, w in zip(got, [a[:, 0:4], a[:, 4:8], a[:, 8:10]]):
        np.testing.assert_array_equal(g, w)
