# conv1d and conv2d_transpose: struct info (errors naming the op and both shapes) and the
# legalised PrimFuncs against NumPy references.
import numpy as np
import pytest
from relax_eval import build_and_run
from tvm import relax, tir
from tvm.relax import op as R

RNG = np.random.default_rng(11)


def _v(shape, name="x"):
    return relax.Var(name, relax.TensorStructInfo(shape, "float32"))


def _dims(call):
    return list(relax.BlockBuilder().normalize(call).struct_info.shape.values)


def test_conv1d_and_conv2d_transpose_struct_info():
    n = tir.Var("n", "int64")
    assert [int(d) for d in _dims(R.nn.conv1d(_v([2, 4, 9]), _v([6, 2, 3]), 2, 1, groups=2))] == [
        2,
        6,
        5,
    ]
    assert (
        str(
            _dims(
                R.nn.conv1d(_v([n, 9, 4]), _v([3, 4, 6]), data_layout="NWC", kernel_layout="WIO")
            )[0]
        )
        == "n"
    )
    out = _dims(R.nn.conv2d_transpose(_v([1, 4, 5, 5]), _v([4, 3, 3, 3]), 2, 1, 1, groups=2))
    assert [int(d) for d in out] == [1, 6, 10, 10]
    with pytest.raises(ValueError, match=r"nn.conv1d: data of shape \(1, 3, 8\) \(NCW\) has 3"):
        relax.BlockBuilder().normalize(R.nn.conv1d(_v([1, 3, 8]), _v([4, 2, 3])))
    with pytest.raises(ValueError, match=r"nn.conv2d_transpose: data of shape \(1, 3, 5, 5\)"):
        relax.BlockBuilder().normalize(R.nn.conv2d_transpose(_v([1, 3, 5, 5]), _v([4, 2, 3, 3])))
    with pytest.raises(ValueError, match="nn.conv2d_transpose: output_padding must be"):
        R.nn.conv2d_transpose(_v([1, 4, 5, 5]), _v([4, 3, 3, 3]), strides=1, output_padding=1)
    with pytest.raises(ValueError, match="nn.conv1d: data must be 3-D"):
        relax.BlockBuilder().normalize(R.nn.conv1d(_v([1, 3, 8, 8]), _v([4, 3, 3])))


def _conv1d_ref(x, w, stride, pad, dilation, groups):
    x = np.pad(x, ((0, 0), (0, 0), pad))
    o, i, k = w.shape
    ow = (x.shape[2] - (k - 1) * dilation - 1) // stride + 1
    out = np.zeros((x.shape[0], o, ow), "float32")
    per = o // groups
    for f in range(o):
        g = f // per
        for p in range(ow):
            patch = x[
                :, g * i : (g + 1) * i, p * stride : p * stride + (k - 1) * dilation + 1 : dilation
            ]
            out[:, f, p] = (patch * w[f]).sum(axis=(1, 2))
    return out


def _conv2d_transpose_ref(x, w, stride, pad, out_pad, groups):
    n, c, h, wd = x.shape
    _, per, kh, kw = w.shape
    full = np.zeros((n, per * groups, (h - 1) * stride + kh, (wd - 1) * stride + kw), "float32")
    cin = c // groups
    for b in range(n):
        for ci in range(c):
            g = ci // cin
            for y in range(h):
                for xx in range(wd):
                    full[
                        b,
                        g * per : (g + 1) * per,
                        y * stride : y * stride + kh,
                        xx * stride : xx * stride + kw,
                    ] += x[b, ci, y, xx] * w[ci]
    full = np.pad(full, ((0, 0), (0, 0), (0, out_pad), (0, out_pad)))
    return full[:, :, pad : full.shape[2] - pad, pad : full.shape[3] - pad]


def test_conv1d_and_conv2d_transpose_match_numpy():
    x1 = RNG.standard_normal((2, 4, 9)).astype("float32")
    w1 = RNG.standard_normal((6, 2, 3)).astype("float32")
    x2 = RNG.standard_normal((1, 4, 4, 5)).astype("float32")
    w2 = RNG.standard_normal((4, 3, 3, 3)).astype("float32")

    def build(bb, x1, w1, x2, w2):
        return relax.Tuple(
            [
                bb.emit(R.nn.conv1d(x1, w1, strides=2, padding=1, dilation=1, groups=2)),
                bb.emit(R.nn.conv2d_transpose(x2, w2, 2, 1, 1, groups=2)),
            ]
        )

    (c1, ct), _ = build_and_run(build, x1, w1, x2, w2)
    np.testing.assert_allclose(c1, _conv1d_ref(x1, w1, 2, (1, 1), 1, 2), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(ct, _conv2d_transpose_ref(x2, w2, 2, 1, 1, 2), rtol=1e-4, atol=1e-4)


def test_conv1d_transpose_struct_info_and_errors():
    n = tir.Var("n", "int64")
    call = R.nn.conv1d_transpose(_v([n, 4, 5]), _v([4, 3, 3]), 2, 1, 1, groups=2)
    dims = _dims(call)
    assert str(dims[0]) == "n" and [int(d) for d in dims[1:]] == [6, 10]
    assert call.attrs.kernel_layout == "IOW" and list(call.attrs.output_padding) == [1]
    with pytest.raises(ValueError, match=r"nn.conv1d_transpose: data of shape \(1, 3, 5\) \(NCW\)"):
        relax.BlockBuilder().normalize(R.nn.conv1d_transpose(_v([1, 3, 5]), _v([4, 2, 3])))
    with pytest.raises(ValueError, match="nn.conv1d_transpose: output_padding must be an int"):
        R.nn.conv1d_transpose(_v([1, 4, 5]), _v([4, 3, 3]), strides=1, output_padding=1)
    with pytest.raises(ValueError, match="nn.conv1d_transpose: data_layout"):
        R.nn.conv1d_transpose(_v([1, 5, 4]), _v([4, 3, 3]), data_layout="NWC")


def test_conv1d_transpose_matches_numpy():
    # the 1-D result is the 2-D one over a unit height
    x = RNG.standard_normal((2, 4, 5)).astype("float32")
    w = RNG.standard_normal((4, 3, 3)).astype("float32")

    def build(bb, x, w):
        return bb.emit(
            R.nn.conv1d_transpose(x, w, strides=2, padding=1, output_padding=1, groups=2)
        )

    out, _ = build_and_run(build, x, w)
    ref = _conv2d_transpose_ref(x[:, :, None, :], w[:, :, None, :], 2, 0, 0, 2)[:, :, 0, :]
    ref = np.pad(ref, ((0, 0), (0, 0), (0, 1)))[:, :, 1:-1]
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-4)
