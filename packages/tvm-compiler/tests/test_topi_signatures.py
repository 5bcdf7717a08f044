# tvm.topi's signatures against upstream's: take (batch_dims, mode), strided_slice (axes,
# slice_mode), the argument names and None defaults upstream gives.
import inspect

import numpy as np
import pytest
import tvm
from tvm import te, topi

RNG = np.random.default_rng(7)


def _run(inputs, output, arrays):
    f = tvm.compile(te.create_prim_func([*inputs, output]), target="llvm")
    out = np.zeros([int(s) for s in output.shape], output.dtype)
    f(*arrays, out)
    return out


A = te.placeholder((2, 5, 3), name="A")
X = RNG.standard_normal((2, 5, 3)).astype("float32")


@pytest.mark.parametrize("mode", ["fast", "clip", "wrap", "nan"])
def test_take_modes(mode):
    idx = te.placeholder((4,), "int32", name="I")
    i = np.array([0, 4, 7, -2], "int32")
    got = _run([A, idx], topi.take(A, idx, 1, mode=mode), [X, i])
    if mode == "wrap":
        want = np.take(X, i, 1, mode="wrap")
    elif mode == "nan":
        want = np.take(X, np.clip(i, 0, 4), 1)
        want[:, 2:] = np.nan
    else:
        want = np.take(X, i, 1, mode="clip")
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match=r"topi\.take: argument 'mode'"):
        topi.take(A, idx, 1, mode="raise")


def test_take_batch_dims():
    idx = te.placeholder((2, 3), "int32", name="I")
    i = np.array([[0, 4, 2], [1, 1, 3]], "int32")
    got = _run([A, idx], topi.take(A, idx, 1, batch_dims=1), [X, i])
    want = np.stack([np.take(X[b], i[b], 0) for b in range(2)])
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match=r"topi\.take: argument 'batch_dims' \(1\) must not"):
        topi.take(A, idx, 0, batch_dims=1)


def test_strided_slice_axes_and_size():
    got = _run([A], topi.strided_slice(A, [1], [4], [2], axes=[1]), [X])
    np.testing.assert_array_equal(got, X[:, 1:4:2])
    got = _run([A], topi.strided_slice(A, [0, 1], [1, -1], axes=[0, 2], slice_mode="size"), [X])
    np.testing.assert_array_equal(got, X[0:1, :, 1:])
    got = _run([A], topi.strided_slice(A, [4, 2], [0, 0], [-2, -1], axes=[-2, -1]), [X])
    np.testing.assert_array_equal(got, X[:, 4:0:-2, 2:0:-1])
    with pytest.raises(ValueError, match=r"topi\.strided_slice: argument 'slice_mode'"):
        topi.strided_slice(A, [0], [1], slice_mode="stop")
    with pytest.raises(ValueError, match=r"one entry per sliced axis"):
        topi.strided_slice(A, [0, 1], [1], axes=[0])


def test_batch_norm_none_defaults_match_explicit():
    d = te.placeholder((2, 3, 4), name="D")
    g, b, m, v = (te.placeholder((3,), name=n) for n in "GBMV")
    x = RNG.standard_normal((2, 3, 4)).astype("float32")
    gv, bv, mv = (RNG.standard_normal(3).astype("float32") for _ in range(3))
    vv = RNG.random(3).astype("float32") + 0.5
    arrays = [x, gv, bv, mv, vv]
    out = topi.nn.batch_norm(d, g, b, m, v)[0]
    want = (x - mv[:, None]) / np.sqrt(vv[:, None] + 1e-5) * gv[:, None] + bv[:, None]
    np.testing.assert_allclose(_run([d, g, b, m, v], out, arrays), want, rtol=1e-5, atol=1e-6)
    no_affine = topi.nn.batch_norm(d, g, b, m, v, 1, 1e-3, center=False, scale=False)[0]
    want = (x - mv[:, None]) / np.sqrt(vv[:, None] + 1e-3)
    np.testing.assert_allclose(_run([d, g, b, m, v], no_affine, arrays), want, rtol=1e-5, atol=1e-6)


def test_argument_names_and_layouts():
    assert list(inspect.signature(topi.bitwise_not).parameters) == ["data"]
    assert list(inspect.signature(topi.logical_not).parameters) == ["data"]
    m = te.placeholder((3,), "bool", name="M")
    np.testing.assert_array_equal(
        _run([m], topi.logical_not(data=m), [np.array([True, False, True])]), [False, True, False]
    )
    d, w = te.placeholder((1, 2, 4, 4), name="D"), te.placeholder((3, 2, 3, 3), name="W")
    assert [int(s) for s in topi.nn.conv2d(d, w, 1, 0, 1, "NCHW", "OIHW").shape] == [1, 3, 2, 2]
    with pytest.raises(ValueError, match=r"topi\.nn\.conv2d: argument 'kernel_layout'"):
        topi.nn.conv2d(d, w, 1, 0, 1, "NCHW", "HWIO")


def test_reshape_symbolic_extents():
    n = te.var("n")
    a = te.placeholder((n, 4), name="S")
    c = topi.reshape(a, [n * 2, 2])
    f = tvm.compile(te.create_prim_func([a, c]), target="llvm")
    x = RNG.standard_normal((3, 4)).astype("float32")
    out = np.zeros((6, 2), "float32")
    f(x, out)
    np.testing.assert_array_equal(out, x.reshape(6, 2))
    with pytest.raises(ValueError, match=r"topi\.reshape: cannot infer -1"):
        topi.reshape(a, [-1, 2])
    with pytest.raises(ValueError, match=r"topi\.reshape: newshape may hold at most one -1"):
        topi.reshape(A, [-1, -1])
