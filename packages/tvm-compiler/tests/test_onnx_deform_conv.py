# ONNX DeformConv through from_onnx (groups, offset groups, strides, dilations, pads, mask and
# bias) on the Relax VM against onnxruntime, and the shapes it refuses.
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import helper  # noqa: E402
from test_onnx_converters import _run_all  # noqa: E402
from test_onnx_frontend import _model, _tensor  # noqa: E402
from test_onnx_loop import _ort_all  # noqa: E402

RNG = np.random.default_rng(30)


def _deform(x, w, out_hw, mask_bias=False, **attrs):
    og = attrs.get("offset_group", 1)
    taps = w[2] * w[3]
    offset = [x[0], og * taps * 2, *out_hw]
    names = ["x", "w", "offset"] + (["b", "mask"] if mask_bias else [])
    inputs = [_tensor("x", x), _tensor("w", w), _tensor("offset", offset)]
    feeds = {
        "x": RNG.standard_normal(x).astype("float32"),
        "w": RNG.standard_normal(w).astype("float32"),
        "offset": RNG.uniform(-2, 2, offset).astype("float32"),
    }
    if mask_bias:
        mask = [x[0], og * taps, *out_hw]
        inputs += [_tensor("b", [w[0]]), _tensor("mask", mask)]
        feeds["b"] = RNG.standard_normal(w[0]).astype("float32")
        feeds["mask"] = RNG.uniform(0, 1, mask).astype("float32")
    node = helper.make_node("DeformConv", names, ["y"], kernel_shape=w[2:], **attrs)
    model = _model([node], inputs, [_tensor("y", [x[0], w[0], *out_hw])], opset=19)
    return model, feeds


@pytest.mark.parametrize(
    "x, w, out_hw, mask_bias, attrs",
    [
        ([2, 4, 6, 7], [6, 4, 3, 3], [4, 5], False, {}),
        ([1, 4, 7, 7], [4, 2, 2, 3], [3, 2], True, dict(group=2, offset_group=2, strides=[2, 3])),
        ([1, 2, 5, 6], [3, 2, 3, 2], [4, 6], True, dict(pads=[2, 1, 1, 2], dilations=[2, 3])),
    ],
)
def test_deform_conv_matches_onnxruntime(x, w, out_hw, mask_bias, attrs):
    from tvm.relax.frontend.onnx import from_onnx

    model, feeds = _deform(x, w, out_hw, mask_bias, **attrs)
    want = _ort_all(model, feeds)[0]
    got = _run_all(from_onnx(model), *feeds.values())[0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_deform_conv_offsets_for_other_taps_name_the_node():
    from tvm.relax.frontend.onnx import from_onnx

    model, _ = _deform([1, 2, 5, 5], [2, 2, 3, 3], [3, 3])
    model.graph.input[2].type.tensor_type.shape.dim[1].dim_value = 8
    with pytest.raises(ValueError, match=r"op DeformConv, opset 19\): X \[1, 2, 5, 5\], W"):
        from_onnx(model)


def test_deform_conv_offsets_of_another_output_size_name_the_node():
    from tvm.relax.frontend.onnx import from_onnx

    model, _ = _deform([1, 2, 5, 5], [2, 2, 3, 3], [4, 3])
    with pytest.raises(ValueError, match=r"the offsets cover \[4, 3\]; the output is \[3, 3\]"):
        from_onnx(model)
