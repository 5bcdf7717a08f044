# Single-op ONNX converters (pooling in 1-D/3-D, LRN, quantised matmul/conv, CumProd, Mod,
# BitShift, CenterCropPad, SwiGLU, training-mode BatchNormalization...) compiled and run on the
# Relax VM against onnxruntime or NumPy, and the errors they raise on bad input.
import re

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from test_onnx_frontend import _init, _model, _ort, _run, _tensor  # noqa: E402
from tvm.error import OpNotImplemented  # noqa: E402

RNG = np.random.default_rng(7)


def _out(name, rank, elem=TensorProto.FLOAT):
    """An output of the given rank, its dims left symbolic (the checker wants a shape)."""
    return _tensor(name, [f"{name}_{i}" for i in range(rank)], elem)


def _convert(model):
    from tvm.relax.frontend.onnx import from_onnx

    return from_onnx(model)


def _run_all(mod, *arrays):
    """Every output of main (a tuple for several) as NumPy arrays."""
    import tvm
    from tvm import relax

    if not hasattr(relax, "VirtualMachine"):
        pytest.skip("the Relax VM is not in this build yet")
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    out = vm["main"](*[tvm.runtime.tensor(a) for a in arrays])
    return [o.numpy() for o in out] if hasattr(out, "__len__") else [out.numpy()]


@pytest.mark.parametrize(
    "op, attrs",
    [
        ("MaxPool", dict(kernel_shape=[2, 2, 2], strides=[1, 2, 1], pads=[0, 1, 1, 1, 0, 0])),
        ("AveragePool", dict(kernel_shape=[3, 2, 2], pads=[1, 0, 1, 1, 1, 0], count_include_pad=0)),
        ("AveragePool", dict(kernel_shape=[2, 3, 2], pads=[1, 1, 0, 0, 1, 1], count_include_pad=1)),
        ("MaxPool", dict(kernel_shape=[2, 2, 2], dilations=[2, 1, 2])),
        ("LpPool", dict(kernel_shape=[2, 2, 2], p=3)),
        ("LpPool", dict(kernel_shape=[3], strides=[2], p=2)),
    ],
)
def test_pooling_in_1d_and_3d_matches_onnxruntime(op, attrs):
    shape = [2, 3, 5, 6, 7] if len(attrs["kernel_shape"]) == 3 else [2, 3, 9]
    x = RNG.standard_normal(shape).astype("float32")
    node = helper.make_node(op, ["x"], ["y"], **attrs)
    model = _model([node], [_tensor("x", shape)], [_out("y", len(shape))], opset=18)
    got = _run(_convert(model), x)
    np.testing.assert_allclose(got, _ort(model, {"x": x}), rtol=1e-5, atol=1e-5)


def test_lrn_matches_onnxruntime():
    x = RNG.standard_normal([2, 7, 4, 3]).astype("float32")
    node = helper.make_node("LRN", ["x"], ["y"], size=5, alpha=0.02, beta=0.6, bias=1.5)
    model = _model([node], [_tensor("x", [2, 7, 4, 3])], [_out("y", 4)], opset=13)
    np.testing.assert_allclose(_run(_convert(model), x), _ort(model, {"x": x}), rtol=1e-5)


def test_matmul_integer_and_qlinear_matmul_match_the_references():
    a = RNG.integers(0, 256, [3, 4], dtype="uint8")
    b = RNG.integers(-128, 128, [4, 5], dtype="int8")
    inits = [_init("azp", np.array([3, 200, 7], "uint8")), _init("bzp", np.array(-5, "int8"))]
    node = helper.make_node("MatMulInteger", ["a", "b", "azp", "bzp"], ["y"])
    inputs = [_tensor("a", [3, 4], TensorProto.UINT8), _tensor("b", [4, 5], TensorProto.INT8)]
    model = _model([node], inputs, [_out("y", 2, TensorProto.INT32)], inits, opset=10)
    # a per-row zero point of A (onnxruntime takes scalar ones only): NumPy is the reference
    ref = (a.astype("int32") - np.array([[3], [200], [7]])) @ (b.astype("int32") + 5)
    np.testing.assert_array_equal(_run(_convert(model), a, b), ref)

    b = RNG.integers(0, 256, [4, 5], dtype="uint8")
    inits = [
        _init("as", np.array(0.02, "float32")),
        _init("azp", np.array(120, "uint8")),
        _init("bs", np.array(0.05, "float32")),
        _init("bzp", np.array(130, "uint8")),
        _init("ys", np.array(0.3, "float32")),
        _init("yzp", np.array(100, "uint8")),
    ]
    node = helper.make_node(
        "QLinearMatMul", ["a", "as", "azp", "b", "bs", "bzp", "ys", "yzp"], ["y"]
    )
    inputs = [_tensor("a", [3, 4], TensorProto.UINT8), _tensor("b", [4, 5], TensorProto.UINT8)]
    model = _model([node], inputs, [_out("y", 2, TensorProto.UINT8)], inits, opset=10)
    got = _run(_convert(model), a, b)
    np.testing.assert_array_equal(got, _ort(model, {"a": a, "b": b}))


def test_conv_integer_and_qlinear_conv_match_onnxruntime():
    x = RNG.integers(0, 256, [1, 2, 5, 5], dtype="uint8")
    w = RNG.integers(0, 256, [3, 2, 3, 3], dtype="uint8")
    node = helper.make_node("ConvInteger", ["x", "w", "xzp"], ["y"], pads=[1, 1, 1, 1])
    inputs = [_tensor("x", [1, 2, 5, 5], TensorProto.UINT8)]
    inits = [_init("w", w), _init("xzp", np.array(128, "uint8"))]
    model = _model([node], inputs, [_out("y", 4, TensorProto.INT32)], inits, opset=10)
    np.testing.assert_array_equal(_run(_convert(model), x), _ort(model, {"x": x}))

    inits = [
        _init("xs", np.array(0.01, "float32")),
        _init("xzp", np.array(128, "uint8")),
        _init("w", w),
        _init("ws", np.array([0.02, 0.03, 0.01], "float32")),
        _init("wzp", np.array([120, 128, 140], "uint8")),
        _init("ys", np.array(0.05, "float32")),
        _init("yzp", np.array(10, "uint8")),
        _init("b", np.array([100, -2000, 50], "int32")),
    ]
    names = ["x", "xs", "xzp", "w", "ws", "wzp", "ys", "yzp", "b"]
    node = helper.make_node("QLinearConv", names, ["y"], strides=[2, 2])
    model = _model([node], inputs, [_out("y", 4, TensorProto.UINT8)], inits, opset=10)
    np.testing.assert_array_equal(_run(_convert(model), x), _ort(model, {"x": x}))


def test_dynamic_quantize_linear_matches_onnxruntime():
    x = (RNG.standard_normal([4, 6]) * 3 + 1).astype("float32")
    node = helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "zp"])
    outputs = [
        _out("y", 2, TensorProto.UINT8),
        _out("s", 0),
        _out("zp", 0, TensorProto.UINT8),
    ]
    model = _model([node], [_tensor("x", [4, 6])], outputs, opset=11)
    got = _run_all(_convert(model), x)
    ort = pytest.importorskip("onnxruntime")
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    want = sess.run(None, {"x": x})
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-6)
    np.testing.assert_array_equal(got[2], want[2])


def test_center_crop_pad_matches_onnxruntime():
    x = RNG.standard_normal([5, 4, 3]).astype("float32")
    node = helper.make_node("CenterCropPad", ["x", "shape"], ["y"], axes=[0, 1])
    inits = [_init("shape", np.array([2, 7], "int64"))]
    model = _model([node], [_tensor("x", [5, 4, 3])], [_out("y", 3)], inits, opset=18)
    got = _run(_convert(model), x)
    assert got.shape == (2, 7, 3)
    np.testing.assert_allclose(got, _ort(model, {"x": x}))


@pytest.mark.parametrize("exclusive", [0, 1])
@pytest.mark.parametrize("reverse", [0, 1])
def test_cumprod_matches_numpy(exclusive, reverse):
    x = RNG.uniform(0.5, 2.0, [3, 5]).astype("float32")
    node = helper.make_node("CumProd", ["x", "axis"], ["y"], exclusive=exclusive, reverse=reverse)
    inits = [_init("axis", np.array(1, "int64"))]
    model = _model([node], [_tensor("x", [3, 5])], [_out("y", 2)], inits, opset=26)
    ref = x[:, ::-1] if reverse else x
    ref = np.cumprod(ref, axis=1)
    if exclusive:
        ref = np.concatenate([np.ones_like(ref[:, :1]), ref[:, :-1]], axis=1)
    ref = ref[:, ::-1] if reverse else ref
    np.testing.assert_allclose(_run(_convert(model), x), ref, rtol=1e-6)


@pytest.mark.parametrize("fmod", [0, 1])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_float_mod_matches_numpy(fmod, dtype):
    a = np.array([-4.3, 7.2, 5.0, 0.0, -3.0, 1.0, np.inf, 1.0, 6.0], dtype)
    b = np.array([2.1, -3.4, 8.0, -2.0, np.inf, -np.inf, 2.0, 0.0, 3.0], dtype)
    elem = TensorProto.FLOAT if dtype == "float32" else TensorProto.FLOAT16
    node = helper.make_node("Mod", ["a", "b"], ["y"], fmod=fmod)
    inputs = [_tensor("a", [9], elem), _tensor("b", [9], elem)]
    model = _model([node], inputs, [_out("y", 1, elem)], opset=13)
    with np.errstate(invalid="ignore", divide="ignore"):
        ref = (np.fmod if fmod else np.mod)(a, b)
    np.testing.assert_allclose(_run(_convert(model), a, b), ref, rtol=1e-3, equal_nan=True)


@pytest.mark.parametrize("direction", ["LEFT", "RIGHT"])
def test_bitshift_past_the_width_or_negative(direction):
    x = np.array([-8, 4, -1, 5, 3], "int32")
    s = np.array([1, 32, 100, -1, 31], "int32")
    node = helper.make_node("BitShift", ["x", "s"], ["y"], direction=direction)
    inputs = [_tensor("x", [5], TensorProto.INT32), _tensor("s", [5], TensorProto.INT32)]
    model = _model([node], inputs, [_out("y", 1, TensorProto.INT32)], opset=11)
    if direction == "LEFT":
        ref = [-16, 0, 0, 0, 3 << 31]
    else:
        ref = [-4, 0, -1, 0, 0]
    np.testing.assert_array_equal(_run(_convert(model), x, s), np.array(ref).astype("int32"))


def test_space_to_depth_crd_mode_matches_numpy():
    x = RNG.standard_normal([1, 2, 4, 6]).astype("float32")
    node = helper.make_node("SpaceToDepth", ["x"], ["y"], blocksize=2, mode="CRD")
    model = _model([node], [_tensor("x", [1, 2, 4, 6])], [_out("y", 4)], opset=28)
    # CRD: output channel c * 4 + bh * 2 + bw holds x[c, 2h + bh, 2w + bw]
    ref = x.reshape(1, 2, 2, 2, 3, 2).transpose(0, 1, 3, 5, 2, 4).reshape(1, 8, 2, 3)
    np.testing.assert_array_equal(_run(_convert(model), x), ref)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_swiglu_matches_numpy(dtype):
    a = RNG.standard_normal([2, 6]).astype(dtype)
    b = RNG.standard_normal([2, 6]).astype(dtype)
    elem = TensorProto.FLOAT if dtype == "float32" else TensorProto.FLOAT16
    node = helper.make_node("SwiGLU", ["a", "b"], ["y"], alpha=0.7)
    inputs = [_tensor("a", [2, 6], elem), _tensor("b", [2, 6], elem)]
    model = _model([node], inputs, [_out("y", 2, elem)], opset=28)
    wa = a.astype("float32")
    ref = (wa / (1 + np.exp(-0.7 * wa)) * b.astype("float32")).astype(dtype)
    np.testing.assert_allclose(_run(_convert(model), a, b), ref, rtol=1e-3, atol=1e-3)


def test_batch_norm_training_mode_matches_numpy():
    x = RNG.standard_normal([4, 3, 2, 2]).astype("float32")
    params = [RNG.uniform(0.5, 1.5, [3]).astype("float32") for _ in range(4)]
    inits = [_init(n, p) for n, p in zip(["scale", "bias", "mean", "var"], params)]
    node = helper.make_node(
        "BatchNormalization",
        ["x", "scale", "bias", "mean", "var"],
        ["y", "rm", "rv"],
        training_mode=1,
        momentum=0.8,
        epsilon=1e-3,
    )
    outputs = [_out("y", 4), _out("rm", 1), _out("rv", 1)]
    model = _model([node], [_tensor("x", [4, 3, 2, 2])], outputs, inits, opset=15)
    y, rm, rv = _run_all(_convert(model), x)
    scale, bias, mean, var = params
    bm, bv = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
    ref = (x - bm.reshape(1, 3, 1, 1)) / np.sqrt(bv.reshape(1, 3, 1, 1) + 1e-3)
    ref = ref * scale.reshape(1, 3, 1, 1) + bias.reshape(1, 3, 1, 1)
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(rm, mean * 0.8 + bm * 0.2, rtol=1e-5)
    np.testing.assert_allclose(rv, var * 0.8 + bv * 0.2, rtol=1e-5)


@pytest.mark.parametrize("op", ["ReduceMax", "ReduceMin", "ReduceProd", "ReduceLogSumExp"])
def test_reduction_over_an_empty_axis_is_the_identity(op):
    node = helper.make_node(op, ["x", "axes"], ["y"], keepdims=1)
    inits = [_init("axes", np.array([1], "int64"))]
    model = _model([node], [_tensor("x", [2, 0, 3])], [_out("y", 3)], inits, opset=18)
    got = _run(_convert(model), np.zeros([2, 0, 3], "float32"))
    want = {"ReduceMax": -np.inf, "ReduceMin": np.inf, "ReduceProd": 1.0}.get(op, -np.inf)
    np.testing.assert_array_equal(got, np.full([2, 1, 3], want, "float32"))


def test_float16_attention_rounds_once():
    q = RNG.standard_normal([1, 2, 3, 8]).astype("float16")
    k = RNG.standard_normal([1, 2, 5, 8]).astype("float16")
    v = RNG.standard_normal([1, 2, 5, 8]).astype("float16")
    node = helper.make_node("Attention", ["q", "k", "v"], ["y"])
    inputs = [_tensor(n, list(a.shape), TensorProto.FLOAT16) for n, a in zip("qkv", (q, k, v))]
    model = _model([node], inputs, [_out("y", 4, TensorProto.FLOAT16)], opset=23)
    wq, wk, wv = (a.astype("float32") for a in (q, k, v))
    s = wq @ wk.transpose(0, 1, 3, 2) / np.sqrt(8)
    p = np.exp(s - s.max(-1, keepdims=True))
    ref = ((p / p.sum(-1, keepdims=True)) @ wv).astype("float16")
    got = _run(_convert(model), q, k, v)
    assert got.dtype == np.float16
    np.testing.assert_allclose(got.astype("float32"), ref.astype("float32"), atol=1e-3)


@pytest.mark.parametrize("batch_axis, time_axis", [(0, 1), (1, 0)])
def test_reverse_sequence_matches_onnxruntime(batch_axis, time_axis):
    x = RNG.standard_normal([4, 4, 2]).astype("float32")
    lens = np.array([4, 1, 3, 0] if batch_axis == 0 else [2, 4, 1, 3], "int64")
    node = helper.make_node(
        "ReverseSequence", ["x", "lens"], ["y"], batch_axis=batch_axis, time_axis=time_axis
    )
    inputs = [_tensor("x", [4, 4, 2]), _tensor("lens", [4], TensorProto.INT64)]
    model = _model([node], inputs, [_out("y", 3)], opset=10)
    got = _run(_convert(model), x, lens)
    np.testing.assert_array_equal(got, _ort(model, {"x": x, "lens": lens}))


@pytest.mark.parametrize("equation", ["...ii->...i", "b...j,bjk->b...k", "...ij"])
def test_einsum_with_an_ellipsis_matches_numpy(equation):
    if equation.startswith("b..."):
        arrays = [RNG.standard_normal(s).astype("float32") for s in ([2, 3, 4], [2, 4, 5])]
    else:
        arrays = [RNG.standard_normal([2, 3, 3]).astype("float32")]
    names = [f"x{i}" for i in range(len(arrays))]
    node = helper.make_node("Einsum", names, ["y"], equation=equation)
    inputs = [_tensor(n, list(a.shape)) for n, a in zip(names, arrays)]
    ref = np.einsum(equation, *arrays)
    model = _model([node], inputs, [_out("y", ref.ndim)], opset=12)
    np.testing.assert_allclose(_run(_convert(model), *arrays), ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_det_matches_numpy(n):
    x = RNG.standard_normal([2, 3, n, n]).astype("float32")
    node = helper.make_node("Det", ["x"], ["y"])
    model = _model([node], [_tensor("x", [2, 3, n, n])], [_out("y", 2)], opset=11)
    np.testing.assert_allclose(_run(_convert(model), x), np.linalg.det(x), rtol=1e-4, atol=1e-5)


def test_reverse_sequence_lengths_past_the_time_axis_are_clamped():
    # A length of 10 on 3 time steps gathered from index 9 (out of bounds, garbage read) and
    # a negative one from -5: they reverse the whole axis and nothing.
    x = np.arange(6, dtype="float32").reshape(3, 2)
    lens = np.array([10, -4], "int64")
    node = helper.make_node("ReverseSequence", ["x", "lens"], ["y"], batch_axis=1, time_axis=0)
    inputs = [_tensor("x", [3, 2]), _tensor("lens", [2], TensorProto.INT64)]
    model = _model([node], inputs, [_out("y", 2)], opset=10)
    got = _run(_convert(model), x, lens)
    np.testing.assert_array_equal(got, [[4, 1], [2, 3], [0, 5]])


# --- bad input: a clear error naming the node and op ---


@pytest.mark.parametrize(
    "equation, shapes, message",
    [
        # j is 4 in the first operand, 3 in the second: the sum read the second past its end
        ("ij,jk->ik", ([2, 4], [3, 2]), "letter 'j' of 'ij,jk->ik' has extents 4 and 3"),
        ("ij->k", ([2, 2],), "the output 'k' of 'ij->k' must name distinct letters"),
        ("ij->ii", ([2, 2],), "the output 'ii' of 'ij->ii' must name distinct letters"),
        ("ijk->i", ([2, 2],), "term 'ijk' of 'ijk->i' names 3 dimensions, its operand has 2"),
    ],
)
def test_einsum_equations_that_do_not_fit_their_operands(equation, shapes, message):
    names = [f"x{i}" for i in range(len(shapes))]
    node = helper.make_node("Einsum", names, ["y"], equation=equation, name="ein")
    inputs = [_tensor(n, s) for n, s in zip(names, shapes)]
    model = _model([node], inputs, [_out("y", 2)], opset=12)
    with pytest.raises(ValueError, match=f"'ein' \\(op Einsum.*{re.escape(message)}"):
        _convert(model)


def test_det_of_a_large_matrix_is_op_not_implemented():
    node = helper.make_node("Det", ["x"], ["y"], name="det4")
    model = _model([node], [_tensor("x", [4, 4])], [_out("y", 0)], opset=11)
    with pytest.raises(OpNotImplemented, match="'det4' \\(op Det.*4 x 4"):
        _convert(model)


def test_reverse_sequence_with_one_axis_for_both():
    node = helper.make_node(
        "ReverseSequence", ["x", "lens"], ["y"], batch_axis=0, time_axis=0, name="rev"
    )
    inputs = [_tensor("x", [2, 2]), _tensor("lens", [2], TensorProto.INT64)]
    model = _model([node], inputs, [_out("y", 2)], opset=10)
    with pytest.raises(ValueError, match="'rev' \\(op ReverseSequence.*both 0"):
        _convert(model)


def test_swiglu_with_mismatched_shapes_names_the_node():
    node = helper.make_node("SwiGLU", ["a", "b"], ["y"], name="glu")
    inputs = [_tensor("a", [2, 6]), _tensor("b", [2, 3])]
    model = _model([node], inputs, [_out("y", 2)], opset=28)
    with pytest.raises(ValueError, match="'glu' \\(op SwiGLU.*must have one shape"):
        _convert(model)


def test_space_to_depth_unknown_mode_is_op_not_implemented():
    node = helper.make_node("SpaceToDepth", ["x"], ["y"], blocksize=2, mode="XYZ", name="s2d")
    model = _model([node], [_tensor("x", [1, 1, 2, 2])], [_out("y", 4)], opset=28)
    with pytest.raises(OpNotImplemented, match="'s2d' \\(op SpaceToDepth.*mode='XYZ'"):
        _convert(model)


def test_center_crop_pad_shape_and_axes_disagree():
    node = helper.make_node("CenterCropPad", ["x", "shape"], ["y"], axes=[0, 1], name="ccp")
    inits = [_init("shape", np.array([2], "int64"))]
    model = _model([node], [_tensor("x", [5, 4])], [_out("y", 2)], inits, opset=18)
    with pytest.raises(ValueError, match="'ccp' \\(op CenterCropPad.*1 entries for 2 axes"):
        _convert(model)


@pytest.mark.parametrize("p", [0, -2])
def test_lp_pool_needs_a_positive_p(p):
    node = helper.make_node("LpPool", ["x"], ["y"], kernel_shape=[2, 2], p=p, name="lp")
    model = _model([node], [_tensor("x", [1, 1, 4, 4])], [_out("y", 4)], opset=18)
    with pytest.raises(ValueError, match=f"'lp' \\(op LpPool.*p must be positive, got {p}"):
        _convert(model)


def test_lrn_needs_a_positive_size():
    node = helper.make_node("LRN", ["x"], ["y"], size=0, name="lrn")
    model = _model([node], [_tensor("x", [1, 3, 2, 2])], [_out("y", 4)], opset=13)
    with pytest.raises(ValueError, match="'lrn' \\(op LRN.*size must be positive"):
        _convert(model)


def test_lrn_needs_a_channel_axis():
    node = helper.make_node("LRN", ["x"], ["y"], size=3, name="lrn2")
    model = _model([node], [_tensor("x", [4, 3])], [_out("y", 2)], opset=13)
    with pytest.raises(ValueError, match="'lrn2' \\(op LRN.*needs an \\(N, C, ...\\) input"):
        _convert(model)


def test_dropout_training_with_a_nonzero_ratio_is_op_not_implemented():
    node = helper.make_node("Dropout", ["x", "r", "t"], ["y"], name="drop")
    inits = [_init("r", np.array(0.3, "float32")), _init("t", np.array(True))]
    model = _model([node], [_tensor("x", [2, 2])], [_out("y", 2)], inits, opset=13)
    with pytest.raises(OpNotImplemented, match="'drop' \\(op Dropout.*nonzero ratio"):
        _convert(model)


@pytest.mark.parametrize(
    "attrs",
    [
        dict(kernel_shape=[3, 2], strides=[2, 1], pads=[1, 0, 1, 1]),
        dict(kernel_shape=[2, 2], storage_order=1, dilations=[2, 1]),
        dict(kernel_shape=[2, 3], strides=[2, 2], ceil_mode=1),
    ],
)
def test_max_pool_indices_match_onnxruntime(attrs):
    node = helper.make_node("MaxPool", ["x"], ["y", "i"], **attrs)
    model = _model(
        [node], [_tensor("x", [2, 3, 7, 6])], [_out("y", 4), _out("i", 4, TensorProto.INT64)]
    )
    x = RNG.standard_normal((2, 3, 7, 6)).astype("float32")
    ort = pytest.importorskip("onnxruntime")
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    want = sess.run(None, {"x": x})
    got = _run_all(_convert(model), x)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
    np.testing.assert_array_equal(got[1], want[1])


@pytest.mark.parametrize(
    "attrs",
    [
        dict(strides=[2, 1, 2], pads=[1, 0, 0, 0, 1, 1], output_padding=[1, 0, 0]),
        dict(group=2, dilations=[1, 2, 1]),
        dict(auto_pad="SAME_UPPER", strides=[2, 2, 1]),
    ],
)
def test_conv_transpose_3d_matches_onnxruntime(attrs):
    node = helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"], **attrs)
    w = RNG.standard_normal((4, 3, 2, 3, 2)).astype("float32")
    b = RNG.standard_normal(3 * attrs.get("group", 1)).astype("float32")
    model = _model(
        [node], [_tensor("x", [2, 4, 3, 4, 3])], [_out("y", 5)], [_init("w", w), _init("b", b)]
    )
    x = RNG.standard_normal((2, 4, 3, 4, 3)).astype("float32")
    got = _run_all(_convert(model), x)[0]
    np.testing.assert_allclose(got, _ort(model, {"x": x}), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "mode, coord, scales, extra",
    [
        ("linear", "half_pixel", [1, 1, 0.4, 0.6], {}),
        ("cubic", "half_pixel", [1, 1, 0.3, 0.5], dict(exclude_outside=1)),
        ("linear", "align_corners", [1, 1, 0.5, 0.75], {}),
        ("cubic", "pytorch_half_pixel", [1, 1, 0.6, 0.35], dict(cubic_coeff_a=-0.5)),
    ],
)
def test_resize_antialias_matches_onnxruntime(mode, coord, scales, extra):
    node = helper.make_node(
        "Resize",
        ["x", "", "scales"],
        ["y"],
        mode=mode,
        antialias=1,
        coordinate_transformation_mode=coord,
        **extra,
    )
    model = _model(
        [node],
        [_tensor("x", [2, 3, 17, 13])],
        [_out("y", 4)],
        [_init("scales", np.asarray(scales, "float32"))],
        opset=18,
    )
    x = RNG.standard_normal((2, 3, 17, 13)).astype("float32")
    got = _run_all(_convert(model), x)[0]
    if coord == "align_corners":  # onnxruntime 1.31 differs from the ONNX reference here
        from onnx.reference import ReferenceEvaluator

        want = ReferenceEvaluator(model).run(None, {"x": x})[0]
    else:
        want = _ort(model, {"x": x})
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("axis, is_sorted", [(0, 1), (-1, 1), (1, 0)])
def test_unique_along_an_axis_matches_onnxruntime(axis, is_sorted):
    node = helper.make_node("Unique", ["x"], ["y", "i", "inv", "n"], axis=axis, sorted=is_sorted)
    outs = [_out("y", 3), _out("i", 1, TensorProto.INT64), _out("inv", 1, TensorProto.INT64)]
    outs.append(_out("n", 1, TensorProto.INT64))
    model = _model([node], [_tensor("x", [4, 5, 3])], outs)
    x = RNG.integers(0, 2, (4, 5, 3)).astype("float32")
    x[2] = x[0]  # repeated slices along every axis choice
    x[:, 3] = x[:, 1]
    x[:, :, 2] = x[:, :, 0]
    ort = pytest.importorskip("onnxruntime")
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    want = sess.run(None, {"x": x})
    got = _run_all(_convert(model), x)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
