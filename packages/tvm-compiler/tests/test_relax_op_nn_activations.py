# leakyrelu, prelu, selu, softplus and relu6 as Relax ops (upstream's names and attributes):
# struct info, bad input, and values after legalisation against NumPy.
import numpy as np
import pytest
import tvm
from tvm import relax, te, topi


def _build_and_run(make, *arrays):
    sinfo = [relax.TensorStructInfo(a.shape, str(a.dtype)) for a in arrays]
    params = [relax.Var(f"a{i}", s) for i, s in enumerate(sinfo)]
    bb = relax.BlockBuilder()
    with bb.function("main", params):
        out = bb.emit(make(*params))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    return vm["main"](*[tvm.runtime.tensor(a) for a in arrays]).numpy()


X = np.array([[-3.0, -0.5, 0.0, 0.5], [2.0, 7.0, -10.0, 30.0]], "float32")


def test_leakyrelu_and_relu6():
    got = _build_and_run(lambda x: relax.op.nn.leakyrelu(x, 0.2), X)
    np.testing.assert_allclose(got, np.where(X > 0, X, 0.2 * X))
    got = _build_and_run(relax.op.nn.relu6, X)
    np.testing.assert_allclose(got, np.clip(X, 0, 6))


def test_selu_and_softplus():
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    got = _build_and_run(relax.op.nn.selu, X)
    np.testing.assert_allclose(got, scale * np.where(X > 0, X, alpha * np.expm1(X)), rtol=1e-5)
    got = _build_and_run(lambda x: relax.op.nn.softplus(x, beta=2.0, threshold=10.0), X)
    expected = np.where(2 * X > 10, X, np.log1p(np.exp(2 * X)) / 2)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_softplus_does_not_overflow_below_the_threshold(dtype):
    # e^x overflows float16 from x = 11.1, below the default threshold of 20: 12 gave inf.
    x = np.array([-30.0, -12.0, -1.0, 0.0, 1.0, 11.5, 12.0, 15.0, 19.5, 25.0, np.inf], dtype)
    got = _build_and_run(relax.op.nn.softplus, x)
    wide = x.astype("float64")
    with np.errstate(over="ignore"):
        expected = np.where(wide > 20, wide, np.logaddexp(0.0, wide))
    np.testing.assert_allclose(got.astype("float64"), expected, rtol=2e-3, atol=1e-6)


def test_prelu_per_channel_and_shared_slope():
    data = np.arange(-12, 12, dtype="float32").reshape(2, 3, 4)
    slopes = np.array([0.1, 0.2, 0.3], "float32")
    got = _build_and_run(lambda x, a: relax.op.nn.prelu(x, a, axis=1), data, slopes)
    np.testing.assert_allclose(got, np.where(data > 0, data, data * slopes[None, :, None]))
    one = np.array([0.5], "float32")
    got = _build_and_run(lambda x, a: relax.op.nn.prelu(x, a, axis=-1), data, one)
    np.testing.assert_allclose(got, np.where(data > 0, data, data * 0.5))


def test_bad_input_is_named():
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((2, 3, 4), "float32"))
    a = relax.Var("a", relax.TensorStructInfo((4,), "float32"))
    i = relax.Var("i", relax.TensorStructInfo((2,), "int32"))
    with bb.function("main", [x, a, i]):
        with pytest.raises(ValueError, match="nn.prelu: alpha has 4 slopes but data has 3"):
            bb.emit(relax.op.nn.prelu(x, a, axis=1))
        with pytest.raises(TypeError, match="nn.selu: argument 'data' must be a float tensor"):
            bb.emit(relax.op.nn.selu(i))
        bb.emit_func_output(x)
    with pytest.raises(ValueError, match="topi.nn.prelu: axis 5 is out of range"):
        topi.nn.prelu(te.placeholder((2, 3)), te.placeholder((3,)), axis=5)
    with pytest.raises(TypeError, match="topi.nn.leaky_relu: argument 'x' must be a te.Tensor"):
        topi.nn.leaky_relu(X, 0.1)


def test_attrs_print_and_parse_back():
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
    with bb.function("main", [x]):
        y = bb.emit(relax.op.nn.leakyrelu(x, 0.25))
        z = bb.emit(relax.op.nn.softplus(y, 2.0, 5.0))
        bb.emit_func_output(z)
    mod = bb.get()
    text = mod.script()
    assert "R.nn.leakyrelu(x, alpha=0.25)" in text
    assert "R.nn.softplus(gv, beta=2.0, threshold=5.0)" in text
    tvm.ir.assert_structural_equal(tvm.script.from_source(text), mod)
