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


def _np_conv2d(x, w, stride, pad, dil):
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, wd = xp.shape
    f, _, kh, kw = w.shape
    oh = (h - (kh - 1) * dil - 1) // stride + 1
    ow = (wd - (kw - 1) * dil - 1) // stride + 1
    out = np.zeros((n, f, oh, ow), "float64")
    for ry in range(kh):
        for rx in range(kw):
            patch = xp[
                :,
                :,
                ry * dil : ry * dil + stride * oh : stride,
                rx * dil : rx * dil + stride * ow : stride,
            ]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, ry, rx])
    return out


@pytest.mark.parametrize(("stride", "pad", "dil"), [(1, 1, 1), (2, 0, 1), (1, 2, 2)])
def test_conv2d_nchw(stride, pad, dil):
    a = te.placeholder((1, 3, 9, 10), name="A")
    w = te.placeholder((4, 3, 3, 3), name="W")
    x = RNG.standard_normal((1, 3, 9, 10)).astype("float32")
    wv = RNG.standard_normal((4, 3, 3, 3)).astype("float32")
    out = _run([a, w], topi.nn.conv2d(a, w, stride, pad, dil), [x, wv])
    np.testing.assert_allclose(out, _np_conv2d(x, wv, stride, pad, dil), rtol=1e-4, atol=1e-4)


def test_pool2d_max_and_avg():
    a = te.placeholder((1, 2, 6, 6), name="A")
    x = RNG.standard_normal((1, 2, 6, 6)).astype("float32")
    mx = _run([a], topi.nn.pool2d(a, (2, 2), (2, 2), (1, 1), (0, 0, 0, 0), "max"), [x])
    np.testing.assert_array_equal(mx, x.reshape(1, 2, 3, 2, 3, 2).max(axis=(3, 5)))
    avg = _run([a], topi.nn.pool2d(a, (2, 2), (2, 2), (1, 1), (0, 0, 0, 0), "avg"), [x])
    np.testing.assert_allclose(avg, x.reshape(1, 2, 3, 2, 3, 2).mean(axis=(3, 5)), rtol=1e-6)
    padded = _run([a], topi.nn.pool2d(a, (3, 3), (1, 1), (1, 1), (1, 1, 1, 1), "max"), [x])
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    ref = np.max([xp[:, :, i : i + 6, j : j + 6] for i in range(3) for j in range(3)], axis=0)
    np.testing.assert_array_equal(padded, ref)
    with pytest.raises(ValueError, match="topi.nn.pool2d: argument 'pool_type'"):
        topi.nn.pool2d(a, (2, 2), (2, 2), (1, 1), (0, 0, 0, 0), "min")


def test_concatenate_split_strided_slice_take():
    a = te.placeholder((2, 3), name="A")
    b = te.placeholder((2, 4), name="B")
    x = RNG.standard_normal((2, 3)).astype("float32")
    y = RNG.standard_normal((2, 4)).astype("float32")
    cat = _run([a, b], topi.concatenate([a, b], axis=1), [x, y])
    np.testing.assert_array_equal(cat, np.concatenate([x, y], axis=1))
    parts = topi.split(b, 2, axis=1)
    for part, ref in zip(parts, np.split(y, 2, axis=1)):
        np.testing.assert_array_equal(_run([b], part, [y]), ref)
    sl = _run([b], topi.strided_slice(b, [0, 1], [2, 4], [1, 2]), [y])
    np.testing.assert_array_equal(sl, y[0:2, 1:4:2])
    idx = te.placeholder((3,), "int32", name="I")
    iv = np.array([2, 0, 1], "int32")
    np.testing.assert_array_equal(_run([a, idx], topi.take(a, idx, axis=1), [x, iv]), x[:, iv])
    np.testing.assert_array_equal(_run([a, idx], topi.take(a, idx), [x, iv]), x.ravel()[iv])
    with pytest.raises(ValueError, match="topi.split: 3 sections do not divide extent 4"):
        topi.split(b, 3, axis=1)


def test_pad_only_after_the_data_fills_with_the_pad_value():
    # Regression: an axis padded only after its data had no upper bound check, so the
    # padding read past the end of the input instead of taking pad_value.
    x = te.placeholder((2, 3), name="x")
    out = topi.nn.pad(x, (1, 0), (0, 2), 5.0)
    a = RNG.standard_normal((2, 3)).astype("float32")
    np.testing.assert_array_equal(
        _run([x], out, [a]), np.pad(a, ((1, 0), (0, 2)), constant_values=5.0)
    )


def test_squeeze_takes_an_extent_that_simplifies_to_one():
    # squeeze(axis=1) once refused the extent `n - n + 1` because it was not an IntImm.
    n = tvm.tir.Var("n", "int32")
    a = te.placeholder((n, n - n + 1, 3), name="A")
    out = topi.squeeze(a, axis=1)
    f = tvm.compile(te.create_prim_func([a, out]))
    x = RNG.standard_normal((4, 1, 3)).astype("float32")
    got = np.zeros((4, 3), "float32")
    f(x, got)
    np.testing.assert_array_equal(got, x[:, 0])
    # An extent that simplifies to another constant is still refused.
    with pytest.raises(ValueError, match="topi.squeeze: axis 1 has extent"):
        topi.squeeze(te.placeholder((4, n - n + 2), name="B"), axis=1)
