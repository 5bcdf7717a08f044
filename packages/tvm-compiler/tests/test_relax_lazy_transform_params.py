"""LazyTransformParams, LazyGetInput and LazySetOutput: weights fetched and results handed over
through callbacks, checked end to end in the VM against NumPy, plus their bad-input errors."""

import numpy as np
import pytest
import tvm
import tvm_ffi
from tvm import relax
from tvm.relax import op as R
from tvm.relax import transform
from tvm.script import ir as I
from tvm.script import relax as RS


def _t(*shape):
    return relax.TensorStructInfo(shape, "float32")


def _module():
    """main(x, w, b) with num_input=1: y = x @ w.T + b + 2 * b + 1."""
    x, w, b = relax.Var("x", _t(2, 3)), relax.Var("w", _t(4, 3)), relax.Var("b", _t(4))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w, b], attrs={"num_input": 1}):
        with bb.dataflow():
            b2 = bb.emit(R.multiply(b, relax.const(2.0)))
            wt = bb.emit(R.permute_dims(w))
            h = bb.emit(R.add(bb.emit(R.matmul(x, wt)), b))
            h = bb.emit(R.add(h, b2))
            out = bb.emit_output(R.add(h, relax.const(1.0)))
        bb.emit_func_output(out)
    return bb.get()


def _data():
    rng = np.random.default_rng(0)
    return (rng.standard_normal(s).astype("float32") for s in ((2, 3), (4, 3), (4,)))


def _callbacks(prefix, weights):
    """get_item(i) serving weights[i] and set_item(i, value) collecting the results; the log
    records each call in order."""
    log, results = [], {}

    @tvm_ffi.register_global_func(f"{prefix}.get_item", override=True)
    def get_item(i):
        log.append(("get", i))
        return tvm.runtime.tensor(weights[i])

    @tvm_ffi.register_global_func(f"{prefix}.set_item", override=True)
    def set_item(i, value):
        log.append(("set", i))
        assert i not in results, f"set_item called twice for {i}"
        results[i] = value.numpy()

    return log, results


def test_lift_then_lazy_transform_params_runs_in_the_vm():
    x, w, b = _data()
    mod = transform.LiftTransformParams()(_module())
    mod = transform.LazyTransformParams(
        fget_item="test.lazy.get_item", fset_item="test.lazy.set_item"
    )(mod)
    lazy = mod["main_transform_params"]
    assert len(lazy.params) == 0 and not lazy.is_pure
    assert "relax.force_pure" not in lazy.attrs
    assert relax.analysis.well_formed(mod)

    log, results = _callbacks("test.lazy", [w, b])
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    assert len(vm["main_transform_params"]()) == 0  # everything went through set_item
    # every weight is fetched before the first result that needs it is handed over
    assert {i for kind, i in log if kind == "get"} == {0, 1}
    assert sorted(results) == list(range(len(results))) == [0, 1, 2]
    transformed = [tvm.runtime.tensor(results[i]) for i in range(3)]
    out = vm["main"](tvm.runtime.tensor(x), *transformed).numpy()
    np.testing.assert_allclose(out, x @ w.T + b + 2 * b + 1, rtol=1e-5)


def test_lazy_transform_params_kills_each_weight_after_its_last_use():
    from tvm.relax.transform.lowering_utils import free_relax_uses, is_op_call

    mod = transform.LiftTransformParams()(_module())
    func = transform.LazyTransformParams()(mod)["main_transform_params"]
    bindings = [b for block in func.body.blocks for b in block.bindings]
    gets = [
        b
        for b in bindings
        if isinstance(getattr(b.value, "op", None), relax.ExternFunc)
        and b.value.op.global_symbol == "get_item"
    ]
    kills = [k for k, b in enumerate(bindings) if is_op_call(b.value, "relax.vm.kill_object")]
    # the lifted transform reads params[1] twice (b and b_again) and params[0] once
    assert len(gets) == len(kills) == 3
    for k in kills:
        var = bindings[k].value.args[0]
        assert any(var in free_relax_uses(b.value) for b in bindings[:k])
        assert not any(var in free_relax_uses(b.value) for b in bindings[k + 1 :])


def test_extra_get_and_set_item_params_come_first_and_are_passed_through():
    x, w, b = _data()
    loader = relax.Var("loader", relax.ObjectStructInfo())
    saver = relax.Var("saver", relax.ObjectStructInfo())
    mod = transform.LiftTransformParams()(_module())
    mod = transform.LazyTransformParams(
        fget_item="test.lazy_extra.get_item",
        fset_item="test.lazy_extra.set_item",
        extra_get_item_params=[loader],
        extra_set_item_params=[saver],
    )(mod)
    assert [p.name_hint for p in mod["main_transform_params"].params] == ["loader", "saver"]
    results = {}

    @tvm_ffi.register_global_func("test.lazy_extra.get_item", override=True)
    def get_item(source, i):
        return source(i)

    @tvm_ffi.register_global_func("test.lazy_extra.set_item", override=True)
    def set_item(sink, i, value):
        sink(i, value)

    weights = [w, b]
    source = tvm_ffi.convert(lambda i: tvm.runtime.tensor(weights[i]))
    sink = tvm_ffi.convert(lambda i, value: results.__setitem__(i, value.numpy()))
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    vm["main_transform_params"](source, sink)
    transformed = [tvm.runtime.tensor(results[i]) for i in range(3)]
    out = vm["main"](tvm.runtime.tensor(x), *transformed).numpy()
    np.testing.assert_allclose(out, x @ w.T + b + 2 * b + 1, rtol=1e-5)


def test_separate_weight_parameters_returned_weights_and_constants_run_in_the_vm():
    """Weights as separate parameters (no tuple): a weight only returned is fetched, handed
    over and killed at the return; an inline constant output is handed over at the end."""

    @I.ir_module
    class Before:
        @RS.function
        def transform_params(A: RS.Tensor((16, 16), "float32"), B: RS.Tensor((16, 16), "float32")):
            C = RS.multiply(A, RS.const(2, "float32"))
            D = RS.add(C, A)
            return (D, B, C, RS.const(1.5, "float32"))

    mod = transform.LazyTransformParams(
        fget_item="test.lazy_sep.get_item", fset_item="test.lazy_sep.set_item"
    )(Before)
    assert len(mod["transform_params"].params) == 0
    assert relax.analysis.well_formed(mod)
    rng = np.random.default_rng(1)
    a, b = (rng.standard_normal((16, 16)).astype("float32") for _ in range(2))
    log, results = _callbacks("test.lazy_sep", [a, b])
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    vm["transform_params"]()
    # C is handed over before D's slot is filled, B only after D (it is fetched at the return)
    assert log == [("get", 0), ("set", 2), ("set", 0), ("get", 1), ("set", 1), ("set", 3)]
    np.testing.assert_allclose(results[0], 3 * a, rtol=1e-6)
    np.testing.assert_array_equal(results[1], b)
    np.testing.assert_allclose(results[2], 2 * a, rtol=1e-6)
    assert float(results[3]) == 1.5


def test_lazy_get_input_and_set_output_run_in_the_vm():
    x, w, b = _data()
    mod = transform.LazySetOutput()(transform.LazyGetInput()(_module()))
    main = mod["main"]
    # LazyGetInput puts fget_param after the run-time input and counts it in num_input, so
    # LazySetOutput's fset_output follows it
    assert [p.name_hint for p in main.params] == ["x", "fget_param", "fset_output"]
    assert int(main.attrs["num_input"]) == 3
    fetched, outputs = [], {}

    def fget_param(i, name):
        fetched.append((i, name))
        return tvm.runtime.tensor([w, b][i])

    def fset_output(i, value):
        outputs[i] = value.numpy()

    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    vm["main"](tvm.runtime.tensor(x), tvm_ffi.convert(fget_param), tvm_ffi.convert(fset_output))
    assert sorted(fetched) == [(0, "w"), (1, "b")]  # each weight once
    assert list(outputs) == [0]
    np.testing.assert_allclose(outputs[0], x @ w.T + b + 2 * b + 1, rtol=1e-5)


def test_lazy_transform_params_bad_input():
    with pytest.raises(ValueError, match="LazyTransformParams: fget_item .*set_item only"):
        transform.LazyTransformParams(fget_item=None)
    with pytest.raises(ValueError, match="LazyTransformParams: fset_item must be"):
        transform.LazyTransformParams(fset_item=3)
    with pytest.raises(TypeError, match="LazyTransformParams: extra_get_item_params must be"):
        transform.LazyTransformParams(extra_get_item_params=["loader"])
    with pytest.raises(TypeError, match="LazyTransformParams: extra_set_item_params must be"):
        transform.LazyTransformParams(
            extra_set_item_params=relax.Var("s", relax.ObjectStructInfo())
        )
    with pytest.raises(TypeError, match="'LazyTransformParams': expected an IRModule, got Var"):
        transform.LazyTransformParams()(relax.Var("x", relax.ObjectStructInfo()))


def _with_num_input(name, num_input):
    x = relax.Var("x", _t(2))
    bb = relax.BlockBuilder()
    with bb.function(name, [x], attrs={"num_input": num_input}):
        out = bb.emit(R.add(x, x))
        bb.emit_func_output(out)
    return bb.get()


@pytest.mark.parametrize(
    "make", [transform.LazyTransformParams, transform.LazyGetInput, transform.LazySetOutput]
)
@pytest.mark.parametrize("num_input", [2, -1])
def test_num_input_outside_the_parameter_count_is_refused(make, num_input):
    mod = _with_num_input("main_transform_params", num_input)
    name = make.__name__
    with pytest.raises(
        ValueError,
        match=rf"relax.transform.{name}: function 'main_transform_params' has "
        rf"num_input={num_input}, expected a value from 0 to its parameter count 1",
    ):
        make()(mod)


def test_the_parameter_tuple_read_whole_is_refused():
    params = relax.Var("params", relax.TupleStructInfo([_t(2)]))
    bb = relax.BlockBuilder()
    with bb.function("main_transform_params", [params]):
        out = bb.emit(relax.Tuple([params]))
        bb.emit_func_output(out)
    with pytest.raises(ValueError, match="LazyTransformParams: the parameter tuple 'params'"):
        transform.LazyTransformParams()(bb.get())


def test_only_relax_functions_named_transform_params_change():
    from tvm.script import tir as T

    @I.ir_module
    class Mod:
        @T.prim_func
        def add_transform_params(a: T.Buffer((2,), "float32"), b: T.Buffer((2,), "float32")):
            for i in range(2):
                b[i] = a[i] + T.float32(1)

        @RS.function
        def main(a: RS.Tensor((2,), "float32")):
            return (a,)

    assert transform.LazyTransformParams()(Mod) is Mod
