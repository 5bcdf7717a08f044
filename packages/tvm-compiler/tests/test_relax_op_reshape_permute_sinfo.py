# relax.op.reshape / permute_dims / expand_dims as upstream builds and infers them: 0 copies
# x's dim, malformed new shapes are InternalErrors at construction, a shape variable's known
# values become the result's shape, identity permutations and empty expansions keep x's
# struct info, and only literal shapes are permuted / expanded.
import pytest
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
