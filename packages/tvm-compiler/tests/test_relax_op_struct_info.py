# Struct-info inference of the Relax ops: shapes (static, symbolic, unknown), dtypes, and the
# errors that name the op, the argument and what was expected.
import pytest
import tvm
from tvm import relax, tir
from tvm.relax import op as R


def _v(shape, dtype="float32", name="x"):
    sinfo = (
        relax.TensorStructInfo(ndim=shape, dtype=dtype)
        if isinstance(shape, int)
        else relax.TensorStructInfo(shape, dtype)
    )
    return relax.Var(name, sinfo)


def _infer(call):
    return relax.BlockBuilder().normalize(call).struct_info


def _dims(sinfo):
    """The dims as text: constants as plain numbers (whatever their dtype), others as printed."""
    if sinfo.shape is None:
        return None
    return [str(d.value) if isinstance(d, tir.IntImm) else str(d) for d in sinfo.shape.values]


def _dims_equal(sinfo, expected) -> bool:
    """Whether the dims are provably the expected (symbolic) extents, one for one."""
    dims = sinfo.shape.values
    analyzer = tvm.arith.Analyzer()
    return len(dims) == len(expected) and all(
        analyzer.can_prove_equal(d, e) for d, e in zip(dims, expected)
    )


def test_binary_ops_broadcast_like_numpy():
    s = _infer(R.add(_v([2, 1, 4]), _v([3, 1])))
    assert _dims(s) == ["2", "3", "4"] and s.dtype == "float32"
    assert _infer(R.less(_v([3]), _v([3]))).dtype == "bool"
    n = tir.Var("n", "int64")
    assert _dims(_infer(R.multiply(_v([n, 1]), _v([1, 5])))) == ["n", "5"]
    m = tir.Var("m", "int64")
    unknown = _infer(R.add(_v([n]), _v([m])))  # cannot prove n == m: only the ndim is known
    assert unknown.shape is None and unknown.ndim == 1
    assert _infer(R.add(_v(2), _v([3]))).ndim == 2


def test_binary_errors_name_the_op_and_both_shapes():
    with pytest.raises(ValueError, match=r"add: x1 of shape \(2, 3\) and x2 of shape \(4,\)"):
        _infer(R.add(_v([2, 3]), _v([4])))
    with pytest.raises(TypeError, match="subtract: x1 has dtype float32 and x2 has dtype int32"):
        _infer(R.subtract(_v([2]), _v([2], "int32")))
    with pytest.raises(TypeError, match="add: argument 'x2' must be a tensor"):
        _infer(R.add(_v([2]), relax.ShapeExpr([2])))


def test_unary_ops_and_clip():
    assert _dims(_infer(R.exp(_v([2, 3])))) == ["2", "3"]
    assert _infer(R.negative(_v([2], "int32"))).dtype == "int32"
    with pytest.raises(TypeError, match="sqrt: argument 'x' must be a float tensor"):
        _infer(R.sqrt(_v([2], "int32")))
    assert _dims(_infer(R.clip(_v([4]), 0, 6))) == ["4"]


def test_matmul_batches_broadcast_and_one_d_operands():
    assert _dims(_infer(R.matmul(_v([5, 1, 2, 3]), _v([4, 3, 6])))) == ["5", "4", "2", "6"]
    assert _dims(_infer(R.matmul(_v([3]), _v([3, 4])))) == ["4"]
    assert _dims(_infer(R.matmul(_v([2, 3]), _v([3])))) == ["2"]
    assert _dims(_infer(R.matmul(_v([3]), _v([3])))) == []
    n = tir.Var("n", "int64")
    assert _dims(_infer(R.matmul(_v([n, 3]), _v([3, 7])))) == ["n", "7"]
    assert _infer(R.matmul(_v([2, 3], "int8"), _v([3, 2], "int8"), "int32")).dtype == "int32"


def test_matmul_mismatch_names_both_shapes():
    with pytest.raises(ValueError, match=r"matmul: x1 of shape \(2, 3\) and x2 of shape \(4, 5\)"):
        _infer(R.matmul(_v([2, 3]), _v([4, 5])))


def test_reshape_infers_minus_one_and_checks_the_count():
    assert _dims(_infer(R.reshape(_v([2, 3, 4]), [-1, 4]))) == ["6", "4"]
    n = tir.Var("n", "int64")
    assert _dims_equal(_infer(R.reshape(_v([n, 4]), [-1])), [n * 4])
    assert _dims_equal(_infer(R.reshape(_v([n, 4]), [n * 2, 2])), [n * 2, 2])
    with pytest.raises(ValueError, match=r"reshape: cannot reshape x of shape \(2, 3\)"):
        _infer(R.reshape(_v([2, 3]), [4, 2]))
    with pytest.raises(tvm.error.InternalError, match="-1 only once"):  # upstream's ICHECK
        R.reshape(_v([2, 3]), [-1, -1])


def test_layout_ops():
    assert _dims(_infer(R.permute_dims(_v([2, 3, 4])))) == ["4", "3", "2"]
    assert _dims(_infer(R.permute_dims(_v([2, 3, 4]), [0, 2, 1]))) == ["2", "4", "3"]
    assert _dims(_infer(R.expand_dims(_v([2, 3]), [0, -1]))) == ["1", "2", "3", "1"]
    assert _dims(_infer(R.squeeze(_v([1, 3, 1])))) == ["3"]
    assert _dims(_infer(R.squeeze(_v([1, 3, 1]), 0))) == ["3", "1"]
    assert _dims(_infer(R.flatten(_v([2, 3])))) == ["6"]
    assert _dims(_infer(R.broadcast_to(_v([3, 1]), [2, 3, 4]))) == ["2", "3", "4"]
    # as upstream: naming an axis whose extent is not 1 leaves it in place (a no-op)
    assert _dims(_infer(R.squeeze(_v([1, 3]), 1))) == ["1", "3"]
    with pytest.raises(ValueError, match="permute_dims: axes"):
        _infer(R.permute_dims(_v([2, 3]), [0]))
    with pytest.raises(ValueError, match="axis 2 is out of range for a tensor of 2 dimensions"):
        _infer(R.sum(_v([2, 3]), axis=2))


def test_concat_and_split():
    n = tir.Var("n", "int64")
    s = _infer(R.concat([_v([2, 3]), _v([n, 3])], axis=0))
    assert _dims(s)[1] == "3" and tvm.arith.Analyzer().can_prove_equal(s.shape.values[0], n + 2)
    with pytest.raises(ValueError, match=r"concat: tensor 1 of shape \(2, 4\)"):
        _infer(R.concat([_v([2, 3]), _v([2, 4])], axis=0))
    parts = _infer(R.split(_v([6, 2]), 3))
    assert [_dims(p) for p in parts.fields] == [["2", "2"]] * 3
    parts = _infer(R.split(_v([6, 2]), [1, 4]))
    assert [_dims(p)[0] for p in parts.fields] == ["1", "3", "2"]


def test_reductions_and_types():
    assert _dims(_infer(R.sum(_v([2, 3, 4]), axis=[0, 2]))) == ["3"]
    assert _dims(_infer(R.mean(_v([2, 3]), axis=1, keepdims=True))) == ["2", "1"]
    assert _dims(_infer(R.max(_v([2, 3])))) == []
    assert _infer(R.astype(_v([2]), "float16")).dtype == "float16"
    assert _dims(_infer(R.argmax(_v([2, 3]), axis=1))) == ["2"]


def test_creation_ops():
    s = _infer(R.zeros([2, 3], "int32"))
    assert _dims(s) == ["2", "3"] and s.dtype == "int32"
    assert _infer(R.full([4], relax.const(1.5))).dtype == "float32"
    assert _infer(R.ones_like(_v([3]), "int8")).dtype == "int8"
    assert _dims(_infer(R.arange(0, 10, 3))) == ["4"]


def test_indexing_ops():
    assert _dims(_infer(R.strided_slice(_v([10, 4]), [0], [1], [8], [2]))) == ["4", "4"]
    assert _dims(_infer(R.strided_slice(_v([10]), [0], [-3], [100]))) == ["3"]
    assert _dims(_infer(R.take(_v([5, 6]), _v([2, 3], "int64"), axis=1))) == ["5", "2", "3"]
    with pytest.raises(TypeError, match="take: indices must be an integer tensor"):
        _infer(R.take(_v([5]), _v([2])))
    s = _infer(R.where(_v([3, 1], "bool"), _v([4]), _v([1])))
    assert _dims(s) == ["3", "4"]


def test_nn_ops():
    assert _dims(_infer(R.nn.softmax(_v([2, 3]), axis=0))) == ["2", "3"]
    assert _dims(_infer(R.nn.relu(_v([2])))) == ["2"]
    s = _infer(R.nn.layer_norm(_v([2, 8]), _v([8]), _v([8]), axes=-1))
    assert _dims(s) == ["2", "8"]
    with pytest.raises(ValueError, match=r"nn.layer_norm: gamma of shape \(4,\)"):
        _infer(R.nn.layer_norm(_v([2, 8]), _v([4]), _v([8]), axes=-1))
    s = _infer(R.nn.linear(_v([2, 3]), _v([5, 3]), _v([5])))
    assert _dims(s) == ["2", "5"]


def test_structural_ops():
    gv = relax.GlobalVar("kernel")
    out = relax.TensorStructInfo([4], "float32")
    assert _infer(R.call_tir(gv, [_v([4])], out)) is out
    pair = _infer(R.call_tir(gv, _v([4]), [out, out]))
    assert isinstance(pair, relax.TupleStructInfo) and len(pair.fields) == 2
    assert _infer(R.shape_of(_v(2))).values is None
    assert [int(d) for d in _infer(R.shape_of(_v([2, 3]))).values] == [2, 3]
    assert isinstance(_infer(R.null_value()), relax.ObjectStructInfo)
    assert _infer(R.call_packed("f", _v([2]), sinfo_args=out)) is out
    assert _infer(R.call_pure_packed("f", _v([2]), sinfo_args=out)) is out
    assert _infer(R.call_dps_packed("f", [_v([2])], out)) is out
    assert not tvm.ir.Op.get("relax.print").get_attr("FPurity")
    assert tvm.ir.Op.get("relax.add").get_attr("FPurity")


def test_more_ops_struct_info_and_errors():
    assert _dims(_infer(R.stack([_v([2, 3]), _v([2, 3])], axis=-1))) == ["2", "3", "2"]
    assert _dims(_infer(R.tile(_v([2, 3]), [2]))) == ["2", "6"]
    assert _dims(_infer(R.repeat(_v([2, 3]), 3))) == ["18"]
    assert _dims(_infer(R.one_hot(_v([4], "int64"), 1.0, 0.0, depth=5, axis=0))) == ["5", "4"]
    assert _dims(_infer(R.cumsum(_v([2, 3])))) == ["6"]
    assert _dims(_infer(R.nn.pad(_v([2, 3]), [1, 1, 0, 2]))) == ["4", "5"]
    assert _dims(_infer(R.nn.attention(_v([1, 4, 2, 8]), _v([1, 6, 2, 8]), _v([1, 6, 2, 3])))) == [
        "1",
        "4",
        "2",
        "3",
    ]
    with pytest.raises(ValueError, match=r"stack: tensor 1 of shape \(2, 4\) differs"):
        _infer(R.stack([_v([2, 3]), _v([2, 4])]))
    with pytest.raises(ValueError, match="nn.pad: pad_width must hold"):
        _infer(R.nn.pad(_v([2, 3]), [1, 1]))
    with pytest.raises(ValueError, match="disagree on the head dimension"):
        _infer(R.nn.attention(_v([1, 4, 2, 8]), _v([1, 4, 2, 7]), _v([1, 4, 2, 8])))
    with pytest.raises(ValueError, match=r"nn.group_norm: the 3 channels .* 2 groups"):
        _infer(R.nn.group_norm(_v([2, 3, 4]), _v([3]), _v([3]), 2, 1, [2]))
    # 0 groups: the channel count modulo it was a ZeroDivisionError
    with pytest.raises(ValueError, match="nn.group_norm: num_groups must be a positive int, got 0"):
        _infer(R.nn.group_norm(_v([2, 3, 4]), _v([3]), _v([3]), 0, 1, [2]))
    with pytest.raises(
        TypeError, match="nn.group_norm: num_groups must be a positive int, got str"
    ):
        R.nn.group_norm(_v([2, 3, 4]), _v([3]), _v([3]), "2", 1, [2])
    with pytest.raises(ValueError, match="tril: x must have at least 2 dimensions"):
        _infer(R.tril(_v([3])))
