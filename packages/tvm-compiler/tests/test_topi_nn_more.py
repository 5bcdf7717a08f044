# tvm.topi.nn's conv variants, batch_matmul/matmul, flatten/dilate, pools and pads vs NumPy.
import numpy as np
import pytest
import tvm
from tvm import te, topi

RNG = np.random.default_rng(5)


def _run(inputs, outputs, arrays):
    arrays = [np.ascontiguousarray(a) for a in arrays]
    outputs = outputs if isinstance(outputs, list) else [outputs]
    f = tvm.compile(te.create_prim_func([*inputs, *outputs]), target="llvm")
    outs = [np.zeros([int(s) for s in o.shape], o.dtype) for o in outputs]
    f(*arrays, *outs)
    return outs if len(outs) > 1 else outs[0]


def _conv_ref(x, w, stride, pads, dil, groups=1):
    """NCHW x, OIHW w (I = C / groups), pads (top, left, bottom, right)."""
    top, left, bottom, right = pads
    x = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    oh = (h - (kh - 1) * dil[0] - 1) // stride[0] + 1
    ow = (wd - (kw - 1) * dil[1] - 1) // stride[1] + 1
    out = np.zeros((n, f, oh, ow), "float64")
    per = f // groups
    for o in range(f):
        g = o // per
        for y in range(oh):
            for z in range(ow):
                ys, zs = y * stride[0], z * stride[1]
                patch = x[
                    :,
                    g * cg : (g + 1) * cg,
                    ys : ys + (kh - 1) * dil[0] + 1 : dil[0],
                    zs : zs + (kw - 1) * dil[1] + 1 : dil[1],
                ]
                out[:, o, y, z] = (patch * w[o]).sum((1, 2, 3))
    return out.astype("float32")


X = RNG.standard_normal((2, 4, 7, 6)).astype("float32")
D = te.placeholder((2, 4, 7, 6), name="D")


@pytest.mark.parametrize(
    ("stride", "padding", "dilation", "pads"),
    [
        (1, 0, 1, (0, 0, 0, 0)),
        (2, (1, 2), 1, (1, 2, 1, 2)),
        ((1, 2), "SAME", (2, 1), (2, 1, 2, 1)),
        (1, "VALID", 1, (0, 0, 0, 0)),
        (1, (0, 1, 2, 0), 1, (0, 1, 2, 0)),
    ],
)
def test_conv2d_nchw_nhwc(stride, padding, dilation, pads):
    k = te.placeholder((5, 4, 3, 3), name="K")
    w = RNG.standard_normal((5, 4, 3, 3)).astype("float32")
    s = (stride, stride) if isinstance(stride, int) else stride
    d = (dilation, dilation) if isinstance(dilation, int) else dilation
    want = _conv_ref(X, w, s, pads, d)
    got = _run([D, k], topi.nn.conv2d_nchw(D, k, stride, padding, dilation), [X, w])
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    dn = te.placeholder((2, 7, 6, 4), name="DN")
    kn = te.placeholder((3, 3, 4, 5), name="KN")
    out = topi.nn.conv2d_nhwc(dn, kn, stride, padding, dilation)
    got = _run([dn, kn], out, [X.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0)])
    np.testing.assert_allclose(got, want.transpose(0, 2, 3, 1), rtol=1e-4, atol=1e-4)


def test_group_and_depthwise_conv2d():
    k = te.placeholder((6, 2, 3, 3), name="K")
    w = RNG.standard_normal((6, 2, 3, 3)).astype("float32")
    got = _run([D, k], topi.nn.group_conv2d_nchw(D, k, 1, 1, 1, 2), [X, w])
    np.testing.assert_allclose(
        got, _conv_ref(X, w, (1, 1), (1,) * 4, (1, 1), 2), rtol=1e-4, atol=1e-4
    )
    dk = te.placeholder((4, 2, 3, 3), name="DK")
    dw = RNG.standard_normal((4, 2, 3, 3)).astype("float32")
    got = _run([D, dk], topi.nn.depthwise_conv2d_nchw(D, dk, 2, 1, 1), [X, dw])
    want = _conv_ref(X, dw.reshape(8, 1, 3, 3), (2, 2), (1,) * 4, (1, 1), 4)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match=r"topi\.nn\.group_conv2d_nchw: 4 channels do not split"):
        topi.nn.group_conv2d_nchw(D, k, 1, 1, 1, 3)
    with pytest.raises(ValueError, match=r"topi\.nn\.conv2d_nchw: argument 'Filter'"):
        topi.nn.conv2d_nchw(D, te.placeholder((3, 3)), 1, 0, 1)


def test_conv1d():
    x = RNG.standard_normal((2, 4, 9)).astype("float32")
    w = RNG.standard_normal((3, 4, 3)).astype("float32")
    a, k = te.placeholder((2, 4, 9), name="A"), te.placeholder((3, 4, 3), name="K")
    want = _conv_ref(x[:, :, None], w[:, :, None], (1, 2), (0, 1, 0, 2), (1, 1))[:, :, 0]
    np.testing.assert_allclose(
        _run([a, k], topi.nn.conv1d_ncw(a, k, 2, (1, 2)), [x, w]), want, rtol=1e-4, atol=1e-4
    )
    an, kn = te.placeholder((2, 9, 4), name="AN"), te.placeholder((3, 4, 3), name="KN")
    got = _run(
        [an, kn],
        topi.nn.conv1d_nwc(an, kn, 2, (1, 2)),
        [x.transpose(0, 2, 1), w.transpose(2, 1, 0)],
    )
    np.testing.assert_allclose(got, want.transpose(0, 2, 1), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    ("ta", "tb", "ba"), [(False, True, 3), (True, False, 1), (False, False, 3)]
)
def test_batch_matmul(ta, tb, ba):
    sa = (ba, 4, 2) if ta else (ba, 2, 4)
    sb = (3, 5, 4) if tb else (3, 4, 5)
    a, b = te.placeholder(sa, name="A"), te.placeholder(sb, name="B")
    x = RNG.standard_normal(sa).astype("float32")
    y = RNG.standard_normal(sb).astype("float32")
    want = (x.transpose(0, 2, 1) if ta else x) @ (y.transpose(0, 2, 1) if tb else y)
    got = _run([a, b], topi.nn.batch_matmul(a, b, transpose_a=ta, transpose_b=tb), [x, y])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match=r"topi\.nn\.batch_matmul: the reduced extents differ"):
        topi.nn.batch_matmul(a, b, transpose_a=not ta, transpose_b=tb)


def test_nn_matmul_with_bias():
    a, b, c = (
        te.placeholder((2, 3), name="A"),
        te.placeholder((4, 3), name="B"),
        te.placeholder((4,), name="C"),
    )
    x, y, z = (RNG.standard_normal(s).astype("float32") for s in ((2, 3), (4, 3), (4,)))
    got = _run([a, b, c], topi.nn.matmul(a, b, c, transpose_b=True), [x, y, z])
    np.testing.assert_allclose(got, x @ y.T + z, rtol=1e-5, atol=1e-5)


def test_flatten_dilate():
    np.testing.assert_array_equal(_run([D], topi.nn.flatten(D), [X]), X.reshape(2, -1))
    a = te.placeholder((2, 3), name="A")
    x = RNG.standard_normal((2, 3)).astype("float32")
    got = _run([a], topi.nn.dilate(a, (1, 3), -1.0), [x])
    want = np.full((2, 7), -1.0, "float32")
    want[:, ::3] = x
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match=r"topi\.nn\.dilate: argument 'strides'"):
        topi.nn.dilate(a, (1,))


@pytest.mark.parametrize("pool_type", ["max", "avg"])
def test_pool1d_global_adaptive(pool_type):
    red = np.max if pool_type == "max" else np.mean
    x = RNG.standard_normal((2, 3, 8)).astype("float32")
    a = te.placeholder((2, 3, 8), name="A")
    got = _run([a], topi.nn.pool1d(a, (3,), (2,), (1,), (0, 0), pool_type), [x])
    want = np.stack([red(x[:, :, i : i + 3], -1) for i in range(0, 6, 2)], -1)
    np.testing.assert_allclose(got, want, rtol=1e-5)
    got = _run([D], topi.nn.global_pool(D, pool_type), [X])
    np.testing.assert_allclose(got, red(X, (2, 3), keepdims=True), rtol=1e-5, atol=1e-6)
    got = _run([D], topi.nn.adaptive_pool(D, (3, 4), pool_type), [X])
    want = np.zeros((2, 4, 3, 4), "float32")
    for y in range(3):
        for z in range(4):
            y0, y1 = y * 7 // 3, -(-(y + 1) * 7 // 3)
            z0, z1 = z * 6 // 4, -(-(z + 1) * 6 // 4)
            want[:, :, y, z] = red(X[:, :, y0:y1, z0:z1], (2, 3))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match=r"topi\.nn\.global_pool: argument 'layout'"):
        topi.nn.global_pool(D, pool_type, "NHWC")


@pytest.mark.parametrize(
    ("fn", "mode"),
    [
        (topi.nn.reflect_pad, "reflect"),
        (topi.nn.replicate_pad, "edge"),
        (topi.nn.circular_pad, "wrap"),
        (lambda *a: topi.nn.mirror_pad(*a, mode="SYMMETRIC"), "symmetric"),
    ],
)
def test_pads(fn, mode):
    a = te.placeholder((3, 4), name="A")
    x = RNG.standard_normal((3, 4)).astype("float32")
    got = _run([a], fn(a, (1, 2), (2, 1)), [x])
    np.testing.assert_array_equal(got, np.pad(x, ((1, 2), (2, 1)), mode))


def test_pad_errors():
    with pytest.raises(ValueError, match=r"topi\.nn\.mirror_pad: argument 'mode'"):
        topi.nn.mirror_pad(D, (0,) * 4, mode="EDGE")
    with pytest.raises(ValueError, match=r"topi\.nn\.reflect_pad: arguments 'pad_before'"):
        topi.nn.reflect_pad(D, (1,))
