# tvm.topi's transforms (stack, tile, repeat, flip, gather, one_hot, trilu, meshgrid, masks,
# sliding_window, unravel_index, matmul, tensordot) and reductions against NumPy.
import numpy as np
import pytest
import tvm
from tvm import te, topi

RNG = np.random.default_rng(2)


def _run(inputs, outputs, arrays):
    outputs = outputs if isinstance(outputs, list) else [outputs]
    f = tvm.compile(te.create_prim_func([*inputs, *outputs]), target="llvm")
    outs = [np.zeros([int(s) for s in o.shape], o.dtype) for o in outputs]
    f(*arrays, *outs)
    return outs if len(outs) > 1 else outs[0]


def _shape(t):
    return [int(s) for s in t.shape]


A = te.placeholder((2, 3, 4), name="A")
X = RNG.standard_normal((2, 3, 4)).astype("float32")


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_stack(axis):
    b = te.placeholder((2, 3, 4), name="B")
    y = RNG.standard_normal((2, 3, 4)).astype("float32")
    c = topi.stack([A, b], axis)
    np.testing.assert_array_equal(_run([A, b], c, [X, y]), np.stack([X, y], axis))
    with pytest.raises(ValueError, match=r"topi\.stack: argument 'axis'"):
        topi.stack([A, b], 4)
    with pytest.raises(TypeError, match=r"topi\.stack: argument 'tensors'"):
        topi.stack([], 0)


@pytest.mark.parametrize("reps", [(2, 1, 1, 3), (2,), (1, 2, 1)])
def test_tile(reps):
    np.testing.assert_array_equal(_run([A], topi.tile(A, reps), [X]), np.tile(X, reps))


def test_tile_repeat_flip_errors():
    with pytest.raises(ValueError, match=r"topi\.tile: argument 'reps'"):
        topi.tile(A, (0, 1))
    with pytest.raises(ValueError, match=r"topi\.repeat: argument 'repeats'"):
        topi.repeat(A, 0, 1)
    with pytest.raises(ValueError, match=r"topi\.repeat: argument 'axis'"):
        topi.repeat(A, 2, 3)
    with pytest.raises(ValueError, match=r"topi\.flip: argument 'axis'"):
        topi.flip(A, 3)
    with pytest.raises(TypeError, match=r"topi\.flip: argument 'a'"):
        topi.flip(X, 0)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_repeat_flip(axis):
    np.testing.assert_array_equal(_run([A], topi.repeat(A, 3, axis), [X]), np.repeat(X, 3, axis))
    if axis is not None:
        np.testing.assert_array_equal(_run([A], topi.flip(A, axis), [X]), np.flip(X, axis))


def test_gather():
    idx = te.placeholder((2, 2, 4), "int32", name="I")
    i = RNG.integers(-3, 3, (2, 2, 4)).astype("int32")
    want = np.take_along_axis(X, np.where(i < 0, i + 3, i), 1)
    np.testing.assert_array_equal(_run([A, idx], topi.gather(A, 1, idx), [X, i]), want)
    with pytest.raises(ValueError, match=r"topi\.gather: argument 'indices' must have"):
        topi.gather(A, 1, te.placeholder((2, 2), "int32"))


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_one_hot(axis):
    idx = te.placeholder((2, 3), "int32", name="I")
    i = np.array([[0, 2, 4], [1, 5, -1]], "int32")
    c = topi.one_hot(idx, 2.0, -1.0, 5, axis, "float32")
    eye = np.where(np.arange(5) == i[..., None], 2.0, -1.0).astype("float32")
    np.testing.assert_array_equal(_run([idx], c, [i]), np.moveaxis(eye, -1, axis))
    with pytest.raises(ValueError, match=r"topi\.one_hot: argument 'depth'"):
        topi.one_hot(idx, 1.0, 0.0, 0, -1, "float32")
    with pytest.raises(ValueError, match=r"topi\.one_hot: argument 'axis'"):
        topi.one_hot(idx, 1.0, 0.0, 5, 3, "float32")


@pytest.mark.parametrize("k", [-1, 0, 2])
def test_trilu(k):
    np.testing.assert_array_equal(_run([A], topi.trilu(A, k, True), [X]), np.triu(X, k))
    np.testing.assert_array_equal(_run([A], topi.trilu(A, k, False), [X]), np.tril(X, k))


def test_trilu_errors():
    with pytest.raises(ValueError, match=r"topi\.trilu: argument 'data'"):
        topi.trilu(te.placeholder((3,)), 0, True)
    with pytest.raises(TypeError, match=r"topi\.trilu: argument 'k'"):
        topi.trilu(A, 1.5, True)


@pytest.mark.parametrize("indexing", ["ij", "xy"])
def test_meshgrid(indexing):
    a, b, c = (te.placeholder((n,), name=f"M{n}") for n in (3, 4, 2))
    xs = [RNG.standard_normal(n).astype("float32") for n in (3, 4, 2)]
    grids = topi.meshgrid([a, b, c], indexing)
    got = _run([a, b, c], grids, xs)
    for g, w in zip(got, np.meshgrid(*xs, indexing=indexing)):
        np.testing.assert_array_equal(g, w)
    with pytest.raises(ValueError, match=r"topi\.meshgrid: argument 'indexing'"):
        topi.meshgrid([a], "ji")


@pytest.mark.parametrize("axis", [0, 1])
def test_sequence_mask(axis):
    lengths = te.placeholder((3,) if axis == 0 else (2,), "int32", name="L")
    ln = np.array([1, 0, 2], "int32") if axis == 0 else np.array([3, 1], "int32")
    d = te.placeholder((2, 3, 4) if axis == 0 else (2, 3, 4), name="D")
    got = _run([d, lengths], topi.sequence_mask(d, lengths, -1.0, axis), [X, ln])
    want = X.copy()
    for step in range(X.shape[axis]):
        for b in range(X.shape[1 - axis]):
            if step >= ln[b]:
                want[(step, b) if axis == 0 else (b, step)] = -1.0
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match=r"topi\.sequence_mask: argument 'axis'"):
        topi.sequence_mask(d, lengths, 0, 2)


def test_reverse_sequence():
    lengths = te.placeholder((2,), "int32", name="L")
    ln = np.array([2, 9], "int32")
    got = _run([A, lengths], topi.reverse_sequence(A, lengths, 2, 0), [X, ln])
    want = X.copy()
    want[0, :, :2] = X[0, :, :2][:, ::-1]
    want[1] = X[1, :, ::-1]
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match=r"topi\.reverse_sequence: seq_axis and batch_axis"):
        topi.reverse_sequence(A, lengths, 0, 0)


def test_unravel_index():
    idx = te.placeholder((4,), "int32", name="I")
    shp = te.placeholder((3,), "int32", name="S")
    i = np.array([0, 7, 13, 23], "int32")
    s = np.array([2, 3, 4], "int32")
    got = _run([idx, shp], topi.unravel_index(idx, shp), [i, s])
    np.testing.assert_array_equal(got, np.stack(np.unravel_index(i, (2, 3, 4))))
    scalar = te.placeholder((), "int32", name="I0")
    got0 = _run([scalar, shp], topi.unravel_index(scalar, shp), [np.array(17, "int32"), s])
    np.testing.assert_array_equal(got0, np.unravel_index(17, (2, 3, 4)))


def _set_diag_reference(x, diag, k, align):
    out = x.copy()
    rows, cols = x.shape[-2:]
    low, high = (k, k) if isinstance(k, int) else k
    max_len = diag.shape[-1]
    for d in range(low, high + 1):
        length = min(rows + min(d, 0), cols - max(d, 0))
        right = align.split("_")[0 if d >= 0 else 1] == "RIGHT"
        pad = max_len - length if right else 0
        for p in range(length):
            r, c = p - min(d, 0), p + max(d, 0)
            out[..., r, c] = diag[..., p] if low == high else diag[..., high - d, p + pad]
    return out


@pytest.mark.parametrize(
    ("k", "align"),
    [
        (0, "RIGHT_LEFT"),
        (1, "RIGHT_LEFT"),
        ((-1, 1), "RIGHT_LEFT"),
        ((-1, 1), "LEFT_RIGHT"),
        ((0, 2), "LEFT_LEFT"),
    ],
)
def test_matrix_set_diag(k, align):
    low, high = (k, k) if isinstance(k, int) else k
    max_len = max(min(3 + min(d, 0), 4 - max(d, 0)) for d in range(low, high + 1))
    dshape = (2, max_len) if low == high else (2, high - low + 1, max_len)
    diag = te.placeholder(dshape, name="G")
    g = RNG.standard_normal(dshape).astype("float32")
    got = _run([A, diag], topi.matrix_set_diag(A, diag, k, align), [X, g])
    np.testing.assert_array_equal(got, _set_diag_reference(X, g, k, align))
    with pytest.raises(ValueError, match=r"topi\.matrix_set_diag: argument 'align'"):
        topi.matrix_set_diag(A, diag, k, "UP_DOWN")


def test_sliding_window():
    c = topi.sliding_window(A, 1, [2, 2], [1, 2])
    assert _shape(c) == [2, 2, 2, 2, 2]
    want = np.lib.stride_tricks.sliding_window_view(X, (2, 2), axis=(1, 2))[:, ::1, ::2]
    np.testing.assert_array_equal(_run([A], c, [X]), want)
    with pytest.raises(ValueError, match=r"topi\.sliding_window: arguments 'window_shape'"):
        topi.sliding_window(A, 1, [2], [1])
    with pytest.raises(ValueError, match=r"topi\.sliding_window: window 5 is larger"):
        topi.sliding_window(A, 2, [5], [1])


@pytest.mark.parametrize(("ta", "tb"), [(False, False), (True, False), (False, True), (True, True)])
def test_matmul(ta, tb):
    a = te.placeholder((3, 2) if ta else (2, 3), name="MA")
    b = te.placeholder((4, 3) if tb else (3, 4), name="MB")
    x = RNG.standard_normal(_shape(a)).astype("float32")
    y = RNG.standard_normal(_shape(b)).astype("float32")
    want = (x.T if ta else x) @ (y.T if tb else y)
    np.testing.assert_allclose(_run([a, b], topi.matmul(a, b, ta, tb), [x, y]), want, rtol=1e-5)
    with pytest.raises(ValueError, match=r"topi\.matmul: argument 'a' must be 2-D"):
        topi.matmul(A, b)
    with pytest.raises(ValueError, match=r"topi\.matmul: the reduced extents differ"):
        topi.matmul(a, b, not ta, tb)


@pytest.mark.parametrize(
    ("axes", "b_shape"),
    [(2, (3, 4, 5)), (((1, 2), (1, 0)), (4, 3, 5)), (0, (2, 2)), (([0], [2]), (3, 1, 2))],
)
def test_tensordot(axes, b_shape):
    b = te.placeholder(b_shape, name="TB")
    y = RNG.standard_normal(b_shape).astype("float32")
    want = np.tensordot(X, y, axes)
    got = _run([A, b], topi.tensordot(A, b, axes), [X, y])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_tensordot_errors():
    with pytest.raises(ValueError, match=r"topi\.tensordot: axis 2 of a \(4\) and axis 0"):
        topi.tensordot(A, te.placeholder((5, 2)), ((2,), (0,)))
    with pytest.raises(ValueError, match=r"topi\.tensordot: argument 'axes' pairs"):
        topi.tensordot(A, te.placeholder((4, 2)), ((1, 2), (0,)))


@pytest.mark.parametrize(("axis", "keepdims"), [(None, False), (1, True), ((0, 2), False)])
def test_prod_all_any(axis, keepdims):
    np.testing.assert_allclose(
        _run([A], topi.prod(A, axis, keepdims), [X]), np.prod(X, axis, keepdims=keepdims), rtol=1e-5
    )
    m = te.placeholder((2, 3, 4), "bool", name="M")
    v = RNG.random((2, 3, 4)) > 0.3
    np.testing.assert_array_equal(
        _run([m], topi.all(m, axis, keepdims), [v]), np.all(v, axis, keepdims=keepdims)
    )
    np.testing.assert_array_equal(
        _run([m], topi.any(m, axis, keepdims), [v]), np.any(v, axis, keepdims=keepdims)
    )
    with pytest.raises(TypeError, match=r"topi\.all: argument 'data' must be a bool"):
        topi.all(A)


@pytest.mark.parametrize("last", [False, True])
def test_argmin_argmax_ties(last):
    a = te.placeholder((2, 5), name="T")
    x = np.array([[1, 3, 3, 0, 0], [2, 2, 5, 5, 1]], "float32")
    amax = _run([a], topi.argmax(a, 1, False, last), [x])
    amin = _run([a], topi.argmin(a, 1, True, last), [x])
    assert amax.dtype == np.int32 and amin.dtype == np.int32
    np.testing.assert_array_equal(amax, [2, 3] if last else [1, 2])
    np.testing.assert_array_equal(amin, [[4], [4]] if last else [[3], [4]])
    np.testing.assert_array_equal(_run([a], topi.argmin(a), [x]), np.argmin(x))


def test_get_const_tuple():
    n = te.var("n")
    assert topi.get_const_tuple(A.shape) == (2, 3, 4)
    got = topi.get_const_tuple(te.placeholder((n, 3)).shape)
    assert got[1] == 3 and got[0].same_as(n)
    assert topi.utils.get_const_int(A.shape[1] * 2) == 6
    with pytest.raises(ValueError, match="get_const_int"):
        topi.utils.get_const_int(n)
