# ONNX Slice whose starts / ends are computed at run time (dynamic_strided_slice), run on the
# Relax VM against onnxruntime, and its errors.
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from test_onnx_converters import _run_all  # noqa: E402
from test_onnx_frontend import _init, _model, _ort, _tensor  # noqa: E402

I64 = TensorProto.INT64
X = np.arange(60, dtype="float32").reshape(3, 4, 5)


def _convert(model):
    from tvm.relax.frontend.onnx import from_onnx

    return from_onnx(model)


@pytest.mark.parametrize(
    "starts, ends, axes, steps",
    [
        ([1], [3], None, None),  # axis 0 only
        ([-4, 1], [100, -1], [2, 1], None),  # negative and past-the-end bounds
        ([3, 0], [0, 5], [1, 2], [-1, 2]),  # a reversed axis
        ([0, 1, 2], [2, 3, 4], None, [1, 1, 1]),
    ],
)
def test_run_time_starts_and_ends_match_onnxruntime(starts, ends, axes, steps):
    inits = []
    inputs = ["x", "starts", "ends"]
    if axes is not None:
        inits.append(_init("axes", np.array(axes, "int64")))
        inputs.append("axes")
    if steps is not None:
        if axes is None:
            inits.append(_init("axes", np.arange(len(starts), dtype="int64")))
            inputs.append("axes")
        inits.append(_init("steps", np.array(steps, "int64")))
        inputs.append("steps")
    node = helper.make_node("Slice", inputs, ["y"])
    graph_inputs = [_tensor("x", [3, 4, 5]), _tensor("starts", [len(starts)], I64)]
    graph_inputs.append(_tensor("ends", [len(ends)], I64))
    model = _model([node], graph_inputs, [_tensor("y", ["a", "b", "c"])], inits, opset=13)
    feeds = {"x": X, "starts": np.array(starts, "int64"), "ends": np.array(ends, "int64")}
    (got,) = _run_all(_convert(model), *feeds.values())
    np.testing.assert_array_equal(got, _ort(model, feeds))


def test_run_time_starts_with_repeated_axes_is_a_value_error():
    node = helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["y"])
    inputs = [_tensor("x", [3, 4, 5]), _tensor("starts", [2], I64), _tensor("ends", [2], I64)]
    model = _model(
        [node], inputs, [_tensor("y", ["a", "b", "c"])], [_init("axes", np.array([1, 1]))]
    )
    with pytest.raises(ValueError, match=r"op Slice, opset 17\): .* with distinct axes"):
        _convert(model)
