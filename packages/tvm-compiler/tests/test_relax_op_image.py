# image.resize2d: struct info (NCHW/NHWC, errors naming the op) and the legalised PrimFunc
# against NumPy references for nearest, linear and cubic sampling.
import numpy as np
import pytest
from relax_eval import build_and_run
from tvm import relax, tir
from tvm.relax import op as R

RNG = np.random.default_rng(5)


def _v(shape, dtype="float32"):
    return relax.Var("x", relax.TensorStructInfo(shape, dtype))


def _sinfo(call):
    return relax.BlockBuilder().normalize(call).struct_info


def test_resize2d_struct_info_and_errors():
    n = tir.Var("n", "int64")
    out = _sinfo(R.image.resize2d(_v([n, 3, 4, 5]), (8, 10)))
    assert str(out) == str(_v([n, 3, 8, 10]).struct_info)
    nhwc = _sinfo(R.image.resize2d(_v([1, 4, 5, 3]), 6, layout="NHWC", out_dtype="float16"))
    assert [int(d) for d in nhwc.shape.values] == [1, 6, 6, 3] and nhwc.dtype == "float16"
    with pytest.raises(ValueError, match=r"image.resize2d: data must be 4-D \(NCHW\)"):
        _sinfo(R.image.resize2d(_v([3, 4, 5]), (8, 10)))
    with pytest.raises(ValueError, match="image.resize2d: method must be one of"):
        R.image.resize2d(_v([1, 3, 4, 5]), (8, 10), method="area")
    with pytest.raises(ValueError, match=r"image.resize2d: size must be \(height, width\)"):
        R.image.resize2d(_v([1, 3, 4, 5]), (8, 10, 2))


def _linear_1d(n_in, n_out, coord):
    """The (n_out, n_in) interpolation matrix of linear sampling along one axis."""
    m = np.zeros((n_out, n_in))
    for x in range(n_out):
        if coord == "align_corners":
            src = x * (n_in - 1) / (n_out - 1)
        else:
            src = (x + 0.5) * n_in / n_out - 0.5
        lo = int(np.floor(src))
        r = src - lo
        m[x, min(max(lo, 0), n_in - 1)] += 1 - r
        m[x, min(max(lo + 1, 0), n_in - 1)] += r
    return m


def test_resize2d_matches_numpy():
    x = RNG.standard_normal((1, 2, 4, 6)).astype("float32")

    def build(bb, x):
        return relax.Tuple(
            [
                bb.emit(
                    R.image.resize2d(
                        x,
                        (8, 12),
                        method="nearest_neighbor",
                        coordinate_transformation_mode="asymmetric",
                        rounding_method="floor",
                    )
                ),
                bb.emit(R.image.resize2d(x, (3, 4))),
                bb.emit(
                    R.image.resize2d(x, (7, 9), coordinate_transformation_mode="align_corners")
                ),
                bb.emit(R.image.resize2d(x, (4, 6), method="cubic")),
            ]
        )

    (nearest, half, corners, same), _ = build_and_run(build, x)
    np.testing.assert_array_equal(nearest, x.repeat(2, axis=2).repeat(2, axis=3))
    for out, coord in ((half, "half_pixel"), (corners, "align_corners")):
        mh = _linear_1d(4, out.shape[2], coord)
        mw = _linear_1d(6, out.shape[3], coord)
        np.testing.assert_allclose(out, mh @ x @ mw.T, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(same, x, rtol=1e-5, atol=1e-6)  # cubic at the same size
