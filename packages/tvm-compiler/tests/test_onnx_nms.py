# ONNX NonMaxSuppression through from_onnx (corner and center boxes, several batches and
# classes, run-time limits, with and without a score threshold, nothing selected) on the Relax
# VM against onnxruntime: one compiled model for every input, its output length found at run time.
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from test_onnx_converters import _run_all  # noqa: E402
from test_onnx_frontend import _model, _tensor  # noqa: E402
from test_onnx_loop import _ort_all  # noqa: E402
from tvm.error import OpNotImplemented  # noqa: E402

F, I64 = TensorProto.FLOAT, TensorProto.INT64
RNG = np.random.default_rng(12)


def _nms(batches, classes, boxes, threshold=True, center=0):
    names = ["boxes", "scores", "max", "iou"] + (["score"] if threshold else [])
    node = helper.make_node("NonMaxSuppression", names, ["y"], center_point_box=center)
    inputs = [
        _tensor("boxes", [batches, boxes, 4]),
        _tensor("scores", [batches, classes, boxes]),
        _tensor("max", [1], I64),
        _tensor("iou", [1]),
    ] + ([_tensor("score", [1])] if threshold else [])
    return _model([node], inputs, [_tensor("y", ["n", 3], I64)], opset=11)


def _boxes(batches, boxes, center):
    corner = RNG.uniform(0, 10, (batches, boxes, 2))
    size = RNG.uniform(1, 4, (batches, boxes, 2))
    if center:
        return np.concatenate([corner, size], axis=-1).astype("float32")
    return np.concatenate([corner, corner + size], axis=-1).astype("float32")


@pytest.mark.parametrize("center", [0, 1])
@pytest.mark.parametrize("threshold", [True, False])
def test_nms_matches_onnxruntime_for_every_limit(center, threshold):
    from tvm.relax.frontend.onnx import from_onnx

    model = _nms(2, 3, 20, threshold, center)
    mod = from_onnx(model)
    for limit, iou, score in [(3, 0.3, 0.2), (20, 0.1, 0.5), (0, 0.5, 0.0), (5, 0.5, 2.0)]:
        feeds = {
            "boxes": _boxes(2, 20, center),
            "scores": RNG.uniform(0, 1, (2, 3, 20)).astype("float32"),
            "max": np.asarray([limit], "int64"),
            "iou": np.asarray([iou], "float32"),
        }
        if threshold:
            feeds["score"] = np.asarray([score], "float32")
        want = _ort_all(model, feeds)[0]
        got = _run_all(mod, *feeds.values())[0]
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_nms_unknown_box_format_is_op_not_implemented():
    from tvm.relax.frontend.onnx import from_onnx

    with pytest.raises(OpNotImplemented, match=r"op NonMaxSuppression, opset 11\): center_po"):
        from_onnx(_nms(1, 1, 4, center=2))


def test_nms_scores_for_other_boxes_name_the_node():
    from tvm.relax.frontend.onnx import from_onnx

    model = _nms(1, 1, 4)
    model.graph.input[1].type.tensor_type.shape.dim[2].dim_value = 5
    with pytest.raises(ValueError, match=r"op NonMaxSuppression, opset 11\): scores \[1, 1, 5\]"):
        from_onnx(model)
