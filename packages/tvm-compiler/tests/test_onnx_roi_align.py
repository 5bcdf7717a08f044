# ONNX RoiAlign through from_onnx (avg and max, both coordinate modes, a spatial scale,
# regions past the image) on the Relax VM against onnxruntime (at opset 16: it has no
# RoiAlign-22, which only widens the types), and what it refuses.
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from test_onnx_converters import _run_all  # noqa: E402
from test_onnx_frontend import _model, _tensor  # noqa: E402
from test_onnx_loop import _ort_all  # noqa: E402
from tvm.error import OpNotImplemented  # noqa: E402

RNG = np.random.default_rng(21)


def _roi_align(**attrs):
    node = helper.make_node("RoiAlign", ["x", "rois", "idx"], ["y"], **attrs)
    inputs = [
        _tensor("x", [2, 3, 10, 12]),
        _tensor("rois", [5, 4]),
        _tensor("idx", [5], TensorProto.INT64),
    ]
    out = [5, 3, attrs.get("output_height", 1), attrs.get("output_width", 1)]
    return _model([node], inputs, [_tensor("y", out)], opset=16)


@pytest.mark.parametrize(
    "attrs",
    [
        dict(sampling_ratio=2, output_height=3, output_width=4),
        dict(
            sampling_ratio=3,
            output_height=2,
            output_width=2,
            spatial_scale=0.5,
            coordinate_transformation_mode="output_half_pixel",
        ),
        dict(sampling_ratio=2, output_height=4, output_width=3, mode="max"),
    ],
)
def test_roi_align_matches_onnxruntime(attrs):
    from tvm.relax.frontend.onnx import from_onnx

    model = _roi_align(**attrs)
    corner = RNG.uniform(-2, 10, (5, 2))
    rois = np.concatenate([corner, corner + RNG.uniform(0.5, 8, (5, 2))], axis=1)
    feeds = {
        "x": RNG.standard_normal((2, 3, 10, 12)).astype("float32"),
        "rois": rois.astype("float32"),
        "idx": np.asarray([0, 1, 1, 0, 1], "int64"),
    }
    want = _ort_all(model, feeds)[0]
    got = _run_all(from_onnx(model), *feeds.values())[0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_roi_align_adaptive_sampling_is_op_not_implemented():
    from tvm.relax.frontend.onnx import from_onnx

    with pytest.raises(OpNotImplemented, match=r"op RoiAlign, opset 16\): sampling_ratio=0"):
        from_onnx(_roi_align(output_height=2, output_width=2))
