# tvm.topi.nn's depth_to_space/space_to_depth, transposed convolutions, nll_loss, scale_shift,
# conv1d (layouts, groups), adaptive_pool1d and the helper names, against NumPy.
import numpy as np
import pytest
import tvm
from tvm import te, topi

RNG = np.random.default_rng(9)


def _run(inputs, output, arrays):
    f = tvm.compile(te.create_prim_func([*inputs, output]), target="llvm")
    out = np.zeros([int(s) for s in output.shape], output.dtype)
    f(*[np.require(a, requirements="C") for a in arrays], out)
    return out


X = RNG.standard_normal((1, 8, 2, 3)).astype("float32")
D = te.placeholder((1, 8, 2, 3), name="D")


@pytest.mark.parametrize("mode", ["DCR", "CDR"])
def test_depth_to_space(mode):
    n, c, h, w = X.shape
    if mode == "DCR":
        want = (
            X.reshape(n, 2, 2, c // 4, h, w)
            .transpose(0, 3, 4, 1, 5, 2)
            .reshape(n, c // 4, h * 2, w * 2)
        )
    else:
        want = (
            X.reshape(n, c // 4, 2, 2, h, w)
            .transpose(0, 1, 4, 2, 5, 3)
            .reshape(n, c // 4, h * 2, w * 2)
        )
    np.testing.assert_array_equal(_run([D], topi.nn.depth_to_space(D, 2, "NCHW", mode), [X]), want)
    dn = te.placeholder((1, 2, 3, 8), name="DN")
    got = _run([dn], topi.nn.depth_to_space(dn, 2, "NHWC", mode), [X.transpose(0, 2, 3, 1)])
    np.testing.assert_array_equal(got, want.transpose(0, 2, 3, 1))
    with pytest.raises(ValueError, match=r"topi\.nn\.depth_to_space: argument 'mode'"):
        topi.nn.depth_to_space(D, 2, mode="CRD")


def test_space_to_depth_inverts_depth_to_space():
    y = RNG.standard_normal((1, 2, 4, 6)).astype("float32")
    s = te.placeholder((1, 2, 4, 6), name="S")
    got = _run([s], topi.nn.space_to_depth(s, 2), [y])
    want = y.reshape(1, 2, 2, 2, 3, 2).transpose(0, 3, 5, 1, 2, 4).reshape(1, 8, 2, 3)
    np.testing.assert_array_equal(got, want)
    back = te.placeholder((1, 8, 2, 3), name="B")
    np.testing.assert_array_equal(_run([back], topi.nn.depth_to_space(back, 2), [got]), y)


def _conv_transpose_ref(x, w, stride, pads, out_pad):
    """NCHW x, (C, F, kh, kw) w: scatter each input pixel's product, then crop the padding."""
    n, c, h, wd = x.shape
    _, f, kh, kw = w.shape
    full = np.zeros(
        (n, f, (h - 1) * stride[0] + kh + out_pad[0], (wd - 1) * stride[1] + kw + out_pad[1])
    )
    for y in range(h):
        for z in range(wd):
            full[:, :, y * stride[0] : y * stride[0] + kh, z * stride[1] : z * stride[1] + kw] += (
                np.einsum("nc,cfij->nfij", x[:, :, y, z], w)
            )
    top, left, bottom, right = pads
    return full[:, :, top : full.shape[2] - bottom, left : full.shape[3] - right].astype("float32")


@pytest.mark.parametrize(
    ("stride", "padding", "pads", "out_pad"),
    [((1, 1), 0, (0,) * 4, (0, 0)), ((2, 3), (1, 0), (1, 0, 1, 0), (1, 2))],
)
def test_conv2d_transpose(stride, padding, pads, out_pad):
    k = te.placeholder((8, 3, 3, 2), name="K")
    w = RNG.standard_normal((8, 3, 3, 2)).astype("float32")
    got = _run(
        [D, k], topi.nn.conv2d_transpose_nchw(D, k, stride, padding, "float32", out_pad), [X, w]
    )
    np.testing.assert_allclose(
        got, _conv_transpose_ref(X, w, stride, pads, out_pad), rtol=1e-4, atol=1e-4
    )


def test_conv1d_transpose():
    x = RNG.standard_normal((2, 3, 5)).astype("float32")
    w = RNG.standard_normal((3, 4, 3)).astype("float32")
    a, k = te.placeholder((2, 3, 5), name="A"), te.placeholder((3, 4, 3), name="K")
    got = _run([a, k], topi.nn.conv1d_transpose_ncw(a, k, 2, 1, "float32", 1), [x, w])
    want = _conv_transpose_ref(x[:, :, None], w[:, :, None], (1, 2), (0, 1, 0, 1), (0, 1))[:, :, 0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
def test_nll_loss(reduction):
    p = te.placeholder((3, 4, 2), name="P")
    t = te.placeholder((3, 2), "int32", name="T")
    wt = te.placeholder((4,), name="W")
    pv = RNG.standard_normal((3, 4, 2)).astype("float32")
    tv = np.array([[0, 3], [1, -1], [2, 2]], "int32")
    wv = RNG.random(4).astype("float32") + 0.5
    got = _run([p, t, wt], topi.nn.nll_loss(p, t, wt, reduction, -1), [pv, tv, wv])
    loss = np.zeros((3, 2), "float32")
    weight = np.zeros((3, 2), "float32")
    for n in range(3):
        for d in range(2):
            if tv[n, d] != -1:
                loss[n, d] = -pv[n, tv[n, d], d] * wv[tv[n, d]]
                weight[n, d] = wv[tv[n, d]]
    want = {"none": loss, "sum": loss.sum(), "mean": loss.sum() / weight.sum()}[reduction]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match=r"topi\.nn\.nll_loss: argument 'reduction'"):
        topi.nn.nll_loss(p, t, wt, "max", -1)


def test_scale_shift():
    sc, sh = te.placeholder((8,), name="SC"), te.placeholder((8,), name="SH")
    a, b = RNG.standard_normal(8).astype("float32"), RNG.standard_normal(8).astype("float32")
    got = _run([D, sc, sh], topi.nn.scale_shift_nchw(D, sc, sh), [X, a, b])
    np.testing.assert_allclose(got, X * a[:, None, None] + b[:, None, None], rtol=1e-6)
    dn = te.placeholder((1, 2, 3, 8), name="DN")
    got = _run([dn, sc, sh], topi.nn.scale_shift_nhwc(dn, sc, sh), [X.transpose(0, 2, 3, 1), a, b])
    np.testing.assert_allclose(got, X.transpose(0, 2, 3, 1) * a + b, rtol=1e-6)


def test_conv1d_layouts_and_groups():
    x = RNG.standard_normal((1, 4, 7)).astype("float32")
    w = RNG.standard_normal((6, 2, 3)).astype("float32")
    a, k = te.placeholder((1, 4, 7), name="A"), te.placeholder((6, 2, 3), name="K")
    got = _run([a, k], topi.nn.conv1d(a, k, 1, "SAME", 1, groups=2), [x, w])
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1)))
    want = np.zeros((1, 6, 7), "float32")
    for o in range(6):
        g = o // 3
        for z in range(7):
            want[0, o, z] = (xp[0, 2 * g : 2 * g + 2, z : z + 3] * w[o]).sum()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match=r"topi\.nn\.conv1d: layouts"):
        topi.nn.conv1d(a, k, data_layout="NCHW")


@pytest.mark.parametrize("pool_type", ["max", "avg"])
def test_adaptive_pool1d(pool_type):
    x = RNG.standard_normal((2, 3, 7)).astype("float32")
    a = te.placeholder((2, 3, 7), name="A")
    got = _run([a], topi.nn.adaptive_pool1d(a, 3, pool_type), [x])
    red = np.max if pool_type == "max" else np.mean
    want = np.stack([red(x[:, :, k * 7 // 3 : -(-(k + 1) * 7 // 3)], -1) for k in range(3)], -1)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_helpers():
    assert topi.nn.get_pad_tuple1d("SAME", (4,)) == (2, 1)
    assert topi.nn.get_pad_tuple("SAME", (3, 4)) == (1, 2, 1, 1)
    assert topi.nn.get_const_tuple(D.shape) == (1, 8, 2, 3)
    assert topi.nn.simplify(5) == 5 and int(topi.nn.simplify(D.shape[1] * 2)) == 16
    assert topi.nn.add is topi.add and topi.nn.concatenate is topi.concatenate


def _conv_nd_ref(x, w, stride, pad, groups=1):
    """NC+spatial x, OI+spatial w, symmetric int pad, dilation 1."""
    dims = x.ndim - 2
    x = np.pad(x, [(0, 0), (0, 0)] + [(pad, pad)] * dims)
    f, cg = w.shape[:2]
    k = w.shape[2:]
    out_sp = [(x.shape[2 + d] - k[d]) // stride + 1 for d in range(dims)]
    out = np.zeros((x.shape[0], f, *out_sp), "float64")
    per = f // groups
    for o in range(f):
        g = o // per
        for pos in np.ndindex(*out_sp):
            window = tuple(slice(p * stride, p * stride + kk) for p, kk in zip(pos, k))
            patch = x[(slice(None), slice(g * cg, (g + 1) * cg), *window)]
            out[(slice(None), o, *pos)] = (patch * w[o]).reshape(x.shape[0], -1).sum(1)
    return out.astype("float32")


def test_conv_generic_layouts():
    x = RNG.standard_normal((1, 4, 4, 5, 3)).astype("float32")
    w = RNG.standard_normal((6, 2, 2, 3, 2)).astype("float32")
    a, k = te.placeholder(x.shape, name="A"), te.placeholder(w.shape, name="K")
    got = _run([a, k], topi.nn.conv3d_ncdhw(a, k, 1, 1, 1, 2), [x, w])
    np.testing.assert_allclose(got, _conv_nd_ref(x, w, 1, 1, 2), rtol=1e-4, atol=1e-4)
    x2 = RNG.standard_normal((2, 6, 5, 4)).astype("float32")
    w2 = RNG.standard_normal((3, 2, 3, 3)).astype("float32")
    want = _conv_nd_ref(x2, w2, 2, 1, 3)
    an = te.placeholder((2, 5, 4, 6), name="AN")
    kn = te.placeholder((3, 3, 2, 3), name="KN")
    got = _run(
        [an, kn],
        topi.nn.group_conv2d_nhwc(an, kn, 2, 1, 1, 3),
        [x2.transpose(0, 2, 3, 1), w2.transpose(2, 3, 1, 0)],
    )
    np.testing.assert_allclose(got, want.transpose(0, 2, 3, 1), rtol=1e-4, atol=1e-4)
    ah = te.placeholder((5, 4, 6, 2), name="AH")
    w3 = RNG.standard_normal((4, 6, 3, 3)).astype("float32")
    kh = te.placeholder((3, 3, 6, 4), name="KH")
    got = _run(
        [ah, kh],
        topi.nn.conv2d_hwcn(ah, kh, 1, 0, 1),
        [x2.transpose(2, 3, 1, 0), w3.transpose(2, 3, 1, 0)],
    )
    np.testing.assert_allclose(
        got, _conv_nd_ref(x2, w3, 1, 0).transpose(2, 3, 1, 0), rtol=1e-4, atol=1e-4
    )
    with pytest.raises(ValueError, match=r"topi\.nn\.conv: argument 'kernel_layout'"):
        topi.nn.conv(an, kn, 1, 0, 1, 1, "NHWC", "HWOX")


def test_depthwise_nhwc_and_group_conv1d_nwc():
    x = RNG.standard_normal((1, 3, 5, 5)).astype("float32")
    w = RNG.standard_normal((3, 2, 3, 3)).astype("float32")  # (C, M, kh, kw)
    want = _conv_nd_ref(x, w.reshape(6, 1, 3, 3), 1, 1, 3)
    a = te.placeholder((1, 5, 5, 3), name="A")
    k = te.placeholder((3, 3, 3, 2), name="K")
    got = _run(
        [a, k],
        topi.nn.depthwise_conv2d_nhwc(a, k, 1, 1, 1),
        [x.transpose(0, 2, 3, 1), w.transpose(2, 3, 0, 1)],
    )
    np.testing.assert_allclose(got, want.transpose(0, 2, 3, 1), rtol=1e-4, atol=1e-4)
    x1 = RNG.standard_normal((2, 4, 6)).astype("float32")
    w1 = RNG.standard_normal((4, 2, 3)).astype("float32")
    a1, k1 = te.placeholder((2, 6, 4), name="A1"), te.placeholder((3, 2, 4), name="K1")
    got = _run(
        [a1, k1],
        topi.nn.group_conv1d_nwc(a1, k1, 1, 0, 1, 2),
        [x1.transpose(0, 2, 1), w1.transpose(2, 1, 0)],
    )
    np.testing.assert_allclose(
        got, _conv_nd_ref(x1, w1, 1, 0, 2).transpose(0, 2, 1), rtol=1e-4, atol=1e-4
    )
    assert topi.nn.get_pad_tuple3d("SAME", (3, 4, 1)) == (1, 2, 0, 1, 1, 0)


def _pool3d_ref(x, k, s, pads, pool_type, count_include_pad, ceil_mode=False):
    begin, end = pads[:3], pads[3:]
    fill = -np.inf if pool_type == "max" else np.nan
    xp = np.pad(x, [(0, 0), (0, 0)] + list(zip(begin, end)), constant_values=fill)
    spatial = x.shape[2:]
    out_sp = []
    for n, kk, st, b, e in zip(spatial, k, s, begin, end):
        span = n + b + e - kk
        out_sp.append((-(-span // st) if ceil_mode else span // st) + 1)
    out = np.zeros(x.shape[:2] + tuple(out_sp), "float32")
    for pos in np.ndindex(*out_sp):
        sl = tuple(slice(p * st, p * st + kk) for p, st, kk in zip(pos, s, k))
        win = xp[(slice(None), slice(None), *sl)].reshape(x.shape[0], x.shape[1], -1)
        if pool_type == "max":
            out[(slice(None), slice(None), *pos)] = np.nanmax(win, -1)
        elif count_include_pad:
            # padding counts as zeros inside the declared padding (not past it)
            inside = [
                min(p * st + kk, n + b + e) - p * st
                for p, st, kk, n, b, e in zip(pos, s, k, spatial, begin, end)
            ]
            out[(slice(None), slice(None), *pos)] = np.nansum(win, -1) / np.prod(inside)
        else:
            out[(slice(None), slice(None), *pos)] = np.nanmean(win, -1)
    return out


@pytest.mark.parametrize("pool_type", ["max", "avg"])
@pytest.mark.parametrize("count_include_pad", [True, False])
def test_pool3d(pool_type, count_include_pad):
    x = RNG.standard_normal((1, 2, 4, 5, 3)).astype("float32")
    a = te.placeholder(x.shape, name="A")
    pads = (1, 0, 1, 0, 1, 1)
    c = topi.nn.pool3d(
        a, (2, 3, 2), (2, 1, 2), (1, 1, 1), pads, pool_type, False, "NCDHW", count_include_pad
    )
    want = _pool3d_ref(x, (2, 3, 2), (2, 1, 2), pads, pool_type, count_include_pad)
    np.testing.assert_allclose(_run([a], c, [x]), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("pool_type", ["max", "avg"])
def test_adaptive_pool3d(pool_type):
    x = RNG.standard_normal((1, 2, 5, 4, 3)).astype("float32")
    a = te.placeholder(x.shape, name="A")
    got = _run([a], topi.nn.adaptive_pool3d(a, (2, 3, 1), pool_type), [x])
    red = np.max if pool_type == "max" else np.mean
    want = np.zeros((1, 2, 2, 3, 1), "float32")
    for i, j, k in np.ndindex(2, 3, 1):
        sl = [
            slice(p * n // o, -(-(p + 1) * n // o))
            for p, n, o in zip((i, j, k), (5, 4, 3), (2, 3, 1))
        ]
        want[:, :, i, j, k] = red(x[:, :, sl[0], sl[1], sl[2]], (2, 3, 4))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_softmax_common_and_padded_shape():
    np.testing.assert_allclose(
        _run([D], topi.nn.softmax_common(D, 1, True), [X]),
        np.exp(X) / np.exp(X).sum(1, keepdims=True),
        rtol=1e-5,
    )
    assert [int(v) for v in topi.nn.get_padded_shape(D, (0, 1, 2, 3))] == [1, 10, 6, 9]


def test_group_conv_transposes():
    x = RNG.standard_normal((1, 4, 3, 3)).astype("float32")
    w = RNG.standard_normal((4, 3, 2, 2)).astype("float32")  # (C, F / groups, kh, kw)
    a, k = te.placeholder(x.shape, name="A"), te.placeholder(w.shape, name="K")
    got = _run(
        [a, k], topi.nn.group_conv2d_transpose_nchw(a, k, (2, 2), 0, "float32", (1, 0), 2), [x, w]
    )
    halves = [
        _conv_transpose_ref(x[:, 2 * g : 2 * g + 2], w[2 * g : 2 * g + 2], (2, 2), (0,) * 4, (1, 0))
        for g in range(2)
    ]
    np.testing.assert_allclose(got, np.concatenate(halves, 1), rtol=1e-4, atol=1e-4)
    x1 = RNG.standard_normal((1, 4, 5)).astype("float32")
    w1 = RNG.standard_normal((4, 1, 3)).astype("float32")
    a1, k1 = te.placeholder(x1.shape, name="A1"), te.placeholder(w1.shape, name="K1")
    got = _run(
        [a1, k1], topi.nn.group_conv1d_transpose_ncw(a1, k1, 1, 0, "float32", 0, 4), [x1, w1]
    )
    want = np.concatenate(
        [
            _conv_transpose_ref(
                x1[:, g : g + 1, None], w1[g : g + 1, :, None], (1, 1), (0,) * 4, (0, 0)
            )[:, :, 0]
            for g in range(4)
        ],
        1,
    )
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    with pytest.raises(
        ValueError, match=r"topi\.nn\.group_conv2d_transpose_nchw: 4 channels do not split"
    ):
        topi.nn.group_conv2d_transpose_nchw(a, k, 1, 0, "float32", 0, 3)


def test_space_batch_nd_round_trip():
    x = RNG.standard_normal((2, 3, 5, 4)).astype("float32")  # (batch, h, w, c)
    a = te.placeholder(x.shape, name="A")
    s2b = topi.nn.space_to_batch_nd(a, [2, 2], [1, 0], [0, 1])
    got = _run([a], s2b, [x])
    padded = np.pad(x, ((0, 0), (1, 0), (0, 1), (0, 0)))
    want = padded.reshape(2, 2, 2, 3, 2, 4).transpose(2, 4, 0, 1, 3, 5).reshape(8, 2, 3, 4)
    np.testing.assert_array_equal(got, want)
    b = te.placeholder(want.shape, name="B")
    back = _run([b], topi.nn.batch_to_space_nd(b, [2, 2], [1, 0], [0, 1]), [want])
    np.testing.assert_array_equal(back, x)
    with pytest.raises(ValueError, match=r"topi\.nn\.space_to_batch_nd: argument 'block_shape'"):
        topi.nn.space_to_batch_nd(a, [0, 2], [0, 0], [0, 0])


def test_conv3d_ndhwc():
    x = RNG.standard_normal((1, 2, 4, 4, 3)).astype("float32")
    w = RNG.standard_normal((4, 2, 2, 2, 2)).astype("float32")
    a = te.placeholder((1, 4, 4, 3, 2), name="A")
    k = te.placeholder((2, 2, 2, 2, 4), name="K")
    got = _run(
        [a, k],
        topi.nn.conv3d_ndhwc(a, k, 1, 0, 1, 1),
        [x.transpose(0, 2, 3, 4, 1), w.transpose(2, 3, 4, 1, 0)],
    )
    np.testing.assert_allclose(
        got, _conv_nd_ref(x, w, 1, 0).transpose(0, 2, 3, 4, 1), rtol=1e-4, atol=1e-4
    )
