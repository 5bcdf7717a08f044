# tvm.topi.nn.pool2d with ceil_mode and nn.pad with padding only after an axis, against NumPy
# references of upstream's definitions.
import numpy as np
import pytest
import tvm
from tvm import te, topi

RNG = np.random.default_rng(0)


def _run(inputs, output, arrays):
    f = tvm.compile(te.create_prim_func([*inputs, output]))
    out = np.zeros([int(s.value) for s in output.shape], output.dtype)
    f(*arrays, out)
    return out


def test_pad_after_only_fills_with_the_pad_value():
    # A pad with nothing before an axis but something after it read past the data's end.
    a = te.placeholder((3, 4), name="A")
    x = RNG.standard_normal((3, 4)).astype("float32")
    out = _run([a], topi.nn.pad(a, (0, 0), (1, 2), pad_value=-5.0), [x])
    np.testing.assert_array_equal(out, np.pad(x, ((0, 1), (0, 2)), constant_values=-5.0))


def _pool_reference(x, kernel, stride, padding, pool_type, count_include_pad):
    """Upstream's ceil_mode pool2d: output rounded up; the overhang past the declared padding
    is neither a maximum candidate nor counted in an average."""
    (kh, kw), (sh, sw), (top, left, bottom, right) = kernel, stride, padding
    n, c, h, w = x.shape
    oh = -(-(h + top + bottom - kh) // sh) + 1
    ow = -(-(w + left + right - kw) // sw) + 1
    out = np.zeros((n, c, oh, ow), "float32")
    for y in range(oh):
        for z in range(ow):
            rows = range(y * sh - top, y * sh - top + kh)
            cols = range(z * sw - left, z * sw - left + kw)
            data = [x[:, :, r, q] for r in rows for q in cols if 0 <= r < h and 0 <= q < w]
            if pool_type == "max":
                out[:, :, y, z] = np.max(data, axis=0)
                continue
            if count_include_pad:
                count = sum(1 for r in rows if r < h + bottom) * sum(
                    1 for q in cols if q < w + right
                )
            else:
                count = max(len(data), 1)
            out[:, :, y, z] = np.sum(data, axis=0) / count
    return out


@pytest.mark.parametrize("pool_type", ["max", "avg"])
@pytest.mark.parametrize("count_include_pad", [True, False])
@pytest.mark.parametrize(
    ("kernel", "stride", "padding"),
    [
        ((2, 2), (2, 2), (0, 0, 0, 0)),
        ((3, 3), (2, 2), (1, 1, 1, 1)),
        ((3, 3), (3, 3), (0, 0, 0, 0)),
    ],
)
def test_pool2d_ceil_mode(pool_type, count_include_pad, kernel, stride, padding):
    a = te.placeholder((1, 2, 7, 7), name="A")
    x = RNG.standard_normal((1, 2, 7, 7)).astype("float32")
    pooled = topi.nn.pool2d(
        a,
        kernel,
        stride,
        (1, 1),
        padding,
        pool_type,
        ceil_mode=True,
        count_include_pad=count_include_pad,
    )
    expected = _pool_reference(x, kernel, stride, padding, pool_type, count_include_pad)
    assert [int(s.value) for s in pooled.shape] == list(expected.shape)
    np.testing.assert_allclose(_run([a], pooled, [x]), expected, rtol=1e-5, atol=1e-6)
