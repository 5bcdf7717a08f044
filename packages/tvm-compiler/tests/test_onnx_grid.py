# ONNX GridSample (every mode, padding mode and align_corners, 2-D and 3-D images, grid
# points outside the image) and AffineGrid through from_onnx on the Relax VM against
# onnxruntime, and the inputs they refuse.
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import helper  # noqa: E402
from test_onnx_converters import _run_all  # noqa: E402
from test_onnx_frontend import _init, _model, _tensor  # noqa: E402
from test_onnx_loop import _ort_all  # noqa: E402
from tvm.error import OpNotImplemented  # noqa: E402

RNG = np.random.default_rng(9)


def _grid_sample(x_shape, grid_shape, opset=22, **attrs):
    node = helper.make_node("GridSample", ["x", "grid"], ["y"], **attrs)
    y_shape = [x_shape[0], x_shape[1], *grid_shape[1:-1]]
    return _model(
        [node],
        [_tensor("x", x_shape), _tensor("grid", grid_shape)],
        [_tensor("y", y_shape)],
        opset=opset,
    )


def _check(model, feeds, spec=False):
    """from_onnx's result against onnxruntime's, or with spec against the ONNX reference
    implementation's."""
    from onnx.reference import ReferenceEvaluator
    from tvm.relax.frontend.onnx import from_onnx

    want = ReferenceEvaluator(model).run(None, feeds) if spec else _ort_all(model, feeds)
    got = _run_all(from_onnx(model), *feeds.values())
    assert got[0].shape == want[0].shape
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [0, 1])
def test_grid_sample_2d_matches_onnxruntime(mode, padding_mode, align_corners):
    """Cubic with border padding is checked against the ONNX reference instead: onnxruntime
    1.31 differs from it there (by 0.2 on these inputs), from_onnx follows the reference."""
    model = _grid_sample(
        [2, 3, 5, 4],
        [2, 6, 7, 2],
        mode=mode,
        padding_mode=padding_mode,
        align_corners=align_corners,
    )
    feeds = {
        "x": RNG.standard_normal((2, 3, 5, 4)).astype("float32"),
        "grid": RNG.uniform(-1.7, 1.7, (2, 6, 7, 2)).astype("float32"),
    }
    _check(model, feeds, spec=(mode, padding_mode) == ("cubic", "border"))


def test_grid_sample_opset_16_names_its_modes_bilinear_and_bicubic():
    model = _grid_sample([1, 2, 4, 4], [1, 3, 3, 2], opset=16, mode="bicubic")
    feeds = {
        "x": RNG.standard_normal((1, 2, 4, 4)).astype("float32"),
        "grid": RNG.uniform(-1.2, 1.2, (1, 3, 3, 2)).astype("float32"),
    }
    _check(model, feeds)


@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_grid_sample_3d_matches_the_onnx_reference(mode):
    """onnxruntime has no 5-D GridSample: the ONNX reference implementation decides."""

    model = _grid_sample([1, 2, 3, 4, 5], [1, 2, 3, 4, 3], mode=mode, padding_mode="border")
    feeds = {
        "x": RNG.standard_normal((1, 2, 3, 4, 5)).astype("float32"),
        "grid": RNG.uniform(-1.3, 1.3, (1, 2, 3, 4, 3)).astype("float32"),
    }
    _check(model, feeds, spec=True)


def test_grid_sample_unknown_mode_is_op_not_implemented():
    from tvm.relax.frontend.onnx import from_onnx

    model = _grid_sample([1, 1, 3, 3], [1, 2, 2, 2], mode="linear")
    model.graph.node[0].attribute[0].s = b"lanczos"
    with pytest.raises(OpNotImplemented, match=r"op GridSample, opset 22\): mode='lanczos'"):
        from_onnx(model)


def test_grid_sample_grid_of_the_wrong_rank_names_the_node():
    from tvm.relax.frontend.onnx import from_onnx

    model = _grid_sample([1, 1, 3, 3], [1, 2, 2, 3])
    with pytest.raises(ValueError, match=r"op GridSample, opset 22\): X \[1, 1, 3, 3\] and grid"):
        from_onnx(model)


@pytest.mark.parametrize("size", [[2, 3, 4, 5], [1, 2, 3, 4, 5]])
@pytest.mark.parametrize("align_corners", [0, 1])
def test_affine_grid_matches_onnxruntime(size, align_corners):
    nsp = len(size) - 2
    node = helper.make_node("AffineGrid", ["theta", "size"], ["grid"], align_corners=align_corners)
    model = _model(
        [node],
        [_tensor("theta", [size[0], nsp, nsp + 1])],
        [_tensor("grid", [size[0], *size[2:], nsp])],
        [_init("size", np.asarray(size, "int64"))],
        opset=20,
    )
    _check(model, {"theta": RNG.standard_normal((size[0], nsp, nsp + 1)).astype("float32")})


def test_affine_grid_with_a_run_time_size_is_op_not_implemented():
    from tvm.relax.frontend.onnx import from_onnx

    node = helper.make_node("AffineGrid", ["theta", "size"], ["grid"])
    model = _model(
        [node],
        [_tensor("theta", [1, 2, 3]), _tensor("size", [4], onnx.TensorProto.INT64)],
        [_tensor("grid", [1, "h", "w", 2])],
        opset=20,
    )
    with pytest.raises(OpNotImplemented, match=r"op AffineGrid, opset 20\): a size"):
        from_onnx(model)
