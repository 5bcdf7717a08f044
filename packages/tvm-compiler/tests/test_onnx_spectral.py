# ONNX DFT (forward, inverse, one-sided both ways, complex input, dft_length shorter or longer
# than the signal, any axis) and STFT through from_onnx on the Relax VM against onnxruntime,
# and the inputs they refuse.
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import helper  # noqa: E402
from test_onnx_converters import _run_all  # noqa: E402
from test_onnx_frontend import _init, _model, _tensor  # noqa: E402
from test_onnx_loop import _ort_all  # noqa: E402
from tvm.error import OpNotImplemented  # noqa: E402

RNG = np.random.default_rng(4)


def _check(model, feeds):
    from tvm.relax.frontend.onnx import from_onnx

    want = _ort_all(model, feeds)
    got = _run_all(from_onnx(model), *feeds.values())
    assert got[0].shape == want[0].shape
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "shape, axis, length, inverse, onesided",
    [
        ([2, 8, 3, 1], 1, None, 0, 0),
        ([2, 8, 3, 2], 1, 5, 0, 0),  # complex, cut to 5
        ([2, 6, 3, 2], -2, 9, 0, 0),  # zero-padded to 9
        ([2, 7, 3, 1], 1, None, 0, 1),  # rfft, odd length
        ([2, 8, 3, 2], 2, None, 1, 0),  # inverse over axis 2
        ([2, 5, 3, 2], 1, None, 1, 1),  # irfft to 8
        ([2, 5, 3, 2], 1, 9, 1, 1),  # irfft to 9
    ],
)
def test_dft_matches_onnxruntime(shape, axis, length, inverse, onesided):
    inputs = ["x", "n" if length is not None else "", "axis"]
    node = helper.make_node("DFT", inputs, ["y"], inverse=inverse, onesided=onesided)
    inits = [_init("axis", np.asarray(axis, "int64"))]
    if length is not None:
        inits.append(_init("n", np.asarray(length, "int64")))
    out = ["d0", "d1", "d2", "d3"]
    model = _model([node], [_tensor("x", shape)], [_tensor("y", out)], inits, opset=20)
    _check(model, {"x": RNG.standard_normal(shape).astype("float32")})


def test_dft_opset_17_takes_its_axis_as_an_attribute():
    node = helper.make_node("DFT", ["x"], ["y"], axis=2, onesided=1)
    model = _model([node], [_tensor("x", [2, 3, 6, 1])], [_tensor("y", [2, 3, 4, 2])], opset=17)
    _check(model, {"x": RNG.standard_normal((2, 3, 6, 1)).astype("float32")})


@pytest.mark.parametrize("window, complex_input", [(False, False), (True, False), (True, True)])
def test_stft_matches_onnxruntime(window, complex_input):
    parts = 2 if complex_input else 1
    inputs = ["x", "step", "w" if window else "", "" if window else "len"]
    node = helper.make_node("STFT", inputs, ["y"], onesided=0 if complex_input else 1)
    inits = [_init("step", np.asarray(3, "int64"))]
    if window:
        inits.append(_init("w", np.hanning(8).astype("float32")))
    else:
        inits.append(_init("len", np.asarray(8, "int64")))
    model = _model(
        [node],
        [_tensor("x", [2, 30, parts])],
        [_tensor("y", ["b", "f", "k", 2])],
        inits,
        opset=17,
    )
    _check(model, {"x": RNG.standard_normal((2, 30, parts)).astype("float32")})


def test_dft_with_a_run_time_length_is_op_not_implemented():
    from tvm.relax.frontend.onnx import from_onnx

    node = helper.make_node("DFT", ["x", "n"], ["y"])
    model = _model(
        [node],
        [_tensor("x", [1, 4, 1]), _tensor("n", [], onnx.TensorProto.INT64)],
        [_tensor("y", [1, "k", 2])],
        opset=20,
    )
    with pytest.raises(OpNotImplemented, match=r"op DFT, opset 20\): a dft_length"):
        from_onnx(model)


def test_dft_over_the_complex_axis_names_the_node():
    from tvm.relax.frontend.onnx import from_onnx

    node = helper.make_node("DFT", ["x", "", "axis"], ["y"])
    model = _model(
        [node],
        [_tensor("x", [1, 4, 1])],
        [_tensor("y", [1, 4, 2])],
        [_init("axis", np.asarray(-1, "int64"))],
        opset=20,
    )
    with pytest.raises(ValueError, match=r"op DFT, opset 20\): axis 2 is the real/imaginary"):
        from_onnx(model)
