# tvm.relax.frontend.nn core: Module/Parameter/Tensor/spec, export_tvm's IR layout, the quick start.
import numpy as np
import pytest
import tvm
from tvm import relax, tir
from tvm.relax.frontend import nn


class MLPModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 256)
        self.relu1 = nn.ReLU()
        self.fc2 = nn.Linear(256, 10)

    def forward(self, x):
        return self.fc2(self.relu1(self.fc1(x)))


def _run(mod, name, *args):
    ex = tvm.compile(relax.get_pipeline("zero")(mod), target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    return vm[name](*[tvm.runtime.tensor(a) if isinstance(a, np.ndarray) else a for a in args])


def _shape(sinfo):
    return [int(d) if isinstance(d, tir.IntImm) else str(d) for d in sinfo.shape.values]


def test_quick_start_runs_and_matches_numpy():
    # Apache TVM's quick start, unchanged but for seeded data and the NumPy reference.
    mod, param_spec = MLPModel().export_tvm(
        spec={"forward": {"x": nn.spec.Tensor((1, 784), "float32")}}
    )
    mod = relax.get_pipeline("zero")(mod)
    ex = tvm.compile(mod, target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    rng = np.random.default_rng(0)
    params = [rng.random(p.shape).astype("float32") for _, p in param_spec]
    x = rng.random((1, 784)).astype("float32")
    out = vm["forward"](tvm.runtime.tensor(x), *[tvm.runtime.tensor(p) for p in params]).numpy()
    w1, b1, w2, b2 = params
    expected = np.maximum(x @ w1.T + b1, 0) @ w2.T + b2
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-3)


def test_export_layout_names_and_struct_info():
    mod, params = MLPModel().export_tvm(
        spec={"forward": {"x": nn.spec.Tensor((1, 784), "float32")}}
    )
    assert [n for n, _ in params] == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert [p.shape for _, p in params] == [[256, 784], [256], [10, 256], [10]]
    assert repr(params[0][1]) == 'Tensor([256, 784], "float32")'
    func = mod["forward"]
    assert [p.name_hint for p in func.params] == [
        "x", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias",
    ]  # fmt: skip
    assert [_shape(p.struct_info) for p in func.params] == [
        [1, 784], [256, 784], [256], [10, 256], [10],
    ]  # fmt: skip
    assert int(func.attrs["num_input"]) == 1
    assert _shape(func.ret_struct_info) == [1, 10]
    assert list(mod.get_global_vars()[i].name_hint for i in range(1)) == ["forward"]
    ops = [b.value.op.name for b in func.body.blocks[0].bindings if isinstance(b.value, relax.Call)]
    assert ops == ["relax.permute_dims", "relax.matmul", "relax.add", "relax.nn.relu"] * 1 + [
        "relax.permute_dims", "relax.matmul", "relax.add",
    ]  # fmt: skip
    text = mod.script()
    assert 'fc1_weight: R.Tensor((256, 784), dtype="float32")' in text
    assert "permute_dims: R.Tensor((784, 256)" in text


def test_symbolic_dims_and_int_spec_share_one_var():
    class M(nn.Module):
        def __init__(self):
            self.w = nn.Parameter((4, "k"))

        def forward(self, x, n: int):
            return x.reshape(n, -1) @ self.w

    mod, params = M().export_tvm(
        {"forward": {"x": nn.spec.Tensor(["n", 8], "float32"), "n": nn.spec.Int()}}
    )
    func = mod["forward"]
    x, n, w = func.params
    assert isinstance(n.struct_info, relax.ShapeStructInfo)
    assert n.struct_info.values[0].same_as(x.struct_info.shape.values[0])
    assert _shape(w.struct_info) == [4, "k"]
    assert int(func.attrs["num_input"]) == 2
    assert params[0][0] == "w"
    # "int" and int are accepted spellings of Int
    for spelling in (int, "int"):
        m2, _ = M().export_tvm(
            {"forward": {"x": nn.spec.Tensor(["n", 8], "float32"), "n": spelling}}
        )
        assert isinstance(m2["forward"].params[1].struct_info, relax.ShapeStructInfo)


def test_symbolic_batch_runs():
    mod, params = MLPModel().export_tvm(
        {"forward": {"x": nn.spec.Tensor(["batch", 784], "float32")}}
    )
    rng = np.random.default_rng(1)
    ws = [rng.standard_normal(p.shape).astype("float32") * 0.05 for _, p in params]
    x = rng.standard_normal((3, 784)).astype("float32")
    out = _run(mod, "forward", x, *ws).numpy()
    w1, b1, w2, b2 = ws
    np.testing.assert_allclose(out, np.maximum(x @ w1.T + b1, 0) @ w2.T + b2, rtol=1e-4, atol=1e-4)


def test_debug_adds_effect_arguments_and_prints(capfd):
    class M(nn.Module):
        def forward(self, x):
            nn.print_(x)
            return x * 2.0

    mod, params = M().export_tvm({"forward": {"x": nn.spec.Tensor([2], "float32")}}, debug=True)
    assert params == []
    init, func = mod["_initialize_effect"], mod["forward"]
    assert list(init.params) == []
    assert [p.name_hint for p in func.params] == ["x", ".io"]
    assert isinstance(func.params[1].struct_info, relax.ObjectStructInfo)
    assert int(func.attrs["num_input"]) == 2
    ret = func.ret_struct_info
    assert isinstance(ret, relax.TupleStructInfo) and len(ret.fields) == 2
    assert isinstance(ret.fields[1], relax.TupleStructInfo)
    ex = tvm.compile(relax.get_pipeline("zero")(mod), target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    io = vm["_initialize_effect"]()
    out, _ = vm["forward"](tvm.runtime.tensor(np.array([1.0, 3.0], "float32")), io[0])
    np.testing.assert_allclose(out.numpy(), [2.0, 6.0])
    printed = capfd.readouterr().out
    assert "shape = (2,), dtype = float32, data =" in printed
    assert "[1. 3.]" in printed


def test_print_needs_debug():
    class M(nn.Module):
        def forward(self, x):
            nn.print_(x)
            return x

    with pytest.raises(RuntimeError, match="debug mode"):
        M().export_tvm({"forward": {"x": nn.spec.Tensor([2], "float32")}})


def test_parameters_state_dict_and_load():
    class Block(nn.Module):
        def __init__(self):
            self.layers = nn.ModuleList([nn.Linear(2, 3), nn.Linear(3, 1, bias=False)])
            self.scale = nn.Parameter((1,))

        def forward(self, x):
            return self.layers(x) * self.scale

    m = Block()
    names = [n for n, _ in m.named_parameters()]
    assert names == ["layers.0.weight", "layers.0.bias", "layers.1.weight", "scale"]
    assert [n for n, _ in m.named_parameters(prefix="m.")][0] == "m.layers.0.weight"
    assert len(list(m.parameters())) == 4
    sd = m.state_dict()
    assert list(sd) == names and sd["scale"] is m.scale
    src = Block()
    for name, p in src.named_parameters():
        p.data = np.full(p.shape, len(name), "float32")
    missing, unexpected = m.load_state_dict(src.state_dict())
    assert (missing, unexpected) == ([], [])
    np.testing.assert_array_equal(m.scale.data.numpy(), [5.0])
    partial = {"scale": src.scale, "extra": src.scale}
    with pytest.raises(KeyError, match="Missing keys"):
        m.load_state_dict(partial)
    missing, unexpected = m.load_state_dict(partial, strict=False)
    assert unexpected == ["extra"] and "layers.0.weight" in missing
    unbound = Block()
    with pytest.raises(ValueError, match="not bound"):
        m.load_state_dict(unbound.state_dict())


def test_parameter_data_checks_and_to():
    p = nn.Parameter((2, 3))
    assert p.dtype == "float32" and p.data is None and p.ndim == 2
    with pytest.raises(ValueError, match=r"shape mismatch: expected \(2, 3\), got \(3, 2\)"):
        p.data = np.zeros((3, 2), "float32")
    with pytest.raises(ValueError, match="dtype mismatch: expected float32, got float64"):
        p.data = np.zeros((2, 3), "float64")
    with pytest.raises(TypeError, match="nn.Parameter.data"):
        p.data = [[1, 2, 3]]
    p.to("float16")
    assert p.dtype == "float16"
    p.data = np.zeros((2, 3), "float16")
    with pytest.raises(ValueError, match="bound to data"):
        p.to("float32")
    m = MLPModel()
    m.to("float16")
    assert {q.dtype for q in m.parameters()} == {"float16"}
    mod, _ = m.export_tvm({"forward": {"x": nn.spec.Tensor((1, 784), "float16")}})
    assert mod["forward"].params[1].struct_info.dtype == "float16"


def test_tensor_operators_and_methods():
    class M(nn.Module):
        def forward(self, a, b):
            assert a.shape == [2, 3] and a.ndim == 2 and a.dtype == "float32"
            c = (a + b) * 2.0 - b / 4.0
            c = 1.0 + c
            d = c @ b.permute_dims(1, 0)
            return d.reshape(4, 1), (3.0 - a).maximum(b), a.astype("float16")

    mod, _ = M().export_tvm(
        {
            "forward": {
                "a": nn.spec.Tensor([2, 3], "float32"),
                "b": nn.spec.Tensor([2, 3], "float32"),
            }
        }
    )
    rng = np.random.default_rng(2)
    a, b = rng.random((2, 3)).astype("float32"), rng.random((2, 3)).astype("float32") + 0.5
    d, m, h = _run(mod, "forward", a, b)
    c = 1.0 + (a + b) * 2.0 - b / 4.0
    np.testing.assert_allclose(d.numpy(), (c @ b.T).reshape(4, 1), rtol=1e-5)
    np.testing.assert_allclose(m.numpy(), np.maximum(3.0 - a, b), rtol=1e-6)
    assert h.numpy().dtype == np.float16


def test_spec_errors_name_method_and_argument():
    m = MLPModel()
    with pytest.raises(ValueError, match=r"method 'forward' names argument\(s\) \['y'\]"):
        m.export_tvm({"forward": {"x": nn.spec.Tensor((1, 784), "float32"), "y": int}})
    with pytest.raises(ValueError, match=r"no spec for argument\(s\) \['x'\]"):
        m.export_tvm({"forward": {}})
    with pytest.raises(TypeError, match=r"invalid spec for argument 'x' of method 'forward'"):
        m.export_tvm({"forward": {"x": (1, 784)[0]}})
    with pytest.raises(ValueError, match="spec names method 'backward'"):
        m.export_tvm({"backward": {"x": nn.spec.Tensor((1, 784), "float32")}})
    with pytest.raises(TypeError, match="nn.spec.Tensor: shape entries must be int or str"):
        nn.spec.Tensor([1.5, 2], "float32")
    with pytest.raises(TypeError, match="nn.spec.Tensor: shape must be a list or tuple"):
        nn.spec.Tensor(784, "float32")


def test_shape_mismatch_is_a_clear_error():
    # A traced shape error names the op; a run-time one names the function and argument.
    with pytest.raises(ValueError, match=r"matmul: x1 of shape \(1, 783\)") as info:
        MLPModel().export_tvm({"forward": {"x": nn.spec.Tensor((1, 783), "float32")}})
    # Python 3.11+ (exception notes): the traced method and its spec are named too
    assert not hasattr(info.value, "add_note") or info.value.__notes__ == [
        "while nn.Module.export_tvm traced method 'forward'(x: Tensor([1, 783], 'float32'))"
    ]
    mod, params = MLPModel().export_tvm({"forward": {"x": nn.spec.Tensor((1, 784), "float32")}})
    ws = [np.zeros(p.shape, "float32") for _, p in params]
    with pytest.raises(ValueError, match=r"(?s)785, expected 784.*VM function 'forward'"):
        _run(mod, "forward", np.zeros((1, 785), "float32"), *ws)
    sym, _ = MLPModel().export_tvm({"forward": {"x": nn.spec.Tensor(["n", 784], "float32")}})
    with pytest.raises(ValueError, match=r"fn=forward.*param=x.*is 785, expected 784"):
        _run(sym, "forward", np.zeros((1, 785), "float32"), *ws)


def test_op_outside_export_and_bad_operands():
    x = nn.Tensor.placeholder([2], "float32", name="x")
    with pytest.raises(RuntimeError, match="must be called while a module is being exported"):
        nn.op.relu(x)
    with pytest.raises(TypeError, match=r"nn.op.add: argument 'b' must be an nn.Tensor, got list"):
        nn.op.add(x, [1, 2])
    with pytest.raises(TypeError, match="nn.Tensor.__add__"):
        x + "a"
    with pytest.raises(
        TypeError, match="method .forward.: it returned a int; expected an nn.Tensor"
    ):

        class Bad(nn.Module):
            def forward(self, x):
                return 3

        Bad().export_tvm({"forward": {"x": nn.spec.Tensor([2], "float32")}})


def test_multiple_methods_and_module_containers():
    class M(nn.Module):
        def __init__(self):
            self.blocks = nn.ModuleDict({"a": nn.Linear(2, 2), "b": nn.Linear(2, 2, bias=False)})

        def forward(self, x):
            return self.blocks["b"](self.blocks["a"](x))

        def first(self, x):
            return self.blocks["a"](x)

    mod, params = M().export_tvm(
        {
            "forward": {"x": nn.spec.Tensor([1, 2], "float32")},
            "first": {"x": nn.spec.Tensor([1, 2], "float32")},
        }
    )
    assert [n for n, _ in params] == ["blocks.a.weight", "blocks.a.bias", "blocks.b.weight"]
    assert len(mod["forward"].params) == 4 and len(mod["first"].params) == 4
    # each function gets its own parameter vars
    assert not mod["forward"].params[1].same_as(mod["first"].params[1])
    w = [np.eye(2, dtype="float32") * 2, np.ones(2, "float32"), np.eye(2, dtype="float32") * 3]
    x = np.array([[1.0, 2.0]], "float32")
    np.testing.assert_allclose(_run(mod, "forward", x, *w).numpy(), (x * 2 + 1) * 3)
    np.testing.assert_allclose(_run(mod, "first", x, *w).numpy(), x * 2 + 1)


def test_packed_params_and_tuple_inputs():
    class M(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(2, 2, bias=False)

        def forward(self, pair):
            a, b = pair
            return self.fc(a) + b

    spec = {
        "forward": {
            "pair": (nn.spec.Tensor([1, 2], "float32"), nn.spec.Tensor([1, 2], "float32")),
            "$": {"param_mode": "packed", "effect_mode": "none"},
        }
    }
    mod, params = M().export_tvm(spec)
    pair, packed = mod["forward"].params
    assert pair.name_hint == "pair" and isinstance(pair.struct_info, relax.TupleStructInfo)
    assert packed.name_hint == "packed_params" and len(packed.struct_info.fields) == 1
    assert int(mod["forward"].attrs["num_input"]) == 1
    names = [b.var.name_hint for b in mod["forward"].body.blocks[0].bindings]
    assert names[:3] == ["fc.weight", "pair_0", "pair_1"]
    with pytest.raises(ValueError, match="Invalid param_mode: flat"):
        M().export_tvm({"forward": {"pair": spec["forward"]["pair"], "$": {"param_mode": "flat"}}})


def test_parameter_list_and_dict():
    class M(nn.Module):
        def __init__(self):
            self.scales = nn.ParameterList([nn.Parameter((2,)), nn.Parameter((2,))])
            self.extra = nn.ParameterDict({"shift": nn.Parameter((2,))})

        def forward(self, x):
            return x * self.scales[0] * self.scales[1] + self.extra["shift"]

    m = M()
    names = [n for n, _ in m.named_parameters()]
    assert names == ["scales.0", "scales.1", "extra.shift"]
    mod, params = m.export_tvm({"forward": {"x": nn.spec.Tensor([2], "float32")}})
    assert [p.name_hint for p in mod["forward"].params] == ["x", *names]
    x, s0, s1, sh = (np.array(v, "float32") for v in ([1, 2], [3, 4], [5, 6], [7, 8]))
    np.testing.assert_allclose(_run(mod, "forward", x, s0, s1, sh).numpy(), x * s0 * s1 + sh)
    with pytest.raises(TypeError, match="ParameterList elements must be nn.Parameter, but got int"):
        m.scales.append(3)
    with pytest.raises(TypeError, match="ParameterDict keys must be strings"):
        m.extra[1] = nn.Parameter((2,))


def test_malformed_spec_entries_are_type_and_value_errors_naming_the_method():
    model = MLPModel()
    x = nn.spec.Tensor([1, 784], "float32")
    with pytest.raises(TypeError, match="argument 'x' of method 'forward'"):
        model.export_tvm({"forward": {"x": np.zeros(3)}})  # was numpy's truth-value ValueError
    with pytest.raises(TypeError, match=r"\"\$\" entry of the spec of method 'forward'"):
        model.export_tvm({"forward": {"x": x, "$": 3}})  # was AttributeError
    with pytest.raises(ValueError, match=r"unknown key\(s\) \['parm_mode'\]"):
        model.export_tvm({"forward": {"x": x, "$": {"parm_mode": "none"}}})  # was ignored
    with pytest.raises(TypeError, match="nn.spec.Object: object_type must be a subclass"):
        nn.spec.Object(5)
    with pytest.raises(ValueError, match="the spec of method 'Linear' gives no spec"):
        model.export_tvm({"fc1": {}})  # a submodule, named by its type (was its repr)


def test_variadic_method_arguments_in_a_spec():
    class Variadic(nn.Module):
        def forward(self, x, *rest, **options):
            return nn.op.add(x, x)

    spec = nn.spec.Tensor([2], "float32")
    # *rest was "missing" (it has no default), and naming it failed in the call, by keyword.
    mod, _ = Variadic().export_tvm({"forward": {"x": spec}})
    assert [p.name_hint for p in mod["forward"].params] == ["x"]
    with pytest.raises(ValueError, match=r"names its variadic argument\(s\) \['rest'\]"):
        Variadic().export_tvm({"forward": {"x": spec, "rest": spec}})


def test_load_state_dict_names_the_key_of_a_wrong_value():
    model = MLPModel()
    with pytest.raises(TypeError, match="state_dict must be a dict"):
        model.load_state_dict([("fc1.weight", None)])
    arrays = {name: np.zeros(p.shape, p.dtype) for name, p in model.state_dict().items()}
    with pytest.raises(TypeError, match="value of 'fc1.weight' must be an nn.Parameter, got nd"):
        model.load_state_dict(arrays)  # numpy's .data is a memoryview
    other = MLPModel()
    other.fc1 = nn.Linear(784, 255)
    for param in other.state_dict().values():
        param.data = np.zeros(param.shape, param.dtype)
    with pytest.raises(ValueError, match=r"parameter 'fc1.weight': .*shape mismatch"):
        model.load_state_dict(other.state_dict())


def test_a_result_of_unknown_shape_names_the_op():
    class AddWeight(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(("n", 4))  # its own n, not the argument's

        def forward(self, x):
            return x + self.w

    with pytest.raises(TypeError, match="nn.op: the result of 'add' has no known shape"):
        AddWeight().export_tvm({"forward": {"x": nn.spec.Tensor(["n", 4], "float32")}})


def test_a_module_that_contains_itself_is_a_value_error_and_a_shared_one_is_named_twice():
    class Block(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(4, 4)

    class Net(nn.Module):
        def __init__(self):
            self.a = Block()
            self.b = self.a  # shared: upstream names its parameters under both names

    net = Net()
    assert [n for n, _ in net.named_parameters()] == ["a.fc.weight", "a.fc.bias"] + [
        "b.fc.weight",
        "b.fc.bias",
    ]
    net.a.parent = net  # a cycle: was a RecursionError
    for walk in (net.named_parameters, net.state_dict, lambda: net.to("float16")):
        with pytest.raises(ValueError, match=r"submodule 'a.parent' \(Net\) contains itself"):
            list(walk() or [])


def test_parameter_shape_and_dtype_of_the_wrong_type_name_the_parameter():
    with pytest.raises(TypeError, match="nn.Parameter: shape must be a list or tuple"):
        nn.Parameter(None)  # was "'NoneType' object is not iterable"
    with pytest.raises(TypeError, match="nn.Parameter: dtype must be a str"):
        nn.Parameter((2, 3), dtype=np.float32)
    model = MLPModel()
    with pytest.raises(TypeError, match="nn.Parameter.to: dtype must be a str"):
        model.to(np.float16)
    assert model.fc1.weight.dtype == "float32"
