# max_pool1d, avg_pool1d, adaptive_avg_pool1d, instance_norm, batch_flatten and pixel_shuffle:
# upstream's signatures, inferred shapes, bad input, and values against NumPy references.
import numpy as np
import pytest
import tvm
from tvm import relax, tir


def _var(name, shape, dtype="float32"):
    return relax.Var(name, relax.TensorStructInfo(shape, dtype))


def _run(params, make, *arrays):
    bb = relax.BlockBuilder()
    with bb.function("main", params):
        out = bb.emit(make(*params))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    return out.struct_info, vm["main"](*[tvm.runtime.tensor(a) for a in arrays]).numpy()


def _pool_ref(x, k, s, pad, d, kind, ceil_mode=False, count_include_pad=True):
    n, c, w = x.shape
    left, right = pad
    span = w + left + right - (k - 1) * d - 1
    ow = (span + (s - 1 if ceil_mode else 0)) // s + 1
    out = np.zeros((n, c, ow), x.dtype)
    for o in range(ow):
        taps = [o * s + t * d - left for t in range(k)]
        inside = [t for t in taps if 0 <= t < w]
        if kind == "max":
            out[..., o] = x[..., inside].max(-1)
        else:
            count = k if count_include_pad else len(inside)
            out[..., o] = x[..., inside].sum(-1) / count
    return out


X = np.random.default_rng(0).standard_normal((2, 3, 11)).astype("float32")


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize(
    ("k", "s", "pad", "ceil_mode"),
    [(3, 1, (0, 0), False), (3, 2, (1, 1), True), (2, 3, (1, 0), False)],
)
def test_pool1d_matches_the_reference(kind, k, s, pad, ceil_mode):
    fn = relax.op.nn.max_pool1d if kind == "max" else relax.op.nn.avg_pool1d
    sinfo, got = _run(
        [_var("x", X.shape)],
        lambda x: fn(x, pool_size=k, strides=s, padding=pad, ceil_mode=ceil_mode),
        X,
    )
    want = _pool_ref(X, k, s, pad, 1, kind, ceil_mode, count_include_pad=True)
    assert [int(v) for v in sinfo.shape] == list(want.shape)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_pool1d_nwc_layout_and_dilation():
    xt = np.ascontiguousarray(X.transpose(0, 2, 1))
    _, got = _run(
        [_var("x", xt.shape)],
        lambda x: relax.op.nn.max_pool1d(x, 2, 1, 0, dilation=3, layout="NWC"),
        xt,
    )
    want = _pool_ref(X, 2, 1, (0, 0), 3, "max").transpose(0, 2, 1)
    np.testing.assert_allclose(got, want)


def test_adaptive_avg_pool1d():
    _, got = _run([_var("x", X.shape)], lambda x: relax.op.nn.adaptive_avg_pool1d(x, 4), X)
    want = np.stack(
        [X[..., (o * 11) // 4 : -(-(o + 1) * 11 // 4)].mean(-1) for o in range(4)], axis=-1
    )
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def _adaptive_ref(x, out):
    w = x.shape[-1]
    cols = [x[..., (k * w) // out : -(-((k + 1) * w) // out)].mean(-1) for k in range(out)]
    return np.stack(cols, -1)


def test_adaptive_avg_pool_of_a_symbolic_width():
    # Legalisation raised NotImplementedError ("adaptive_avg_pool2d: ... needs static H, W",
    # naming the 2-D op for a 1-D call) when the width was known only at run time.
    width = tir.Var("w", "int64")
    for w in (7, 3, 12):
        x = np.random.default_rng(w).standard_normal((1, 2, w)).astype("float32")
        _, got = _run(
            [_var("x", (1, 2, width))], lambda v: relax.op.nn.adaptive_avg_pool1d(v, 3), x
        )
        np.testing.assert_allclose(got, _adaptive_ref(x, 3), rtol=1e-5, atol=1e-6)
    h = tir.Var("h", "int64")
    x = np.random.default_rng(0).standard_normal((1, 1, 5, 4)).astype("float32")
    _, got = _run(
        [_var("x", (1, 1, h, 4))], lambda v: relax.op.nn.adaptive_avg_pool2d(v, (2, 2)), x
    )
    want = _adaptive_ref(_adaptive_ref(x, 2).swapaxes(-1, -2), 2).swapaxes(-1, -2)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_instance_norm_per_instance_and_channel():
    x = np.random.default_rng(1).standard_normal((2, 3, 4, 5)).astype("float32")
    gamma = np.array([1.0, 2.0, 0.5], "float32")
    beta = np.array([0.0, -1.0, 3.0], "float32")
    _, got = _run(
        [_var("x", x.shape), _var("g", (3,)), _var("b", (3,))],
        lambda v, g, b: relax.op.nn.instance_norm(v, g, b, channel_axis=1, axes=[2, 3]),
        x,
        gamma,
        beta,
    )
    mean = x.mean(axis=(2, 3), keepdims=True)
    var = x.var(axis=(2, 3), keepdims=True)
    want = (x - mean) / np.sqrt(var + 1e-5) * gamma[:, None, None] + beta[:, None, None]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_instance_and_group_norm_of_narrow_floats_keep_statistics_in_float32(dtype):
    # The float16 sum of squares of 64 values near 1000 overflowed to inf: every output was 0.
    if dtype == "bfloat16":
        ml_dtypes = pytest.importorskip("ml_dtypes", reason="bfloat16 arrays need ml_dtypes")
        np_dtype = ml_dtypes.bfloat16
    else:
        np_dtype = dtype
    wide = np.random.default_rng(2).standard_normal((1, 2, 64)) * 100 + 1000
    x = wide.astype(np_dtype)
    ones, zeros = np.ones(2, np_dtype), np.zeros(2, np_dtype)
    params = [_var("x", x.shape, dtype), _var("g", (2,), dtype), _var("b", (2,), dtype)]
    exact = x.astype("float64")
    want = (exact - exact.mean(2, keepdims=True)) / np.sqrt(exact.var(2, keepdims=True) + 1e-5)
    for make in (
        lambda v, g, b: relax.op.nn.instance_norm(v, g, b, channel_axis=1, axes=[2]),
        lambda v, g, b: relax.op.nn.group_norm(v, g, b, 2, channel_axis=1, axes=[2]),
    ):
        _, got = _run(params, make, x, ones, zeros)
        assert str(got.dtype) == dtype
        np.testing.assert_allclose(got.astype("float64"), want, atol=0.03)


def test_batch_flatten_and_pixel_shuffle():
    x = np.arange(2 * 8 * 2 * 3, dtype="float32").reshape(2, 8, 2, 3)
    sinfo, got = _run([_var("x", x.shape)], relax.op.nn.batch_flatten, x)
    assert [int(v) for v in sinfo.shape] == [2, 48]
    np.testing.assert_array_equal(got, x.reshape(2, -1))
    sinfo, got = _run([_var("x", x.shape)], lambda v: relax.op.nn.pixel_shuffle(v, 2), x)
    want = x.reshape(2, 2, 2, 2, 2, 3).transpose(0, 1, 4, 2, 5, 3).reshape(2, 2, 4, 6)
    assert [int(v) for v in sinfo.shape] == [2, 2, 4, 6]
    np.testing.assert_array_equal(got, want)


def test_symbolic_width_is_inferred():
    w = tir.Var("w", "int64")
    bb = relax.BlockBuilder()
    x = _var("x", (1, 2, w))
    with bb.function("main", [x]):
        out = bb.emit(relax.op.nn.max_pool1d(x, 3, 2))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    data = np.random.default_rng(2).standard_normal((1, 2, 9)).astype("float32")
    got = vm["main"](tvm.runtime.tensor(data)).numpy()
    np.testing.assert_allclose(got, _pool_ref(data, 3, 2, (0, 0), 1, "max"))


def test_bad_input_is_named():
    bb = relax.BlockBuilder()
    x4, g = _var("x", (2, 3, 4, 5)), _var("g", (4,))
    with bb.function("main", [x4, g]):
        with pytest.raises(
            ValueError, match=r"nn.max_pool1d: data must be 3-D, got shape \(2, 3, 4, 5\)"
        ):
            bb.emit(relax.op.nn.max_pool1d(x4, 2))
        with pytest.raises(
            ValueError, match="nn.instance_norm: gamma has 4 entries but data has 3"
        ):
            bb.emit(relax.op.nn.instance_norm(x4, g, g, 1, [2, 3]))
        with pytest.raises(ValueError, match="nn.pixel_shuffle: the 3 channels of data"):
            bb.emit(relax.op.nn.pixel_shuffle(_var("p", (1, 3, 2, 2)), 2))
        bb.emit_func_output(x4)
    with pytest.raises(ValueError, match="nn.avg_pool1d: pool_size must be a positive int"):
        relax.op.nn.avg_pool1d(x4, pool_size=(2, 2))
    with pytest.raises(ValueError, match="nn.max_pool1d: layout must be one of"):
        relax.op.nn.max_pool1d(x4, 2, layout="NCHW")
