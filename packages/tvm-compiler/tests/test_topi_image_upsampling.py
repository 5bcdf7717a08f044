# tvm.topi.image.resize2d and tvm.topi.nn.upsampling against NumPy (asymmetric and
# align_corners coordinates, nearest and bilinear), as upstream computes them.
import numpy as np
import pytest
import tvm
from tvm import te, topi

RNG = np.random.default_rng(8)


def _run(inputs, output, arrays):
    f = tvm.compile(te.create_prim_func([*inputs, output]), target="llvm")
    out = np.zeros([int(s) for s in output.shape], output.dtype)
    f(*arrays, out)
    return out


def _coords(n_out, n_in, align):
    x = np.arange(n_out, dtype="float64")
    if align:
        return x * (n_in - 1) / max(n_out - 1, 1)
    return x / (n_out / n_in)


def _reference(x, out_h, out_w, method, align):
    """NCHW x resized: nearest rounds (align) or floors, bilinear blends two taps per axis."""
    _, _, h, w = x.shape
    ch, cw = _coords(out_h, h, align), _coords(out_w, w, align)
    if method == "nearest_neighbor":
        pick = np.round if align else np.floor
        rows = np.clip(pick(ch).astype(int), 0, h - 1)
        cols = np.clip(pick(cw).astype(int), 0, w - 1)
        return x[:, :, rows][:, :, :, cols]
    r0, c0 = np.floor(ch).astype(int), np.floor(cw).astype(int)
    fr, fc = (ch - r0)[:, None], (cw - c0)[None, :]
    r1, c1 = np.clip(r0 + 1, 0, h - 1), np.clip(c0 + 1, 0, w - 1)
    r0, c0 = np.clip(r0, 0, h - 1), np.clip(c0, 0, w - 1)

    def at(r, c):
        return x[:, :, r][:, :, :, c]

    top = at(r0, c0) * (1 - fc) + at(r0, c1) * fc
    bottom = at(r1, c0) * (1 - fc) + at(r1, c1) * fc
    return (top * (1 - fr) + bottom * fr).astype(x.dtype)


@pytest.mark.parametrize("method", ["nearest_neighbor", "bilinear"])
@pytest.mark.parametrize("align", [False, True])
def test_upsampling(method, align):
    a = te.placeholder((1, 2, 3, 5), name="A")
    x = RNG.standard_normal((1, 2, 3, 5)).astype("float32")
    c = topi.nn.upsampling(a, 2, 1.5, "NCHW", method, align)
    assert [int(s) for s in c.shape] == [1, 2, 6, 8]
    want = _reference(x, 6, 8, method, align)
    np.testing.assert_allclose(_run([a], c, [x]), want, rtol=1e-5, atol=1e-5)
    an = te.placeholder((1, 3, 5, 2), name="AN")
    cn = topi.nn.upsampling(an, 2, 1.5, "NHWC", method, align)
    got = _run([an], cn, [np.ascontiguousarray(x.transpose(0, 2, 3, 1))])
    np.testing.assert_allclose(got, want.transpose(0, 2, 3, 1), rtol=1e-5, atol=1e-5)


def test_resize2d_and_errors():
    a = te.placeholder((1, 1, 4, 4), name="A")
    x = RNG.standard_normal((1, 1, 4, 4)).astype("float32")
    c = topi.image.resize2d(
        a, None, (2, 3), method="linear", coordinate_transformation_mode="align_corners"
    )
    np.testing.assert_allclose(
        _run([a], c, [x]), _reference(x, 2, 3, "linear", True), rtol=1e-5, atol=1e-6
    )
    with pytest.raises(ValueError, match=r"topi\.image\.resize2d: argument 'method'"):
        topi.image.resize2d(a, None, (2, 2), method="area")
    with pytest.raises(
        ValueError, match=r"topi\.image\.resize2d: argument 'coordinate_transformation_mode'"
    ):
        topi.image.resize2d(a, None, (2, 2), coordinate_transformation_mode="centre")
    with pytest.raises(ValueError, match=r"topi\.nn\.upsampling: argument 'method'"):
        topi.nn.upsampling(a, 2, 2, method="trilinear")
    with pytest.raises(ValueError, match=r"topi\.nn\.upsampling: argument 'layout'"):
        topi.nn.upsampling(a, 2, 2, layout="NCDHW")
