# tvm.topi's elementwise, reduction, transform and nn operators against NumPy.
import numpy as np
import pytest
import tvm
from tvm import te, topi

RNG = np.random.default_rng(0)


def _run(inputs, output, arrays):
    f = tvm.compile(te.create_prim_func([*inputs, output]))
    shape = [int(s.value) for s in output.shape]
    out = np.zeros(shape, output.dtype)
    f(*arrays, out)
    return out


@pytest.mark.parametrize(
    ("op", "ref"),
    [
        (topi.add, np.add),
        (topi.subtract, np.subtract),
        (topi.multiply, np.multiply),
        (topi.divide, np.divide),
        (topi.maximum, np.maximum),
        (topi.minimum, np.minimum),
    ],
)
def test_broadcast_binary(op, ref):
    a = te.placeholder((3, 1, 5), name="A")
    b = te.placeholder((4, 1), name="B")
    x = RNG.random((3, 1, 5), dtype="float32") + 0.5
    y = RNG.random((4, 1), dtype="float32") + 0.5
    c = op(a, b)
    assert [int(s.value) for s in c.shape] == [3, 4, 5]
    np.testing.assert_allclose(_run([a, b], c, [x, y]), ref(x, y), rtol=1e-6)
    np.testing.assert_allclose(_run([a], op(a, 2.0), [x]), ref(x, np.float32(2.0)), rtol=1e-6)


@pytest.mark.parametrize(
    ("op", "ref"),
    [
        (topi.exp, np.exp),
        (topi.tanh, np.tanh),
        (topi.sigmoid, lambda v: 1 / (1 + np.exp(-v))),
        (topi.nn.relu, lambda v: np.maximum(v, 0)),
    ],
)
def test_unary(op, ref):
    a = te.placeholder((7, 9), name="A")
    x = RNG.standard_normal((7, 9)).astype("float32")
    np.testing.assert_allclose(_run([a], op(a), [x]), ref(x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("axis", [1, (0, 2), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(axis, keepdims):
    a = te.placeholder((4, 5, 6), name="A")
    x = RNG.standard_normal((4, 5, 6)).astype("float32")
    for op, ref in ((topi.sum, np.sum), (topi.max, np.max), (topi.min, np.min)):
        got = _run([a], op(a, axis=axis, keepdims=keepdims), [x])
        np.testing.assert_allclose(got, ref(x, axis=axis, keepdims=keepdims), rtol=1e-5)


def test_argmax_keeps_the_first_maximum():
    a = te.placeholder((6, 8), name="A")
    x = RNG.integers(0, 4, (6, 8)).astype("float32")
    got = _run([a], topi.argmax(a, axis=1), [x])
    np.testing.assert_array_equal(got, np.argmax(x, axis=1))


def test_transforms():
    a = te.placeholder((2, 3, 4), name="A")
    x = RNG.standard_normal((2, 3, 4)).astype("float32")
    np.testing.assert_array_equal(_run([a], topi.reshape(a, (4, -1)), [x]), x.reshape(4, -1))
    np.testing.assert_array_equal(
        _run([a], topi.transpose(a, (2, 0, 1)), [x]), x.transpose(2, 0, 1)
    )
    np.testing.assert_array_equal(_run([a], topi.transpose(a), [x]), x.transpose())
    e = topi.expand_dims(a, 1)
    np.testing.assert_array_equal(_run([a], e, [x]), np.expand_dims(x, 1))
    np.testing.assert_array_equal(_run([a], topi.squeeze(topi.expand_dims(a, 3)), [x]), x)


def test_dense_and_softmax():
    d = te.placeholder((5, 7), name="D")
    w = te.placeholder((3, 7), name="W")
    b = te.placeholder((3,), name="b")
    x = RNG.standard_normal((5, 7)).astype("float32")
    wv = RNG.standard_normal((3, 7)).astype("float32")
    bv = RNG.standard_normal(3).astype("float32")
    out = _run([d, w, b], topi.nn.dense(d, w, b), [x, wv, bv])
    np.testing.assert_allclose(out, x @ wv.T + bv, rtol=1e-5, atol=1e-5)
    s = _run([d], topi.nn.softmax(d), [x])
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(s, e / e.sum(1, keepdims=True), rtol=1e-5)
    s0 = _run([d], topi.nn.softmax(d, axis=0), [x])
    e0 = np.exp(x - x.max(0, keepdims=True))
    np.testing.assert_allclose(s0, e0 / e0.sum(0, keepdims=True), rtol=1e-5)


def test_bad_inputs_name_the_operator_and_argument():
    a = te.placeholder((2, 3), name="A")
    b = te.placeholder((4,), name="B")
    with pytest.raises(ValueError, match="topi.add: shapes .* do not broadcast"):
        topi.add(a, b)
    with pytest.raises(TypeError, match="topi.add: argument 'rhs' must be a te.Tensor"):
        topi.add(a, "x")
    with pytest.raises(ValueError, match="topi.sum: axis 2 is out of range"):
        topi.sum(a, axis=2)
    with pytest.raises(ValueError, match="topi.reshape: newshape .* does not hold the 6"):
        topi.reshape(a, (4, 2))
    with pytest.raises(ValueError, match="topi.transpose: axes .* is not a permutation"):
        topi.transpose(a, (0, 0))
    with pytest.raises(ValueError, match="topi.squeeze: axis 1 has extent 3"):
        topi.squeeze(a, 1)
    with pytest.raises(ValueError, match="topi.nn.dense: argument 'weight' must be a 2-D"):
        topi.nn.dense(a, b)
    with pytest.raises(TypeError, match="topi.nn.softmax: argument 'x' must be a te.Tensor"):
        topi.nn.softmax(np.zeros(3))
