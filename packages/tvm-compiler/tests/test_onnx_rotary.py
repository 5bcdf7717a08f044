# ONNX RotaryEmbedding through from_onnx (4-D and 3-D inputs, halves or interleaved pairs,
# partial rotation, caches read at position ids or given per token) on the Relax VM against
# onnxruntime, and the inputs it refuses.
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from test_onnx_converters import _run_all  # noqa: E402
from test_onnx_frontend import _model, _tensor  # noqa: E402
from test_onnx_loop import _ort_all  # noqa: E402

F, I64 = TensorProto.FLOAT, TensorProto.INT64
RNG = np.random.default_rng(3)


def _rotary(x_shape, rotary_dim=0, interleaved=0, positions=True, num_heads=0):
    batch, seq = x_shape[0], (x_shape[2] if len(x_shape) == 4 else x_shape[1])
    head = x_shape[3] if len(x_shape) == 4 else x_shape[2] // num_heads
    half = (rotary_dim or head) // 2
    cache = [16, half] if positions else [batch, seq, half]
    names = ["x", "cos", "sin"] + (["pos"] if positions else [])
    attrs = dict(interleaved=interleaved, rotary_embedding_dim=rotary_dim)
    if num_heads:
        attrs["num_heads"] = num_heads
    node = helper.make_node("RotaryEmbedding", names, ["y"], **attrs)
    inputs = [_tensor("x", x_shape), _tensor("cos", cache), _tensor("sin", cache)]
    feeds = {
        "x": RNG.standard_normal(x_shape).astype("float32"),
        "cos": RNG.standard_normal(cache).astype("float32"),
        "sin": RNG.standard_normal(cache).astype("float32"),
    }
    if positions:
        inputs.append(_tensor("pos", [batch, seq], I64))
        feeds["pos"] = RNG.integers(0, 16, (batch, seq)).astype("int64")
    return _model([node], inputs, [_tensor("y", x_shape)], opset=23), feeds


@pytest.mark.parametrize(
    "x_shape, kwargs",
    [
        ([2, 3, 5, 8], dict()),
        ([2, 3, 5, 8], dict(interleaved=1, rotary_dim=4)),
        ([2, 3, 5, 8], dict(positions=False, rotary_dim=6)),
        ([2, 5, 24], dict(num_heads=3, interleaved=1)),
        ([1, 4, 12], dict(num_heads=2, positions=False, rotary_dim=2)),
    ],
)
def test_rotary_embedding_matches_onnxruntime(x_shape, kwargs):
    from tvm.relax.frontend.onnx import from_onnx

    model, feeds = _rotary(x_shape, **kwargs)
    want = _ort_all(model, feeds)
    got = _run_all(from_onnx(model), *feeds.values())
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-6)


def test_three_d_input_without_num_heads_names_the_node():
    from tvm.relax.frontend.onnx import from_onnx

    model, _ = _rotary([2, 5, 24], num_heads=3)
    attrs = model.graph.node[0].attribute
    attrs.remove(next(a for a in attrs if a.name == "num_heads"))
    with pytest.raises(ValueError, match=r"op RotaryEmbedding, opset 23\): a 3-D input needs"):
        from_onnx(model)


def test_odd_rotary_dim_names_the_node():
    from tvm.relax.frontend.onnx import from_onnx

    model, _ = _rotary([2, 3, 5, 8], rotary_dim=4)
    next(a for a in model.graph.node[0].attribute if a.name == "rotary_embedding_dim").i = 3
    with pytest.raises(ValueError, match=r"rotary_embedding_dim 3 must be even"):
        from_onnx(model)
