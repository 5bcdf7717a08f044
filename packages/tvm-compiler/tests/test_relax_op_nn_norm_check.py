# Relax nn-op struct-info rules: the norms (upstream's NormCheckDtypeAndShape: dtype agreement,
# one param dim per axis, provable extents), softmax's int axis, R.Tensor's "" dtype.
import pytest
from tvm import relax, tir
from tvm.script import relax as R


def _sinfo(call):
    return relax.BlockBuilder().normalize(call).struct_info


def _var(shape, dtype="float32"):
    return relax.Var("v", R.Tensor(shape, dtype))


def test_unprovable_extent_gives_unknown_shape():
    n, c0, c1 = (tir.Var(s, "int64") for s in ("n", "c", "c"))
    out = _sinfo(relax.op.nn.layer_norm(_var((n, c0)), _var((c1,)), _var((c0,)), axes=[-1]))
    assert out.shape is None and out.ndim == 2 and out.dtype == "float32"
    out = _sinfo(relax.op.nn.layer_norm(_var((n, c0)), _var((c0,)), _var((c0,)), axes=[-1]))
    assert [str(d) for d in out.shape.values] == ["n", "c"]
    bn = _sinfo(relax.op.nn.batch_norm(_var((n, c1)), *[_var((c0,)) for _ in range(4)], axis=1))
    assert [f.ndim for f in bn.fields] == [2, 1, 1] and bn.fields[1].shape is None


def test_provably_different_extent_is_a_value_error():
    c = tir.Var("c", "int64")
    with pytest.raises(
        ValueError, match=r"nn.batch_norm: gamma of shape \(c \+ .*\) does not match data"
    ):
        _sinfo(
            relax.op.nn.batch_norm(
                _var((2, c, 4)), _var((c + 2,)), _var((c,)), _var((c,)), _var((c,)), axis=1
            )
        )


def test_params_must_share_data_dtype_and_be_float():
    x = _var((2, 3, 4, 5))
    with pytest.raises(TypeError, match="nn.layer_norm: argument 'beta' has dtype"):
        _sinfo(
            relax.op.nn.layer_norm(x, _var((4, 5)), relax.Var("b", R.Tensor((4, 5))), axes=[-2, -1])
        )
    ints = [_var((3,), "int32") for _ in range(4)]
    with pytest.raises(TypeError, match="nn.batch_norm: argument 'data' must be a float"):
        _sinfo(relax.op.nn.batch_norm(_var((2, 3), "int32"), *ints, axis=1))
    with pytest.raises(TypeError, match="nn.group_norm: argument 'gamma' has dtype int8"):
        _sinfo(relax.op.nn.group_norm(x, _var((4,), "int8"), _var((4,)), 2, -2, [-1]))


def test_group_norm_axes_and_param_rank():
    x = _var((2, 3, 4, 5))
    with pytest.raises(ValueError, match="channel_axis -2 must not be one of the axes"):
        _sinfo(relax.op.nn.group_norm(x, _var((4,)), _var((4,)), 2, -2, [-2, -1]))
    with pytest.raises(ValueError, match=r"nn.group_norm: gamma must be 1-D"):
        _sinfo(relax.op.nn.group_norm(x, _var((4, 5)), _var((4, 5)), 2, -2, [-1]))
    with pytest.raises(ValueError, match=r"gamma of shape \(3,\) does not match the 4 channels"):
        _sinfo(relax.op.nn.group_norm(x, _var((3,)), _var((4,)), 2, -2, [-1]))


def test_softmax_axis_must_be_one_int():
    x = _var((2, 3, 4))
    for op in (relax.op.nn.softmax, relax.op.nn.log_softmax):
        with pytest.raises(TypeError, match="axis must be a single int, got \\[1, 2\\]"):
            op(x, axis=[1, 2])


def test_r_tensor_empty_dtype_is_unknown():
    # upstream spells an unknown dtype "" as well as None (R.Tensor((3, 4), ""))
    assert R.Tensor((3, 4), "").dtype == "void"
    assert relax.Var("t", R.Tensor((3, 4), "")).struct_info.dtype == "void"
