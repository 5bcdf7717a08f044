# tvm.relax.testing.nn: upstream's small model builder (Sequential of Linear, ReLU,
# LogSoftmax) makes a Relax function that compiles and computes what NumPy does.
import numpy as np
import pytest
import tvm
import tvm.testing
from relax_programs import run
from tvm import relax
from tvm.relax.testing import nn


def _mlp():
    bb = relax.BlockBuilder()
    with bb.function("main"):
        model = nn.Sequential(nn.Linear(6, 4), nn.ReLU(), nn.Linear(4, 3), nn.LogSoftmax())
        data = nn.Placeholder((2, 6), name="data")
        output = model(data)
        params = [data] + model.parameters()
        bb.emit_func_output(output, params=params)
    return bb.get(), model


def test_parameters_are_listed_in_order_with_unique_names():
    mod, model = _mlp()
    names = [p.name_hint for p in model.parameters()]
    assert names == ["linear_weight", "linear_bias", "linear_weight1", "linear_bias1"]
    main = mod["main"]
    assert [p.name_hint for p in main.params] == ["data", *names]
    assert [tuple(int(d) for d in p.struct_info.shape.values) for p in main.params] == [
        (2, 6),
        (4, 6),
        (4,),
        (3, 4),
        (3,),
    ]
    assert all(isinstance(p, relax.Var) for p in main.params)


def test_the_model_computes_a_log_softmax_mlp():
    mod, _ = _mlp()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 6)).astype("float32")
    w1, b1 = rng.standard_normal((4, 6)).astype("float32"), rng.standard_normal(4).astype("float32")
    w2, b2 = rng.standard_normal((3, 4)).astype("float32"), rng.standard_normal(3).astype("float32")
    ex = tvm.compile(mod, target="c")
    got = run(ex, x, w1, b1, w2, b2).numpy()
    h = np.maximum(x @ w1.T + b1, 0) @ w2.T + b2
    expected = (
        h
        - np.log(np.exp(h - h.max(1, keepdims=True)).sum(1, keepdims=True))
        - h.max(1, keepdims=True)
    )
    tvm.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_init_params_gives_zeros_of_each_parameter_shape():
    mod, _ = _mlp()
    params = nn.init_params(mod)
    assert [tuple(p.shape) for p in params] == [(4, 6), (4,), (3, 4), (3,)]
    assert all(not p.numpy().any() for p in params)


def test_the_module_saves_as_json_keeping_the_classes_and_prints():
    mod, _ = _mlp()
    again = tvm.ir.load_json(tvm.ir.save_json(mod))
    tvm.ir.assert_structural_equal(mod, again)
    assert type(again["main"].params[1]) is nn.Parameter
    assert 'linear_weight: R.Tensor((4, 6), dtype="float32")' in mod.script()


def test_the_module_round_trips_through_tvmscript():
    # Parsed back, the parameters are plain relax.Vars: equal, as they have the same type key.
    mod, _ = _mlp()
    again = tvm.script.from_source(mod.script())
    tvm.ir.assert_structural_equal(mod, again)
    assert tvm.ir.structural_hash(mod) == tvm.ir.structural_hash(again)


def test_layers_outside_a_builder_and_bad_shapes_are_errors():
    with pytest.raises(RuntimeError, match="nn.Parameter: no BlockBuilder function is being built"):
        nn.Linear(2, 3)
    bb = relax.BlockBuilder()
    with bb.function("main"):
        with pytest.raises(TypeError, match="nn.Placeholder: the shape is expected to be a list"):
            nn.Placeholder(4)
        x = nn.Placeholder((2,))
        bb.emit_func_output(x, params=[x])
    with pytest.raises(NotImplementedError, match="Module.forward is not defined"):
        nn.Module()(1)
