# ONNX Scan through from_onnx (Scan-9+ with input/output axes and directions, Scan-8 with its
# batch axis; a static length unrolled, a long or symbolic one run as a loop) on the Relax VM
# against onnxruntime, and the Scans it refuses.
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from test_onnx_converters import _run_all  # noqa: E402
from test_onnx_frontend import _init, _model, _tensor  # noqa: E402
from test_onnx_loop import _ort_all  # noqa: E402
from tvm.error import OpNotImplemented  # noqa: E402

F = TensorProto.FLOAT
RNG = np.random.default_rng(5)


def _body():
    """(s, a, b) -> (s + a, (s + a) * b, s + a): a state and two scan outputs."""
    nodes = [
        helper.make_node("Add", ["s", "a"], ["s_out"]),
        helper.make_node("Mul", ["s_out", "b"], ["m"]),
        helper.make_node("Identity", ["s_out"], ["s_copy"]),
    ]
    elem = [3, 2]
    inputs = [_tensor(n, elem) for n in ("s", "a", "b")]
    outputs = [_tensor(n, elem) for n in ("s_out", "m", "s_copy")]
    return helper.make_graph(nodes, "body", inputs, outputs)


def _scan9(steps):
    """a [3, T, 2] scanned along axis 1, b [T, 3, 2] along axis 0 backwards; m stacked on
    axis 2 backwards ([3, 2, T]), s_copy on axis 0 ([T, 3, 2])."""
    node = helper.make_node(
        "Scan",
        ["s0", "a", "b"],
        ["s", "m_all", "s_all"],
        body=_body(),
        num_scan_inputs=2,
        scan_input_axes=[1, 0],
        scan_input_directions=[0, 1],
        scan_output_axes=[2, -3],
        scan_output_directions=[1, 0],
    )
    inputs = [_tensor("s0", [3, 2]), _tensor("a", [3, steps, 2]), _tensor("b", [steps, 3, 2])]
    outputs = [
        _tensor("s", [3, 2]),
        _tensor("m_all", [3, 2, steps]),
        _tensor("s_all", [steps, 3, 2]),
    ]
    return _model([node], inputs, outputs, opset=16)


def _feeds(steps):
    return {
        "s0": RNG.standard_normal((3, 2)).astype("float32"),
        "a": RNG.standard_normal((3, steps, 2)).astype("float32"),
        "b": RNG.standard_normal((steps, 3, 2)).astype("float32"),
    }


def _check(mod, model, feeds):
    want = _ort_all(model, feeds)
    got = _run_all(mod, *feeds.values())
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("steps", [1, 4, 70])
def test_scan_axes_and_directions_match_onnxruntime(steps):
    from tvm.relax.frontend.onnx import from_onnx

    model = _scan9(steps)
    _check(from_onnx(model), model, _feeds(steps))


def test_symbolic_length_runs_as_a_loop():
    from tvm import relax
    from tvm.relax.frontend.onnx import from_onnx

    model = _scan9("T")
    mod = from_onnx(model)
    bindings = [b for block in mod["main"].body.blocks for b in block.bindings]
    assert any(isinstance(b.value, relax.Function) for b in bindings), "a loop, not unrolled"
    for steps in (3, 70):
        _check(mod, model, _feeds(steps))


def _scan8(lens=None):
    """Scan-8 over a batch of 2: s [2, 2] += x [2, 5, 2] backwards, the sums scanned."""
    body = helper.make_graph(
        [helper.make_node("Add", ["s", "x"], ["s_out"]), helper.make_node("Neg", ["s_out"], ["n"])],
        "body",
        [_tensor("s", [2]), _tensor("x", [2])],
        [_tensor("s_out", [2]), _tensor("n", [2])],
    )
    node = helper.make_node(
        "Scan",
        ["lens" if lens is not None else "", "s0", "x"],
        ["s", "n_all"],
        body=body,
        num_scan_inputs=1,
        directions=[1],
    )
    inits = [] if lens is None else [_init("lens", np.asarray(lens, "int64"))]
    return _model(
        [node],
        [_tensor("s0", [2, 2]), _tensor("x", [2, 5, 2])],
        [_tensor("s", [2, 2]), _tensor("n_all", [2, 5, 2])],
        inits,
        opset=8,
    )


def test_scan8_runs_each_batch_entry():
    from tvm.relax.frontend.onnx import from_onnx

    model = _scan8(lens=[5, 5])
    feeds = {
        "s0": RNG.standard_normal((2, 2)).astype("float32"),
        "x": RNG.standard_normal((2, 5, 2)).astype("float32"),
    }
    _check(from_onnx(model), model, feeds)


def test_scan8_with_shorter_sequences_is_op_not_implemented():
    from tvm.relax.frontend.onnx import from_onnx

    with pytest.raises(OpNotImplemented, match=r"op Scan, opset 8\): sequence_lens other than"):
        from_onnx(_scan8(lens=[5, 3]))


def test_output_axes_of_the_wrong_count_name_the_node():
    from tvm.relax.frontend.onnx import from_onnx

    model = _scan9(4)
    attr = next(a for a in model.graph.node[0].attribute if a.name == "scan_output_axes")
    del attr.ints[1:]
    with pytest.raises(ValueError, match=r"op Scan, opset 16\): scan_output_axes must have 2"):
        from_onnx(model)
