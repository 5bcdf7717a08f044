# conv2d, the 2-D pools, batch_norm and dropout: struct info (with errors naming the shapes)
# and legalised PrimFuncs against a NumPy reference.
import numpy as np
import pytest
from relax_eval import build_and_run
from tvm import relax
from tvm.relax import op as R

RNG = np.random.default_rng(1)


def _v(shape, name="x"):
    return relax.Var(name, relax.TensorStructInfo(shape, "float32"))


def _dims(call):
    return [int(d) for d in relax.BlockBuilder().normalize(call).struct_info.shape.values]


def _conv_ref(x, w, stride, pad, dilation, groups):
    x = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[2]), (pad[1], pad[3])))
    n, c, h, wd = x.shape
    o, i, kh, kw = w.shape
    oh = (h - (kh - 1) * dilation - 1) // stride + 1
    ow = (wd - (kw - 1) * dilation - 1) // stride + 1
    out = np.zeros((n, o, oh, ow), "float32")
    per = o // groups
    for f in range(o):
        g = f // per
        for y in range(oh):
            for xx in range(ow):
                patch = x[
                    :,
                    g * i : (g + 1) * i,
                    y * stride : y * stride + (kh - 1) * dilation + 1 : dilation,
                    xx * stride : xx * stride + (kw - 1) * dilation + 1 : dilation,
                ]
                out[:, f, y, xx] = (patch * w[f]).sum(axis=(1, 2, 3))
    return out


def _pool_ref(x, k, stride, pad, kind):
    fill = -np.inf if kind == "max" else 0.0
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), constant_values=fill)
    ones = np.pad(np.ones_like(x), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, w = xp.shape
    oh, ow = (h - k) // stride + 1, (w - k) // stride + 1
    out = np.zeros((n, c, oh, ow), "float32")
    for y in range(oh):
        for xx in range(ow):
            win = xp[:, :, y * stride : y * stride + k, xx * stride : xx * stride + k]
            if kind == "max":
                out[:, :, y, xx] = win.max(axis=(2, 3))
            else:
                cnt = ones[:, :, y * stride : y * stride + k, xx * stride : xx * stride + k].sum(
                    (2, 3)
                )
                out[:, :, y, xx] = win.sum(axis=(2, 3)) / cnt
    return out


def test_conv2d_struct_info_and_errors():
    assert _dims(R.nn.conv2d(_v([1, 3, 8, 8]), _v([4, 3, 3, 3]), padding=1)) == [1, 4, 8, 8]
    assert _dims(
        R.nn.conv2d(
            _v([1, 8, 8, 4]), _v([3, 3, 4, 6]), strides=2, data_layout="NHWC", kernel_layout="HWIO"
        )
    ) == [1, 3, 3, 6]
    assert _dims(R.nn.conv2d(_v([2, 4, 5, 5]), _v([6, 2, 1, 1]), groups=2)) == [2, 6, 5, 5]
    with pytest.raises(ValueError, match=r"nn.conv2d: data of shape \(1, 3, 8, 8\) \(NCHW\) has 3"):
        relax.BlockBuilder().normalize(R.nn.conv2d(_v([1, 3, 8, 8]), _v([4, 2, 3, 3])))
    with pytest.raises(ValueError, match="nn.conv2d: padding must be"):
        R.nn.conv2d(_v([1, 3, 8, 8]), _v([4, 3, 3, 3]), padding=(1, 2, 3))
    assert _dims(R.nn.max_pool2d(_v([1, 2, 7, 7]), 3, 2, ceil_mode=True)) == [1, 2, 3, 3]
    assert _dims(R.nn.adaptive_avg_pool2d(_v([1, 2, 7, 9]), (2, 3))) == [1, 2, 2, 3]


def test_conv2d_and_pools_match_numpy():
    x = RNG.standard_normal((2, 4, 7, 7)).astype("float32")
    w = RNG.standard_normal((6, 2, 3, 3)).astype("float32")

    def build(bb, x, w):
        return relax.Tuple(
            [
                bb.emit(R.nn.conv2d(x, w, strides=2, padding=1, groups=2)),
                bb.emit(
                    R.nn.conv2d(
                        x,
                        R.reshape(R.permute_dims(w, [2, 3, 1, 0]), [3, 3, 2, 6]),
                        dilation=2,
                        kernel_layout="HWIO",
                        groups=2,
                    )
                ),
                bb.emit(R.nn.max_pool2d(x, 3, 2, padding=1)),
                bb.emit(R.nn.avg_pool2d(x, 3, 2, padding=1)),
                bb.emit(R.nn.adaptive_avg_pool2d(x, (1, 1))),
                bb.emit(R.nn.relu(x)),
            ]
        )

    (conv, conv_dil, mx, avg, gap, _), _ = build_and_run(build, x, w)
    np.testing.assert_allclose(conv, _conv_ref(x, w, 2, (1, 1, 1, 1), 1, 2), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(
        conv_dil, _conv_ref(x, w, 1, (0, 0, 0, 0), 2, 2), rtol=1e-4, atol=1e-4
    )
    np.testing.assert_allclose(mx, _pool_ref(x, 3, 2, 1, "max"), rtol=1e-6)
    np.testing.assert_allclose(avg, _pool_ref(x, 3, 2, 1, "avg"), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gap, x.mean(axis=(2, 3), keepdims=True), rtol=1e-5, atol=1e-6)


def _dilated_avg_rows_ref(x, k, stride, dilation, pad, ceil_mode, include_pad):
    """Average pool along H only (window 1 along W): each window's taps y0 + t * dilation, the
    divisor the taps inside the data (or data and declared padding), as ONNX counts them."""
    h = x.shape[2]
    span = h + 2 * pad - (k - 1) * dilation - 1
    oh = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (oh - 1) * stride >= h + pad:  # a window starting in the end padding
        oh -= 1
    lo, hi = (-pad, h + pad) if include_pad else (0, h)
    out = np.zeros(x.shape[:2] + (oh, x.shape[3]), "float32")
    for y in range(oh):
        rows = [y * stride - pad + t * dilation for t in range(k)]
        inside = [r for r in rows if 0 <= r < h]
        count = sum(lo <= r < hi for r in rows)
        out[:, :, y] = x[:, :, inside].sum(axis=2) / count
    return out


@pytest.mark.parametrize("include_pad", [False, True])
def test_dilated_avg_pool_divides_by_the_taps_a_window_keeps(include_pad):
    # size 12, kernel 3 dilated by 3 (span 7), stride 3, padding 1, ceil_mode: the last window
    # (rows 8, 11, 14) overhangs the end by one tap; before, a dilated pool divided by 3
    x = RNG.standard_normal((1, 2, 12, 3)).astype("float32")

    def build(bb, x):
        return bb.emit(
            R.nn.avg_pool2d(
                x,
                (3, 1),
                (3, 1),
                padding=(1, 0, 1, 0),
                dilation=(3, 1),
                ceil_mode=True,
                count_include_pad=include_pad,
            )
        )

    got, _ = build_and_run(build, x)
    want = _dilated_avg_rows_ref(x, 3, 3, 3, 1, True, include_pad)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_batch_norm_and_dropout_inference():
    x = RNG.standard_normal((2, 3, 4)).astype("float32")
    g, b = RNG.standard_normal(3).astype("float32"), RNG.standard_normal(3).astype("float32")
    m, v = (
        RNG.standard_normal(3).astype("float32"),
        np.abs(RNG.standard_normal(3)).astype("float32"),
    )

    def build(bb, x, g, b, m, v):
        bn = bb.emit(R.nn.batch_norm(x, g, b, m, v, axis=1))
        drop = bb.emit(R.nn.dropout(x, 0.3))
        return relax.Tuple([bb.emit(bn[0]), bb.emit(drop[0])])

    (out, dropped), _ = build_and_run(build, x, g, b, m, v)
    c = (slice(None), None)
    np.testing.assert_allclose(
        out, (x - m[c]) / np.sqrt(v[c] + 1e-5) * g[c] + b[c], rtol=1e-5, atol=1e-5
    )
    np.testing.assert_array_equal(dropped, x)
    with pytest.raises(ValueError, match=r"nn.batch_norm: gamma of shape \(4,\)"):
        relax.BlockBuilder().normalize(
            R.nn.batch_norm(_v([2, 3]), _v([4]), _v([3]), _v([3]), _v([3]))
        )


@pytest.mark.parametrize("layout", ["OHWI", "IHWO", "HWOI"])
def test_conv2d_weight_in_any_axis_order_matches_oihw(layout):
    x = RNG.standard_normal((1, 4, 6, 6)).astype("float32")
    w = RNG.standard_normal((6, 4, 3, 3)).astype("float32")
    w_laid = np.ascontiguousarray(w.transpose(["OIHW".index(a) for a in layout]))
    assert _dims(
        R.nn.conv2d(_v([1, 4, 6, 6]), _v(list(w_laid.shape), "w"), kernel_layout=layout)
    ) == [
        1,
        6,
        4,
        4,
    ]

    def build(bb, x, w):
        return bb.emit(R.nn.conv2d(x, w, padding=1, kernel_layout=layout))

    got, _ = build_and_run(build, x, w_laid)
    np.testing.assert_allclose(got, _conv_ref(x, w, 1, (1, 1, 1, 1), 1, 1), rtol=1e-4, atol=1e-4)


def test_conv2d_kernel_layout_must_name_the_four_weight_axes():
    with pytest.raises(ValueError, match="nn.conv2d: kernel_layout must be one of .* got 'OIHX'"):
        R.nn.conv2d(_v([1, 4, 6, 6]), _v([6, 4, 3, 3], "w"), kernel_layout="OIHX")
