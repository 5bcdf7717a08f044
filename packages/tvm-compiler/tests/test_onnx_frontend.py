# from_onnx's contract (inputs, initializers, options, errors) and whole models built with
# onnx.helper, compiled and run on the Relax VM against onnxruntime with changing batch sizes.
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

RNG = np.random.default_rng(0)


def _model(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _tensor(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def _init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def _main_params(mod):
    from tvm.relax.frontend.onnx._relax_api import struct_info

    return [(p.name_hint, struct_info(p)) for p in mod["main"].params]


def test_inputs_become_params_with_symbolic_dims():
    from tvm.relax.frontend.onnx import from_onnx
    from tvm.relax.frontend.onnx.common import shape_of

    m = _model(
        [helper.make_node("Add", ["x", "y"], ["z"])],
        [_tensor("x", ["batch", 4]), _tensor("y", ["batch", 4])],
        [_tensor("z", ["batch", 4])],
    )
    mod = from_onnx(m)
    x, y = mod["main"].params
    assert x.name_hint == "x" and y.name_hint == "y"
    bx, by = shape_of(x)[0], shape_of(y)[0]
    assert bx.same_as(by), "one dim_param is one symbolic variable"
    assert shape_of(x)[1] == 4


def test_unknown_dim_is_a_fresh_symbolic_dim_and_shape_dict_overrides():
    from tvm.relax.frontend.onnx import from_onnx
    from tvm.relax.frontend.onnx.common import shape_of

    m = _model(
        [helper.make_node("Relu", ["x"], ["y"])],
        [_tensor("x", [None, 3])],
        [_tensor("y", [None, 3])],
    )
    dim = shape_of(from_onnx(m)["main"].params[0])[0]
    assert not isinstance(dim, int)
    assert shape_of(from_onnx(m, shape_dict={"x": [5, 3]})["main"].params[0]) == [5, 3]


def test_initializers_are_constants_or_params():
    from tvm.relax.frontend.onnx import from_onnx

    w = RNG.standard_normal((4, 2)).astype("float32")
    m = _model(
        [helper.make_node("MatMul", ["x", "w"], ["y"])],
        [_tensor("x", [3, 4])],
        [_tensor("y", [3, 2])],
        [_init("w", w)],
    )
    plain = from_onnx(m)
    assert [n for n, _ in _main_params(plain)] == ["x"]
    kept = from_onnx(m, keep_params_in_input=True)
    assert [n for n, _ in _main_params(kept)] == ["x", "w"]
    params = kept["main"].attrs["params"]
    assert len(params) == 1
    np.testing.assert_array_equal(params[0].numpy(), w)
    assert int(kept["main"].attrs["num_input"]) == 1


def test_sanitize_input_names():
    from tvm.relax.frontend.onnx import from_onnx

    m = _model(
        [helper.make_node("Relu", ["in:0"], ["y"])], [_tensor("in:0", [2])], [_tensor("y", [2])]
    )
    assert [n for n, _ in _main_params(from_onnx(m))] == ["in_0"]
    assert [n for n, _ in _main_params(from_onnx(m, sanitize_input_names=False))] == ["in:0"]


def test_unsupported_op_names_op_opset_and_node():
    from tvm.error import OpNotImplemented
    from tvm.relax.frontend.onnx import from_onnx

    m = _model(
        [
            helper.make_node("Relu", ["x"], ["r"]),
            helper.make_node("Bernoulli", ["r"], ["y"], "mynz"),
        ],
        [_tensor("x", [2, 2])],
        [_tensor("y", [2, 2])],
        opset=17,
    )
    with pytest.raises(OpNotImplemented, match=r"'mynz'.*op Bernoulli.*opset 17") as info:
        from_onnx(m)
    assert isinstance(info.value, NotImplementedError)


def test_unsupported_attribute_is_op_not_implemented():
    from tvm.error import OpNotImplemented
    from tvm.relax.frontend.onnx import from_onnx

    node = helper.make_node("MaxPool", ["x"], ["y"], name="p", kernel_shape=[2], storage_order=2)
    m = _model([node], [_tensor("x", [1, 1, 4])], [_tensor("y", [1, 1, 3])])
    with pytest.raises(OpNotImplemented, match=r"'p'.*MaxPool.*storage_order"):
        from_onnx(m)


def test_model_failing_checker_is_value_error():
    from tvm.relax.frontend.onnx import from_onnx

    m = _model([helper.make_node("Relu", ["x"], ["y"])], [_tensor("x", [2])], [_tensor("y", [2])])
    m.graph.node[0].input[0] = "undefined"
    with pytest.raises(ValueError, match="onnx.checker"):
        from_onnx(m)


def test_model_must_be_a_model_proto():
    from tvm.relax.frontend.onnx import from_onnx

    with pytest.raises(TypeError, match="from_onnx: model must be an onnx.ModelProto"):
        from_onnx("model.onnx")


def test_opset_selects_semantics():
    # Softmax before opset 13 flattens at axis 1; from opset 13 it is over one axis only.
    from tvm.relax.frontend.onnx import from_onnx

    x = RNG.standard_normal((2, 3, 4)).astype("float32")
    m = _model(
        [helper.make_node("Softmax", ["x"], ["y"], axis=1)],
        [_tensor("x", [2, 3, 4])],
        [_tensor("y", [2, 3, 4])],
        opset=11,
    )
    old = _run(from_onnx(m), x)
    flat = np.exp(x.reshape(2, 12))
    np.testing.assert_allclose(old, (flat / flat.sum(1, keepdims=True)).reshape(x.shape), 1e-5)
    new = _run(from_onnx(m, opset=13), x)
    e = np.exp(x)
    np.testing.assert_allclose(new, e / e.sum(1, keepdims=True), rtol=1e-5)


def _run(mod, *arrays):
    import tvm
    from tvm import relax

    if not hasattr(relax, "VirtualMachine"):
        pytest.skip("the Relax VM is not in this build yet")
    ex = tvm.compile(mod, target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    out = vm["main"](*[tvm.runtime.tensor(a) for a in arrays])
    return out.numpy()


def _ort(model, feeds):
    ort = pytest.importorskip("onnxruntime")
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)[0]


def _mlp():
    w1 = RNG.standard_normal((16, 32)).astype("float32") * 0.3
    b1 = RNG.standard_normal(32).astype("float32")
    w2 = RNG.standard_normal((32, 10)).astype("float32") * 0.3
    b2 = RNG.standard_normal(10).astype("float32")
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h0"]),
        helper.make_node("Add", ["h0", "b1"], ["h1"]),
        helper.make_node("Relu", ["h1"], ["h2"]),
        helper.make_node("Gemm", ["h2", "w2", "b2"], ["h3"]),
        helper.make_node("Softmax", ["h3"], ["y"], axis=-1),
    ]
    inits = [_init("w1", w1), _init("b1", b1), _init("w2", w2), _init("b2", b2)]
    return _model(nodes, [_tensor("x", ["N", 16])], [_tensor("y", ["N", 10])], inits)


def _cnn():
    c_in, c_mid = 3, 8
    w = RNG.standard_normal((c_mid, c_in, 3, 3)).astype("float32") * 0.3
    b = RNG.standard_normal(c_mid).astype("float32")
    scale = RNG.uniform(0.5, 1.5, c_mid).astype("float32")
    bias = RNG.standard_normal(c_mid).astype("float32")
    mean = RNG.standard_normal(c_mid).astype("float32") * 0.1
    var = RNG.uniform(0.5, 1.5, c_mid).astype("float32")
    fc_w = RNG.standard_normal((c_mid * 4 * 4, 5)).astype("float32") * 0.1
    fc_b = RNG.standard_normal(5).astype("float32")
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        helper.make_node("BatchNormalization", ["c", "s", "bb", "m", "v"], ["bn"], epsilon=1e-5),
        helper.make_node("Relu", ["bn"], ["r"]),
        helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p"], ["f"], axis=1),
        helper.make_node("Gemm", ["f", "fw", "fb"], ["y"]),
    ]
    inits = [
        _init("w", w),
        _init("b", b),
        _init("s", scale),
        _init("bb", bias),
        _init("m", mean),
        _init("v", var),
        _init("fw", fc_w),
        _init("fb", fc_b),
    ]
    return _model(nodes, [_tensor("x", ["N", c_in, 8, 8])], [_tensor("y", ["N", 5])], inits)


@pytest.mark.parametrize("build, shape", [(_mlp, (16,)), (_cnn, (3, 8, 8))], ids=["mlp", "cnn"])
def test_model_matches_onnxruntime_with_dynamic_batch(build, shape):
    import tvm
    from tvm import relax
    from tvm.relax.frontend.onnx import from_onnx

    if not hasattr(relax, "VirtualMachine"):
        pytest.skip("the Relax VM is not in this build yet")
    model = build()
    vm = relax.VirtualMachine(tvm.compile(from_onnx(model), target="llvm"), tvm.cpu())
    for batch in (1, 4, 3):  # one compiled function, batch sizes changing between calls
        x = RNG.standard_normal((batch, *shape)).astype("float32")
        got = vm["main"](tvm.runtime.tensor(x)).numpy()
        np.testing.assert_allclose(got, _ort(model, {"x": x}), rtol=1e-4, atol=1e-4)


def _if_model(cond_input):
    """y = If(c) then x + 1 else x * 2 (the branches read x from the enclosing graph)."""
    one = helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])
    two = helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])
    then_g = helper.make_graph(
        [helper.make_node("Add", ["x", "one"], ["t"])], "then", [], [_tensor("t", [2, 3])], [one]
    )
    else_g = helper.make_graph(
        [helper.make_node("Mul", ["x", "two"], ["e"])], "else", [], [_tensor("e", [2, 3])], [two]
    )
    node = helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)
    inputs = [_tensor("x", [2, 3])]
    inits = []
    if cond_input is None:
        inputs.append(_tensor("c", [], TensorProto.BOOL))
    else:
        inits.append(_init("c", np.array(cond_input)))
    return _model([node], inputs, [_tensor("y", [2, 3])], inits, opset=13)


def _has_if(mod):
    from tvm import relax

    body = mod["main"].body
    return any(isinstance(b.value, relax.If) for block in body.blocks for b in block.bindings)


def test_if_runs_the_branch_its_run_time_condition_picks():
    from tvm.relax.frontend.onnx import from_onnx

    model = _if_model(None)
    mod = from_onnx(model)
    assert _has_if(mod)
    x = RNG.standard_normal((2, 3)).astype("float32")
    for c in (True, False):
        got = _run(mod, x, np.array(c))
        np.testing.assert_allclose(got, _ort(model, {"x": x, "c": np.array(c)}), rtol=1e-6)


def test_if_with_a_constant_condition_inlines_its_branch():
    from tvm.relax.frontend.onnx import from_onnx

    mod = from_onnx(_if_model(False))
    assert not _has_if(mod)
    x = RNG.standard_normal((2, 3)).astype("float32")
    np.testing.assert_allclose(_run(mod, x), x * 2, rtol=1e-6)


def test_range_with_run_time_bounds_has_a_symbolic_length():
    from tvm.relax.frontend.onnx import from_onnx

    node = helper.make_node("Range", ["start", "limit", "delta"], ["y"])
    inputs = [_tensor(n, []) for n in ("start", "limit", "delta")]
    mod = from_onnx(_model([node], inputs, [_tensor("y", ["L"])], opset=11))
    for bounds in ((0.0, 5.0, 1.0), (2.0, -1.0, -0.5), (1.0, 1.0, 1.0)):
        arrays = [np.array(v, "float32") for v in bounds]
        np.testing.assert_allclose(_run(mod, *arrays), np.arange(*arrays), rtol=1e-6)


def test_window_with_a_run_time_size_matches_onnxruntime():
    from tvm.relax.frontend.onnx import from_onnx

    node = helper.make_node("BlackmanWindow", ["n"], ["y"], periodic=0)
    model = _model([node], [_tensor("n", [], TensorProto.INT64)], [_tensor("y", ["L"])])
    mod = from_onnx(model)
    for size in (5, 8):
        n = np.array(size, "int64")
        np.testing.assert_allclose(_run(mod, n), _ort(model, {"n": n}), rtol=1e-5, atol=1e-6)
