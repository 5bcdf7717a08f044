"""LiftTransformParams: the weight-only bindings of a function with "num_input" move into
<name>_transform_params, as upstream lays it out; running both gives the original result."""

import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax import op as R
from tvm.relax import transform


def _t(*shape):
    return relax.TensorStructInfo(shape, "float32")


def _module(attrs={"num_input": 1}):  # noqa: B006  (never mutated)
    x, w, b = relax.Var("x", _t(2, 3)), relax.Var("w", _t(4, 3)), relax.Var("b", _t(4))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w, b], attrs=attrs):
        with bb.dataflow():
            b2 = bb.emit(R.multiply(b, relax.const(2.0)))
            wt = bb.emit(R.permute_dims(w))
            h = bb.emit(R.add(bb.emit(R.matmul(x, wt)), b))  # b is also read as it is
            h = bb.emit(R.add(h, b2))
            out = bb.emit_output(R.add(h, relax.const(1.0)))
        bb.emit_func_output(out)
    return bb.get()


def _expected():
    """apache-tvm 0.27's result on _module(): the weights the function still reads come first
    in the transform's output, then the lifted values in binding order."""
    params = relax.Var("model_params", relax.TupleStructInfo([_t(4, 3), _t(4)]))
    bb = relax.BlockBuilder()
    with bb.function("main_transform_params", [params], attrs={"num_input": 0}):
        with bb.dataflow():
            b = bb.emit(relax.TupleGetItem(params, 1))
            b2 = bb.emit(R.multiply(b, relax.const(2.0)))
            w = bb.emit(relax.TupleGetItem(params, 0))
            wt = bb.emit(R.permute_dims(w))
            b_again = bb.emit(relax.TupleGetItem(params, 1))
            out = bb.emit_output(relax.Tuple([b_again, b2, wt]))
        bb.emit_func_output(out)
    x, b, b2, wt = relax.Var("x", _t(2, 3)), relax.Var("b", _t(4)), relax.Var("lv", _t(4)), None
    wt = relax.Var("lv1", _t(3, 4))
    with bb.function("main", [x, b, b2, wt], attrs={"num_input": 1}):
        with bb.dataflow():
            h = bb.emit(R.add(bb.emit(R.matmul(x, wt)), b))
            h = bb.emit(R.add(h, b2))
            out = bb.emit_output(R.add(h, relax.const(1.0)))
        bb.emit_func_output(out)
    return bb.get()


def test_lift_transform_params_as_upstream():
    lifted = transform.LiftTransformParams()(_module())
    expected = _expected()
    for name in ("main", "main_transform_params"):
        tvm.ir.assert_structural_equal(lifted[name], expected[name])
    assert relax.analysis.well_formed(lifted)


def test_lifted_module_computes_the_same():
    rng = np.random.default_rng(0)
    x, w, b = (rng.standard_normal(s).astype("float32") for s in ((2, 3), (4, 3), (4,)))
    ex = tvm.compile(transform.LiftTransformParams()(_module()), target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    weights = vm["main_transform_params"]([tvm.runtime.tensor(w), tvm.runtime.tensor(b)])
    out = vm["main"](tvm.runtime.tensor(x), *weights).numpy()
    np.testing.assert_allclose(out, x @ w.T + b + 2 * b + 1, rtol=1e-5)


def test_without_num_input_nothing_lifts():
    mod = _module(attrs=None)
    assert transform.LiftTransformParams()(mod) is mod


def test_lift_transform_params_bad_input():
    with pytest.raises(NotImplementedError, match="shared_transform"):
        transform.LiftTransformParams(shared_transform=True)
    with pytest.raises(TypeError, match="LiftTransformParams: shared_transform must be"):
        transform.LiftTransformParams(shared_transform="main")
    with pytest.raises(TypeError, match="IRModule"):
        transform.LiftTransformParams()(42)
    taken = tvm.IRModule(
        {"main": _module()["main"], "main_transform_params": _module(None)["main"]}
    )
    with pytest.raises(ValueError, match="already has a function 'main_transform_params'"):
        transform.LiftTransformParams()(taken)
