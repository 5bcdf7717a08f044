# tvm.topi.nn's normalisations, log_softmax and softplus against NumPy.
import numpy as np
import pytest
import tvm
from tvm import te, topi

RNG = np.random.default_rng(4)


def _run(inputs, outputs, arrays):
    outputs = outputs if isinstance(outputs, list) else [outputs]
    f = tvm.compile(te.create_prim_func([*inputs, *outputs]), target="llvm")
    outs = [np.zeros([int(s) for s in o.shape], o.dtype) for o in outputs]
    f(*arrays, *outs)
    return outs if len(outs) > 1 else outs[0]


D = te.placeholder((2, 4, 3), name="D")
X = RNG.standard_normal((2, 4, 3)).astype("float32")
G3, B3 = te.placeholder((3,), name="G3"), te.placeholder((3,), name="B3")
G4, B4 = te.placeholder((4,), name="G4"), te.placeholder((4,), name="B4")
g3, b3 = RNG.standard_normal(3).astype("float32"), RNG.standard_normal(3).astype("float32")
g4, b4 = RNG.standard_normal(4).astype("float32"), RNG.standard_normal(4).astype("float32")


def _norm(x, axes, eps=1e-5):
    mean = x.mean(axes, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axes, keepdims=True) + eps)


def test_layer_norm():
    got = _run([D, G3, B3], topi.nn.layer_norm(D, G3, B3, [-1], 1e-5), [X, g3, b3])
    np.testing.assert_allclose(got, _norm(X, -1) * g3 + b3, rtol=1e-4, atol=1e-5)
    got = _run([D, G3], topi.nn.layer_norm(D, G3, None, -1), [X, g3])
    np.testing.assert_allclose(got, _norm(X, -1) * g3, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match=r"topi\.nn\.layer_norm: argument 'axis'"):
        topi.nn.layer_norm(D, G3, B3, [3])
    with pytest.raises(TypeError, match=r"topi\.nn\.layer_norm: argument 'gamma'"):
        topi.nn.layer_norm(D, g3, B3, [2])


def test_rms_norm():
    got = _run([D, G3], topi.nn.rms_norm(D, G3, [2], 1e-6), [X, g3])
    want = X / np.sqrt((X * X).mean(2, keepdims=True) + 1e-6) * g3
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_group_and_instance_norm():
    got = _run([D, G4, B4], topi.nn.group_norm(D, G4, B4, 2, 1, [2]), [X, g4, b4])
    grouped = X.reshape(2, 2, 2, 3)
    want = _norm(grouped, (2, 3)).reshape(2, 4, 3) * g4[:, None] + b4[:, None]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    got = _run([D, G4, B4], topi.nn.instance_norm(D, G4, B4, 1, [2]), [X, g4, b4])
    np.testing.assert_allclose(got, _norm(X, 2) * g4[:, None] + b4[:, None], rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match=r"topi\.nn\.group_norm: 4 channels do not split"):
        topi.nn.group_norm(D, G4, B4, 3, 1, [2])


@pytest.mark.parametrize("training", [False, True])
def test_batch_norm(training):
    mm, mv = te.placeholder((4,), name="MM"), te.placeholder((4,), name="MV")
    m = RNG.standard_normal(4).astype("float32")
    v = RNG.random(4).astype("float32") + 0.5
    out, new_m, new_v = topi.nn.batch_norm(D, G4, B4, mm, mv, 1, 1e-5, training=training)
    if not training:
        assert new_m is mm and new_v is mv
        got = _run([D, G4, B4, mm, mv], out, [X, g4, b4, m, v])
        want = (X - m[:, None]) / np.sqrt(v[:, None] + 1e-5) * g4[:, None] + b4[:, None]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        return
    got, got_m, got_v = _run([D, G4, B4, mm, mv], [out, new_m, new_v], [X, g4, b4, m, v])
    want = _norm(X, (0, 2)) * g4[:, None] + b4[:, None]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_m, 0.9 * m + 0.1 * X.mean((0, 2)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_v, 0.9 * v + 0.1 * X.var((0, 2)), rtol=1e-5, atol=1e-6)


def test_lrn():
    got = _run([D], topi.nn.lrn(D, 3, 1, 1e-2, 0.75, 2.0), [X])
    sq = np.pad(X * X, ((0, 0), (1, 1), (0, 0)))
    window = sq[:, :-2] + sq[:, 1:-1] + sq[:, 2:]
    np.testing.assert_allclose(got, X / (2.0 + 1e-2 / 3 * window) ** 0.75, rtol=1e-5)
    with pytest.raises(ValueError, match=r"topi\.nn\.lrn: argument 'size'"):
        topi.nn.lrn(D, 0)


def test_log_softmax_softplus():
    got = _run([D], topi.nn.log_softmax(D, 1), [X])
    shifted = X - X.max(1, keepdims=True)
    np.testing.assert_allclose(
        got, shifted - np.log(np.exp(shifted).sum(1, keepdims=True)), rtol=1e-5, atol=1e-6
    )
    np.testing.assert_allclose(
        _run([D], topi.nn.fast_softmax(D, -1), [X]),
        np.exp(X) / np.exp(X).sum(-1, keepdims=True),
        rtol=1e-5,
    )
    big = (X * 20).astype("float32")
    got = _run([D], topi.nn.softplus(D, 2.0, 10.0), [big])
    want = np.where(big * 2 > 10, big, np.log1p(np.exp(np.minimum(big * 2, 10))) / 2)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match=r"topi\.nn\.log_softmax: argument 'x'"):
        topi.nn.log_softmax(X)
