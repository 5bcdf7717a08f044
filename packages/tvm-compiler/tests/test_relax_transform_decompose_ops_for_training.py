# relax.transform.DecomposeOpsForTraining: batch_norm with the batch's statistics and updated
# moving ones, layer_norm as mean/variance arithmetic (the op sequence apache-tvm 0.27 gives);
# values checked against NumPy.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax.transform import DecomposeOpsForTraining


def _t(*shape):
    return relax.TensorStructInfo(shape, "float32")


def _run(mod, *args):
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    return vm["main"](*args)


def test_batch_norm_uses_batch_statistics_and_updates_moving_ones():
    x, g, b, m, v = (relax.Var(n, s) for n, s in zip("xgbmv", [_t(2, 3, 4, 4), *[_t(3)] * 4]))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, g, b, m, v]):
        with bb.dataflow():
            out = bb.emit_output(
                relax.op.nn.batch_norm(x, g, b, m, v, axis=1, epsilon=1e-5, momentum=0.1)
            )
        bb.emit_func_output(out)
    out = DecomposeOpsForTraining()(bb.get())
    ops = [
        b_.value.op.name
        for b_ in out["main"].body.blocks[0].bindings
        if isinstance(b_.value, relax.Call)
    ]
    assert "relax.nn.batch_norm" not in ops
    assert ops.count("relax.mean") == 1 and ops.count("relax.variance") == 1  # computed once
    rng = np.random.default_rng(6)
    data = rng.standard_normal((2, 3, 4, 4)).astype("float32")
    gamma, beta, mean, var = (rng.uniform(0.5, 1.5, 3).astype("float32") for _ in range(4))
    y, new_mean, new_var = _run(out, data, gamma, beta, mean, var)
    bm, bv = data.mean(axis=(0, 2, 3)), data.var(axis=(0, 2, 3))
    shape = (1, 3, 1, 1)
    want = (data - bm.reshape(shape)) / np.sqrt(bv.reshape(shape) + 1e-5)
    want = want * gamma.reshape(shape) + beta.reshape(shape)
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(new_mean.numpy(), 0.9 * mean + 0.1 * bm, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(new_var.numpy(), 0.9 * var + 0.1 * bv, rtol=1e-5, atol=1e-5)


def _layer_norm_module(axes, shape=(2, 4)):
    y, g, b = relax.Var("y", _t(*shape)), relax.Var("g", _t(4)), relax.Var("b", _t(4))
    bb = relax.BlockBuilder()
    with bb.function("main", [y, g, b]):
        with bb.dataflow():
            out = bb.emit_output(relax.op.nn.layer_norm(y, g, b, axes=axes))
        bb.emit_func_output(out)
    return bb.get()


def test_layer_norm():
    out = DecomposeOpsForTraining()(_layer_norm_module([-1]))
    ops = [b.value.op.name.replace("relax.", "") for b in out["main"].body.blocks[0].bindings]
    assert ops == ["mean", "subtract", "variance", "add", "sqrt", "divide", "multiply", "add"]
    rng = np.random.default_rng(7)
    data, gamma, beta = (rng.standard_normal(s).astype("float32") for s in ((2, 4), (4,), (4,)))
    got = _run(out, data, gamma, beta).numpy()
    mu, var = data.mean(-1, keepdims=True), data.var(-1, keepdims=True)
    np.testing.assert_allclose(got, (data - mu) / np.sqrt(var + 1e-5) * gamma + beta, atol=1e-4)


def test_layer_norm_over_leading_axes_is_left_alone():
    mod = _layer_norm_module([0], shape=(4, 3))
    assert DecomposeOpsForTraining()(mod) is mod


def test_func_name():
    mod = _layer_norm_module([-1])
    with pytest.raises(ValueError, match="DecomposeOpsForTraining: no function 'nope'"):
        DecomposeOpsForTraining("nope")(mod)
    with pytest.raises(TypeError, match="DecomposeOpsForTraining: func_name must be a str"):
        DecomposeOpsForTraining(3)
