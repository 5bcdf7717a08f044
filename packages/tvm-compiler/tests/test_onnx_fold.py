# ONNX TensorScatter (linear and circular KV-cache writes), Col2Im (strides, dilations, pads,
# 1-D to 3-D blocks) and MaxUnpool (with and without output_shape) through from_onnx on the
# Relax VM against onnxruntime, and the inputs they refuse.
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from test_onnx_converters import _run_all  # noqa: E402
from test_onnx_frontend import _init, _model, _tensor  # noqa: E402
from test_onnx_loop import _ort_all  # noqa: E402
from tvm.error import OpNotImplemented  # noqa: E402

RNG = np.random.default_rng(8)


def _check(model, feeds, spec=False):
    """from_onnx's result against onnxruntime's, or with spec against the ONNX reference."""
    from onnx.reference import ReferenceEvaluator
    from tvm.relax.frontend.onnx import from_onnx

    want = ReferenceEvaluator(model).run(None, feeds) if spec else _ort_all(model, feeds)
    got = _run_all(from_onnx(model), *feeds.values())
    assert got[0].shape == want[0].shape
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode, axis", [("linear", -2), ("circular", -2), ("circular", 1)])
def test_tensor_scatter_matches_onnxruntime(mode, axis):
    cache = [2, 6, 3, 4] if axis == 1 else [2, 3, 6, 4]
    update = list(cache)
    update[axis] = 3
    node = helper.make_node("TensorScatter", ["c", "u", "i"], ["y"], mode=mode, axis=axis)
    inputs = [_tensor("c", cache), _tensor("u", update), _tensor("i", [2], TensorProto.INT64)]
    model = _model([node], inputs, [_tensor("y", cache)], opset=24)
    feeds = {
        "c": RNG.standard_normal(cache).astype("float32"),
        "u": RNG.standard_normal(update).astype("float32"),
        "i": np.asarray([1, 5 if mode == "circular" else 3], "int64"),
    }
    _check(model, feeds)


@pytest.mark.parametrize(
    "image, block, attrs",
    [
        ([5, 6], [2, 3], dict(strides=[1, 2], dilations=[2, 1], pads=[1, 0, 1, 1])),
        ([7], [3], dict(strides=[2], pads=[1, 1])),
        ([3, 4, 4], [2, 2, 2], dict()),
    ],
)
def test_col2im_matches_onnxruntime(image, block, attrs):
    nsp = len(image)
    strides = attrs.get("strides", [1] * nsp)
    dil = attrs.get("dilations", [1] * nsp)
    pads = attrs.get("pads", [0] * 2 * nsp)
    counts = [
        (image[k] + pads[k] + pads[k + nsp] - dil[k] * (block[k] - 1) - 1) // strides[k] + 1
        for k in range(nsp)
    ]
    shape = [2, 3 * int(np.prod(block)), int(np.prod(counts))]
    node = helper.make_node("Col2Im", ["x", "image", "block"], ["y"], **attrs)
    inits = [_init("image", np.asarray(image, "int64")), _init("block", np.asarray(block, "int64"))]
    model = _model([node], [_tensor("x", shape)], [_tensor("y", [2, 3, *image])], inits, opset=18)
    _check(model, {"x": RNG.standard_normal(shape).astype("float32")})


def test_col2im_with_the_wrong_column_count_names_the_node():
    from tvm.relax.frontend.onnx import from_onnx

    node = helper.make_node("Col2Im", ["x", "image", "block"], ["y"])
    inits = [
        _init("image", np.asarray([4, 4], "int64")),
        _init("block", np.asarray([2, 2], "int64")),
    ]
    model = _model([node], [_tensor("x", [1, 4, 8])], [_tensor("y", [1, 1, 4, 4])], inits, opset=18)
    with pytest.raises(ValueError, match=r"op Col2Im, opset 18\): input \[1, 4, 8\] does not fit"):
        from_onnx(model)


@pytest.mark.parametrize("output_shape", [None, [1, 2, 7, 9]])
def test_max_unpool_matches_onnxruntime(output_shape):
    """The pooled values and their indices come from onnxruntime's MaxPool. With a larger
    output_shape the ONNX reference (and the backend test case) reads the indices in the
    unpooled shape and pads after it; onnxruntime reads them in output_shape's layout: the
    reference decides there."""
    pool = helper.make_node("MaxPool", ["x"], ["p", "i"], kernel_shape=[2, 2], strides=[2, 2])
    pooled = _model(
        [pool],
        [_tensor("x", [1, 2, 6, 8])],
        [_tensor("p", [1, 2, 3, 4]), _tensor("i", [1, 2, 3, 4], TensorProto.INT64)],
        opset=22,
    )
    p, i = _ort_all(pooled, {"x": RNG.standard_normal((1, 2, 6, 8)).astype("float32")})
    names = ["p", "i"] + (["shape"] if output_shape else [])
    unpool = helper.make_node("MaxUnpool", names, ["y"], kernel_shape=[2, 2], strides=[2, 2])
    inits = [_init("shape", np.asarray(output_shape, "int64"))] if output_shape else []
    model = _model(
        [unpool],
        [_tensor("p", [1, 2, 3, 4]), _tensor("i", [1, 2, 3, 4], TensorProto.INT64)],
        [_tensor("y", output_shape or [1, 2, 6, 8])],
        inits,
        opset=22,
    )
    _check(model, {"p": p, "i": i}, spec=output_shape is not None)


def test_tensor_scatter_unknown_mode_is_op_not_implemented():
    from tvm.relax.frontend.onnx import from_onnx

    node = helper.make_node("TensorScatter", ["c", "u"], ["y"], mode="wrap")
    model = _model(
        [node],
        [_tensor("c", [1, 4, 2]), _tensor("u", [1, 1, 2])],
        [_tensor("y", [1, 4, 2])],
        opset=24,
    )
    with pytest.raises(OpNotImplemented, match=r"op TensorScatter, opset 24\): mode='wrap'"):
        from_onnx(model)
