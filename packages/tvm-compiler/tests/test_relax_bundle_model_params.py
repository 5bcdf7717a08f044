"""BundleModelParams: the weights after "num_input" become one tuple parameter, read back item by
item where used; the bundled function computes the same in the VM, and bad input is refused."""

import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax import op as R
from tvm.relax import transform


def _t(*shape):
    return relax.TensorStructInfo(shape, "float32")


def _module(num_input=1, dataflow=True):
    """main(x, w, b): y = x @ w.T + b + 2 * b."""
    x, w, b = relax.Var("x", _t(2, 3)), relax.Var("w", _t(4, 3)), relax.Var("b", _t(4))
    bb = relax.BlockBuilder()
    attrs = None if num_input is None else {"num_input": num_input}
    with bb.function("main", [x, w, b], attrs=attrs):
        if dataflow:
            with bb.dataflow():
                h = bb.emit(R.add(bb.emit(R.matmul(x, bb.emit(R.permute_dims(w)))), b))
                out = bb.emit_output(h)
        else:
            out = bb.emit(R.add(bb.emit(R.matmul(x, bb.emit(R.permute_dims(w)))), b))
        out = bb.emit(R.add(out, bb.emit(R.multiply(b, relax.const(2.0)))))  # b again, later
        bb.emit_func_output(out)
    return bb.get()


def _bindings(block):
    return list(block.bindings)


def test_weights_become_one_tuple_read_where_used():
    main = transform.BundleModelParams()(_module())["main"]
    assert [p.name_hint for p in main.params] == ["x", "model_params"]
    tvm.ir.assert_structural_equal(
        main.params[1].struct_info, relax.TupleStructInfo([_t(4, 3), _t(4)])
    )
    assert int(main.attrs["num_input"]) == 1
    dataflow, plain = main.body.blocks
    reads = [
        b
        for b in _bindings(dataflow)
        if isinstance(b.value, relax.TupleGetItem) and b.value.tuple_value is main.params[1]
    ]
    # inside the dataflow block the reads are DataflowVars named after the weights, each made
    # right before its first use
    assert [(r.var.name_hint, r.value.index) for r in reads] == [("w", 0), ("b", 1)]
    assert all(isinstance(r.var, relax.DataflowVar) for r in reads)
    # b is used again after the block: that block reads it again, as a plain Var
    later = [b for b in _bindings(plain) if isinstance(b.value, relax.TupleGetItem)]
    assert [(r.var.name_hint, r.value.index, type(r.var)) for r in later] == [("b", 1, relax.Var)]
    assert relax.analysis.well_formed(relax.transform.BundleModelParams()(_module()))


def test_bundled_function_computes_the_same_in_the_vm():
    rng = np.random.default_rng(0)
    x, w, b = (rng.standard_normal(s).astype("float32") for s in ((2, 3), (4, 3), (4,)))
    mod = transform.BundleModelParams("weights")(_module(dataflow=False))
    assert mod["main"].params[1].name_hint == "weights"
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    weights = [tvm.runtime.tensor(w), tvm.runtime.tensor(b)]
    out = vm["main"](tvm.runtime.tensor(x), weights).numpy()
    np.testing.assert_allclose(out, x @ w.T + b + 2 * b, rtol=1e-5)


def test_without_weights_the_tuple_is_empty_and_without_num_input_nothing_changes():
    main = transform.BundleModelParams()(_module(num_input=3))["main"]
    assert [p.name_hint for p in main.params] == ["x", "w", "b", "model_params"]
    tvm.ir.assert_structural_equal(main.params[3].struct_info, relax.TupleStructInfo([]))
    mod = _module(num_input=None)
    assert transform.BundleModelParams()(mod) is mod


def test_bundle_model_params_bad_input():
    with pytest.raises(TypeError, match="BundleModelParams: param_tuple_name must be"):
        transform.BundleModelParams(param_tuple_name=3)
    with pytest.raises(
        ValueError,
        match=r"relax.transform.BundleModelParams: function 'main' has num_input=4, "
        r"expected a value from 0 to its parameter count 3",
    ):
        transform.BundleModelParams()(_module(num_input=4))
