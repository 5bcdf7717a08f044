# ONNX RNN, GRU and LSTM through from_onnx (every direction and layout, sequence_lens, initial
# states, peepholes, activations, clip; a static length unrolled, a symbolic or long one run as a
# loop) on the Relax VM against onnxruntime, and the errors of the layers it cannot convert.
import re

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from test_onnx_converters import _run_all  # noqa: E402
from test_onnx_frontend import _model, _tensor  # noqa: E402
from test_onnx_loop import _ort_all  # noqa: E402
from tvm.error import OpNotImplemented  # noqa: E402

F, I32 = TensorProto.FLOAT, TensorProto.INT32
RNG = np.random.default_rng(11)
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


def _layer(kind, steps, batch=3, size=4, hidden=5, direction="forward", **attrs):
    """A model of one kind layer over X [steps, batch, size] (steps may be a dim_param) with
    every optional input, the feeds for it (X of feed_steps steps, default steps) and their
    names."""
    feed_steps = attrs.pop("feed_steps", steps)
    lens = attrs.pop("lens", None)
    num_dir = 2 if direction == "bidirectional" else 1
    g = GATES[kind]
    arrays = {
        "W": RNG.standard_normal((num_dir, g * hidden, size)).astype("float32") * 0.5,
        "R": RNG.standard_normal((num_dir, g * hidden, hidden)).astype("float32") * 0.5,
        "B": RNG.standard_normal((num_dir, 2 * g * hidden)).astype("float32") * 0.5,
    }
    state_shape = (num_dir, batch, hidden)
    arrays["X"] = RNG.standard_normal((feed_steps, batch, size)).astype("float32")
    lens = np.full(batch, feed_steps, "int32") if lens is None else np.asarray(lens, "int32")
    arrays["sequence_lens"] = lens
    arrays["initial_h"] = RNG.standard_normal(state_shape).astype("float32")
    names = ["X", "W", "R", "B", "sequence_lens", "initial_h"]
    outputs = ["Y", "Y_h"]
    if kind == "LSTM":
        arrays["initial_c"] = RNG.standard_normal(state_shape).astype("float32")
        arrays["P"] = RNG.standard_normal((num_dir, 3 * hidden)).astype("float32")
        names += ["initial_c", "P"]
        outputs.append("Y_c")
    shapes = {n: list(a.shape) for n, a in arrays.items()}
    shapes["X"] = [steps, batch, size]
    y_shape = [steps, num_dir, batch, hidden]
    node = helper.make_node(kind, names, outputs, hidden_size=hidden, direction=direction, **attrs)
    elems = {"sequence_lens": I32}
    inputs = [_tensor(n, shapes[n], elems.get(n, F)) for n in names]
    outs = [_tensor("Y", y_shape)] + [_tensor(o, list(state_shape)) for o in outputs[1:]]
    return _model([node], inputs, outs, opset=22), [arrays[n] for n in names], names


def _check(model, feeds, names, layout=0):
    """from_onnx's results against onnxruntime's; with layout=1 (which onnxruntime lacks)
    for the same layer made batch-major: inputs and results transposed to match."""
    from tvm.relax.frontend.onnx import from_onnx

    want = _ort_all(model, dict(zip(names, feeds)))
    if layout == 1:
        model = _batch_major(model)
        feeds = [_to_batch_major(n, a) for n, a in zip(names, feeds)]
        want = [w.transpose(2, 0, 1, 3) if w.ndim == 4 else w.transpose(1, 0, 2) for w in want]
    got = _run_all(from_onnx(model), *feeds)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def _to_batch_major(name, array):
    return array.transpose(1, 0, 2) if name in ("X", "initial_h", "initial_c") else array


def _batch_major(model):
    """model's layer with layout=1: its X, states and results transposed to batch-major."""
    model = onnx.ModelProto.FromString(model.SerializeToString())
    graph = model.graph
    graph.node[0].attribute.append(helper.make_attribute("layout", 1))
    for vi in list(graph.input) + list(graph.output):
        dims = vi.type.tensor_type.shape.dim
        order = {"Y": (2, 0, 1, 3)}.get(vi.name, (1, 0, 2))
        if vi.name in ("X", "initial_h", "initial_c", "Y", "Y_h", "Y_c"):
            old = [onnx.TensorShapeProto.Dimension() for _ in dims]
            for k, dim in enumerate(dims):
                old[k].CopyFrom(dim)
            for k, src in enumerate(order):
                dims[k].CopyFrom(old[src])
    return model


@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
@pytest.mark.parametrize("layout", [0, 1])
def test_layer_with_lengths_and_states_matches_onnxruntime(kind, direction, layout):
    model, feeds, names = _layer(kind, 4, direction=direction, lens=[4, 2, 3])
    _check(model, feeds, names, layout)


def _symbolic(model):
    """model with its length T and batch N symbolic (dim_params)."""
    model = onnx.ModelProto.FromString(model.SerializeToString())
    where = {"X": {0: "T", 1: "N"}, "Y": {0: "T", 2: "N"}, "sequence_lens": {0: "N"}}
    for vi in list(model.graph.input) + list(model.graph.output):
        for k, name in where.get(vi.name, {1: "N"} if vi.name != "W" else {}).items():
            if vi.name in ("R", "B", "P"):
                continue
            vi.type.tensor_type.shape.dim[k].dim_param = name
    return model


@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
def test_symbolic_length_and_batch_run_as_a_loop(kind):
    """One compiled model (T and N dim_params) against onnxruntime for short and long X."""
    from tvm import relax
    from tvm.relax.frontend.onnx import from_onnx

    model = _symbolic(_layer(kind, 2, direction="bidirectional")[0])
    mod = from_onnx(model)
    bindings = [b for block in mod["main"].body.blocks for b in block.bindings]
    loops = [b for b in bindings if isinstance(b.value, relax.Function)]
    assert len(loops) == 2, "a symbolic length cannot be unrolled: one loop per direction"
    for steps, lens in [(2, [2, 1, 2]), (70, [70, 33]), (5, [5])]:
        _, feeds, names = _layer(kind, steps, batch=len(lens), direction="bidirectional", lens=lens)
        want = _ort_all(model, dict(zip(names, feeds)))
        got = _run_all(mod, *feeds)
        for g, w in zip(got, want):
            assert g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def test_long_static_length_is_a_loop_too():
    model, feeds, names = _layer("GRU", 80, batch=2, lens=[80, 41])
    _check(model, feeds, names)


@pytest.mark.parametrize(
    "kind, attrs",
    [
        ("RNN", dict(activations=["Relu"], clip=0.7)),
        ("RNN", dict(activations=["LeakyRelu"], activation_alpha=[0.2])),
        ("GRU", dict(linear_before_reset=1)),
        ("GRU", dict(activations=["HardSigmoid", "Softsign"], activation_alpha=[0.3])),
        ("LSTM", dict(input_forget=1, clip=0.5)),
        ("LSTM", dict(activations=["Sigmoid", "Tanh", "Tanh", "HardSigmoid", "Softsign", "Elu"])),
    ],
)
def test_options_match_onnxruntime(kind, attrs):
    direction = "bidirectional" if len(attrs.get("activations", [])) == 6 else "forward"
    model, feeds, names = _layer(kind, 3, direction=direction, **attrs)
    _check(model, feeds, names)


def test_unknown_activation_is_op_not_implemented():
    model, _, _ = _layer("RNN", 3, activations=["Gelu"])
    from tvm.relax.frontend.onnx import from_onnx

    with pytest.raises(OpNotImplemented, match=re.escape("(op RNN, opset 22): the activation")):
        from_onnx(model)


def test_wrong_activation_count_names_the_node():
    model, _, _ = _layer("GRU", 3, activations=["Sigmoid", "Tanh", "Tanh"])
    from tvm.relax.frontend.onnx import from_onnx

    with pytest.raises(ValueError, match=r"op GRU, opset 22\): activations must name 2"):
        from_onnx(model)


def test_hidden_size_that_does_not_fit_w_names_the_node():
    model, _, _ = _layer("LSTM", 3)
    next(a for a in model.graph.node[0].attribute if a.name == "hidden_size").i = 4
    from tvm.relax.frontend.onnx import from_onnx

    with pytest.raises(ValueError, match=r"op LSTM, opset 22\): W \[1, 20, 4\] does not hold"):
        from_onnx(model)


def test_bad_direction_is_op_not_implemented():
    model, _, _ = _layer("GRU", 3)
    next(a for a in model.graph.node[0].attribute if a.name == "direction").s = b"sideways"
    from tvm.relax.frontend.onnx import from_onnx

    with pytest.raises(OpNotImplemented, match=r"op GRU, opset 22\): direction='sideways'"):
        from_onnx(model)
