# tvm.topi's eye/shape/size/windows, advanced indexing and writes, layout_transform, scanop,
# the fast_* and fixed-point math, tag, and the names re-exported as upstream.
import math

import numpy as np
import pytest
import tvm
from tvm import te, topi

RNG = np.random.default_rng(6)


def _run(inputs, outputs, arrays):
    outputs = outputs if isinstance(outputs, list) else [outputs]
    f = tvm.compile(te.create_prim_func([*inputs, *outputs]), target="llvm")
    outs = [np.zeros([int(s) for s in o.shape], o.dtype) for o in outputs]
    f(*[np.require(a, requirements="C") for a in arrays], *outs)
    return outs if len(outs) > 1 else outs[0]


A = te.placeholder((2, 3, 4), name="A")
X = RNG.standard_normal((2, 3, 4)).astype("float32")


@pytest.mark.parametrize(("n", "m", "k"), [(3, None, 0), (3, 5, 2), (4, 2, -1)])
def test_eye(n, m, k):
    np.testing.assert_array_equal(
        _run([], topi.eye(n, m, k, "int32"), []), np.eye(n, m, k, dtype="int32")
    )
    with pytest.raises(ValueError, match=r"topi\.eye: argument 'n'"):
        topi.eye(-1)


def test_shape_tensor_size_const_vector_hamming():
    np.testing.assert_array_equal(_run([A], topi.shape(A, "int64"), [X]), [2, 3, 4])
    assert _run([A], topi.tensor_size(A), [X]) == 24
    v = np.array([3, -1, 7], "int32")
    np.testing.assert_array_equal(_run([], topi.const_vector(v), []), v)
    for periodic in (True, False):
        got = _run([], topi.hamming_window(6, periodic, 0.54, 0.46, "float32"), [])
        n = 6 if periodic else 5
        want = 0.54 - 0.46 * np.cos(2 * np.pi * np.arange(6) / n)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_index_tensor_and_adv_index():
    i0 = te.placeholder((2, 1), "int32", name="I0")
    i1 = te.placeholder((3,), "int32", name="I1")
    a0 = np.array([[1], [-2]], "int32")
    a1 = np.array([0, 2, 1], "int32")
    got = _run([A, i0, i1], topi.index_tensor(A, [i0, i1]), [X, a0, a1])
    np.testing.assert_array_equal(got, X[a0, a1])
    got = _run([A, i1], topi.adv_index(A, [i1]), [X, np.array([1, 0, 1], "int32")])
    np.testing.assert_array_equal(got, X[[1, 0, 1]])
    with pytest.raises(TypeError, match=r"topi\.index_tensor: the index tensors must be integers"):
        topi.index_tensor(A, [te.placeholder((2,))])
    with pytest.raises(ValueError, match=r"topi\.index_tensor: 4 index tensors"):
        topi.index_tensor(A, [i1] * 4)


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put(accumulate):
    i0 = te.placeholder((3,), "int32", name="I0")
    i1 = te.placeholder((3,), "int32", name="I1")
    vals = te.placeholder((3, 4), name="V")
    a0, a1 = np.array([0, 1, 0], "int32"), np.array([2, 0, 2], "int32")
    v = RNG.standard_normal((3, 4)).astype("float32")
    got = _run([A, i0, i1, vals], topi.index_put(A, [i0, i1], vals, accumulate), [X, a0, a1, v])
    want = X.copy()
    if accumulate:
        np.add.at(want, (a0, a1), v)
    else:
        for n in range(3):
            want[a0[n], a1[n]] = v[n]
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_strided_set_and_slice_scatter():
    begin, end, strides = (te.placeholder((3,), "int32", name=n) for n in ("B", "E", "S"))
    v = te.placeholder((2, 1, 2), name="V")
    val = RNG.standard_normal((2, 1, 2)).astype("float32")
    b, e, s = (np.array(x, "int32") for x in ([0, 1, 3], [2, 2, -5], [1, 1, -2]))
    got = _run(
        [A, v, begin, end, strides], topi.strided_set(A, v, begin, end, strides), [X, val, b, e, s]
    )
    want = X.copy()
    want[0:2, 1:2, 3:-5:-2] = val
    np.testing.assert_array_equal(got, want)
    src = te.placeholder((2, 3, 2), name="SRC")
    sv = RNG.standard_normal((2, 3, 2)).astype("float32")
    (out,) = topi.slice_scatter(A, src, 1, 4, 2, 2)
    want = X.copy()
    want[:, :, 1:4:2] = sv
    np.testing.assert_array_equal(_run([A, src], out, [X, sv]), want)


def test_sparse_to_dense():
    idx = te.placeholder((2, 2), "int32", name="I")
    vals = te.placeholder((2,), name="V")
    got = _run(
        [idx, vals],
        topi.sparse_to_dense(idx, [3, 3], vals, 0.5),
        [np.array([[0, 0], [1, 2]], "int32"), np.array([3, 4], "float32")],
    )
    want = np.full((3, 3), 0.5, "float32")
    want[0, 0], want[1, 2] = 3, 4
    np.testing.assert_array_equal(got, want)
    idx1 = te.placeholder((2,), "int32", name="I1")
    v0 = te.placeholder((), name="V0")
    got = _run(
        [idx1, v0],
        topi.sparse_to_dense(idx1, [4], v0),
        [np.array([1, 3], "int32"), np.array(7, "float32")],
    )
    np.testing.assert_array_equal(got, [0, 7, 0, 7])


def test_expand_like_collapse_sum():
    a = te.placeholder((3,), name="A1")
    like = te.placeholder((3, 3, 2), name="L")
    x = RNG.standard_normal(3).astype("float32")
    got = _run([a, like], topi.expand_like(a, like, [1, 2]), [x, np.zeros((3, 3, 2), "float32")])
    np.testing.assert_array_equal(got, np.broadcast_to(x[:, None, None], (3, 3, 2)))
    got = _run([A], topi.collapse_sum(A, (3, 1)), [X])
    np.testing.assert_allclose(got, X.sum(0).sum(1, keepdims=True), rtol=1e-5)


@pytest.mark.parametrize(
    ("src", "dst", "shape", "to_np"),
    [
        ("NCHW", "NHWC", (1, 8, 2, 3), lambda x: x.transpose(0, 2, 3, 1)),
        (
            "NCHW",
            "NCHW4c",
            (1, 8, 2, 3),
            lambda x: x.reshape(1, 2, 4, 2, 3).transpose(0, 1, 3, 4, 2),
        ),
        (
            "NCHW4c",
            "NCHW",
            (1, 2, 2, 3, 4),
            lambda x: x.transpose(0, 1, 4, 2, 3).reshape(1, 8, 2, 3),
        ),
        (
            "NCHW4c",
            "NCHW2c",
            (1, 2, 2, 3, 4),
            lambda x: x.transpose(0, 1, 4, 2, 3).reshape(1, 4, 2, 2, 3).transpose(0, 1, 3, 4, 2),
        ),
    ],
)
def test_layout_transform(src, dst, shape, to_np):
    a = te.placeholder(shape, name="L")
    x = RNG.standard_normal(shape).astype("float32")
    np.testing.assert_array_equal(_run([a], topi.layout_transform(a, src, dst), [x]), to_np(x))


def test_layout_transform_errors():
    a = te.placeholder((1, 6, 2, 2), name="L")
    with pytest.raises(
        ValueError, match=r"topi\.layout_transform: axis C \(6\) does not split by 4"
    ):
        topi.layout_transform(a, "NCHW", "NCHW4c")
    with pytest.raises(ValueError, match=r"topi\.layout_transform: argument 'dst_layout'"):
        topi.layout_transform(a, "NCHW", "NC4h")
    with pytest.raises(ValueError, match=r"different axes"):
        topi.layout_transform(a, "NCHW", "NCHD")


def test_scanop_and_math():
    got = _run([A], topi.scanop(A, lambda a, b: a * b, 1.0, "cumprod_like", 1), [X])
    np.testing.assert_allclose(got, np.cumprod(X, 1), rtol=1e-5)
    for fn, ref in (
        (topi.fast_exp, np.exp),
        (topi.fast_tanh, np.tanh),
        (topi.fast_erf, np.vectorize(math.erf)),
    ):
        np.testing.assert_allclose(
            _run([A], fn(A), [X]), ref(X).astype("float32"), rtol=1e-5, atol=1e-6
        )
    i = te.placeholder((5,), "int32", name="I")
    x = np.array([1, 2, 3, 17, 1024], "int32")
    np.testing.assert_array_equal(
        _run([i], topi.ceil_log2(i), [x]), np.ceil(np.log2(x)).astype("int32")
    )


def test_fixed_point_multiply():
    i = te.placeholder((6,), "int32", name="I")
    x = np.array([100, -100, 7, -7, 12345, 0], "int32")
    multiplier, shift = 1 << 30, -1  # 0.5 * 2^-1 = 0.25
    got = _run([i], topi.fixed_point_multiply(i, multiplier, shift), [x])
    np.testing.assert_array_equal(got, np.floor(x * 0.25 + 0.5).astype("int32"))
    got = _run([i], topi.fixed_point_multiply(i, 1 << 30, 2), [x])  # 0.5 * 4 = 2
    np.testing.assert_array_equal(got, x * 2)


def test_tag_and_reexports():
    assert topi.tag.ELEMWISE == "elemwise" and topi.tag.is_injective("broadcast")
    assert not topi.tag.is_broadcast("injective")
    assert topi.pi == math.pi and topi.te is te and topi.floordiv is tvm.tir.floordiv
    assert issubclass(topi.InvalidShapeError, ValueError)


def test_dynamic_strided_slice_dyn_tile_div():
    b, e, s = (te.placeholder((3,), "int64", name=n) for n in ("B", "E", "S"))
    bv, ev, sv = (np.array(v, "int64") for v in ([0, 2, -1], [2, 0, -5], [1, -1, -2]))
    want = X[0:2, 2:0:-1, -1:-5:-2]
    c = topi.dynamic_strided_slice(A, b, e, s, list(want.shape))
    np.testing.assert_array_equal(_run([A, b, e, s], c, [X, bv, ev, sv]), want)
    with pytest.raises(ValueError, match=r"topi\.dynamic_strided_slice: argument 'output_shape'"):
        topi.dynamic_strided_slice(A, b, e, s, [2])
    t = topi.dyn_tile(A, [2, 4, 6, 8], 4)
    np.testing.assert_array_equal(_run([A], t, [X]), np.tile(X, (2, 2, 2, 2)))
    assert (
        str(topi.div(7, 2)) in ("3", "T.truncdiv(7, 2)")
        or int(tvm.arith.Analyzer().simplify(topi.div(7, 2))) == 3
    )
    assert int(tvm.arith.Analyzer().simplify(topi.div(7, 2))) == 3
    assert int(tvm.arith.Analyzer().simplify(topi.div(-7, 2))) == -3  # truncating, as C
    assert topi.div(tvm.tir.const(7.0), 2.0).dtype == "float32"
