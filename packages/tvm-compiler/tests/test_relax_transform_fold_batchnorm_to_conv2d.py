# relax.transform.FoldBatchnormToConv2D: conv2d + inference batch_norm with constant weights
# folds into one conv2d plus a bias (the rewrite apache-tvm 0.27 does), giving the same
# values; non-constant statistics, other layouts and "Primitive" functions are left alone.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax.transform import FoldBatchnormToConv2D

rng = np.random.default_rng(0)


def _const(shape, low=None):
    data = rng.uniform(low, 2.0, shape) if low is not None else rng.standard_normal(shape)
    return relax.const(data.astype("float32"))


def _module(kernel_layout="OIHW", constant_stats=True):
    x = relax.Var("x", relax.TensorStructInfo((1, 3, 8, 8), "float32"))
    w_shape = (4, 3, 3, 3) if kernel_layout == "OIHW" else (3, 4, 3, 3)
    params = []
    gamma = _const((4,))
    if not constant_stats:
        gamma = relax.Var("gamma", relax.TensorStructInfo((4,), "float32"))
        params.append(gamma)
    bb = relax.BlockBuilder()
    with bb.function("main", [x, *params]):
        with bb.dataflow():
            c = bb.emit(relax.op.nn.conv2d(x, _const(w_shape), kernel_layout=kernel_layout))
            bn = bb.emit(
                relax.op.nn.batch_norm(
                    c, gamma, _const((4,)), _const((4,)), _const((4,), 0.5), axis=1, epsilon=1e-3
                )
            )
            out = bb.emit_output(relax.TupleGetItem(bn, 0))
        bb.emit_func_output(out)
    return bb.get()


def _ops(mod):
    return [
        ln.split(" = ")[1].split("(")[0] for ln in mod["main"].script().splitlines() if " = " in ln
    ]


def _run(mod, data, *extra):
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    return vm["main"](data, *extra).numpy()


def test_folds_and_keeps_values():
    mod = _module()
    out = FoldBatchnormToConv2D()(mod)
    ops = _ops(out)
    assert "R.nn.batch_norm" not in ops and ops.count("R.nn.conv2d") == 1
    assert ops[-1] == "R.add"  # conv2d(x, W * scale) + shift
    assert relax.analysis.well_formed(out)
    data = rng.standard_normal((1, 3, 8, 8)).astype("float32")
    np.testing.assert_allclose(_run(out, data), _run(mod, data), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("kwargs", [{"constant_stats": False}, {"kernel_layout": "HWIO"}])
def test_left_alone(kwargs):
    if kwargs.get("kernel_layout") == "HWIO":
        x = relax.Var("x", relax.TensorStructInfo((1, 3, 8, 8), "float32"))
        bb = relax.BlockBuilder()
        with bb.function("main", [x]):
            with bb.dataflow():
                c = bb.emit(relax.op.nn.conv2d(x, _const((3, 3, 3, 4)), kernel_layout="HWIO"))
                bn = bb.emit(
                    relax.op.nn.batch_norm(c, *[_const((4,), 0.5) for _ in range(4)], axis=1)
                )
                out = bb.emit_output(relax.TupleGetItem(bn, 0))
            bb.emit_func_output(out)
        mod = bb.get()
    else:
        mod = _module(**kwargs)
    assert FoldBatchnormToConv2D()(mod) is mod


def test_primitive_functions_are_skipped():
    mod = _module()
    prim = tvm.IRModule({"main": mod["main"].with_attr("Primitive", 1)})
    assert FoldBatchnormToConv2D()(prim) is prim
