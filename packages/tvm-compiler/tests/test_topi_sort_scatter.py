# tvm.topi's sort, argsort, topk, searchsorted, scatter_elements and scatter_nd against NumPy.
import numpy as np
import pytest
import tvm
from tvm import te, topi

RNG = np.random.default_rng(3)


def _run(inputs, outputs, arrays):
    outputs = outputs if isinstance(outputs, list) else [outputs]
    f = tvm.compile(te.create_prim_func([*inputs, *outputs]), target="llvm")
    outs = [np.zeros([int(s) for s in o.shape], o.dtype) for o in outputs]
    f(*arrays, *outs)
    return outs if len(outs) > 1 else outs[0]


A = te.placeholder((3, 6), name="A")
X = RNG.integers(0, 4, (3, 6)).astype("float32")  # ties, to check stability


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("ascend", [True, False])
def test_sort_argsort(axis, ascend):
    want_idx = np.argsort(X if ascend else -X, axis, kind="stable")
    got = _run([A], topi.argsort(A, axis=axis, is_ascend=ascend, dtype="int32"), [X])
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, want_idx)
    want = np.take_along_axis(X, want_idx, axis)
    np.testing.assert_array_equal(_run([A], topi.sort(A, axis, ascend), [X]), want)


def test_argsort_default_dtype_and_errors():
    assert topi.argsort(A).dtype == "float32"
    with pytest.raises(ValueError, match=r"topi\.argsort: argument 'valid_count'"):
        topi.argsort(A, te.placeholder((3,), "int32"))
    with pytest.raises(ValueError, match=r"topi\.sort: argument 'axis'"):
        topi.sort(A, 2)
    with pytest.raises(TypeError, match=r"topi\.sort: argument 'data'"):
        topi.sort(X)


@pytest.mark.parametrize(("k", "ascend"), [(2, False), (3, True), (0, False)])
def test_topk(k, ascend):
    values, indices = topi.topk(A, k, 1, "both", ascend, "int32")
    order = np.argsort(X if ascend else -X, 1, kind="stable")[:, : (k if k >= 1 else 6)]
    got_v, got_i = _run([A], [values, indices], [X])
    np.testing.assert_array_equal(got_i, order)
    np.testing.assert_array_equal(got_v, np.take_along_axis(X, order, 1))
    assert topi.topk(A, k, 1, "indices").dtype == "int64"
    assert topi.topk(A, k, 1, "values").dtype == "float32"
    with pytest.raises(ValueError, match=r"topi\.topk: argument 'ret_type'"):
        topi.topk(A, k, 1, "all")
    with pytest.raises(ValueError, match=r"topi\.topk: argument 'k' = 7 exceeds"):
        topi.topk(A, 7, 1)


@pytest.mark.parametrize("right", [False, True])
def test_searchsorted(right):
    seq = te.placeholder((5,), name="S")
    vals = te.placeholder((2, 4), name="V")
    s = np.array([1, 2, 2, 4, 7], "float32")
    v = np.array([[0, 2, 3, 7], [8, 1, 2, 4.5]], "float32")
    got = _run([seq, vals], topi.searchsorted(seq, vals, right), [s, v])
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, np.searchsorted(s, v, "right" if right else "left"))
    seq2 = te.placeholder((2, 5), name="S2")
    s2 = np.sort(RNG.standard_normal((2, 5)).astype("float32"), 1)
    got2 = _run([seq2, vals], topi.searchsorted(seq2, vals, right, "int32"), [s2, v])
    side = "right" if right else "left"
    np.testing.assert_array_equal(got2, [np.searchsorted(s2[b], v[b], side) for b in range(2)])
    with pytest.raises(ValueError, match=r"topi\.searchsorted: a 2-D sorted_sequence"):
        topi.searchsorted(seq2, te.placeholder((4,)))


def _scatter_elements_ref(x, idx, upd, axis, reduction):
    out = x.copy()
    hits = {}
    for pos in np.ndindex(idx.shape):
        target = list(pos)
        target[axis] = idx[pos] % x.shape[axis]
        target = tuple(target)
        hits.setdefault(target, []).append(upd[pos])
    for target, vs in hits.items():
        if reduction == "update":
            out[target] = vs[-1]
        elif reduction == "add":
            out[target] += sum(vs)
        elif reduction == "mul":
            out[target] *= np.prod(vs)
        elif reduction == "mean":
            out[target] = (out[target] + sum(vs)) / (len(vs) + 1)
        elif reduction == "max":
            out[target] = max(out[target], *vs)
        else:
            out[target] = min(out[target], *vs)
    return out


@pytest.mark.parametrize("reduction", ["update", "add", "mul", "mean", "min", "max"])
def test_scatter_elements(reduction):
    idx = te.placeholder((2, 4), "int32", name="I")
    upd = te.placeholder((2, 4), name="U")
    i = np.array([[0, 5, -1, 2], [3, 3, 0, -6]], "int32")
    u = RNG.standard_normal((2, 4)).astype("float32")
    x = RNG.standard_normal((3, 6)).astype("float32")
    got = _run([A, idx, upd], topi.scatter_elements(A, idx, upd, 1, reduction), [x, i, u])
    want = _scatter_elements_ref(x, i, u, 1, reduction)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_scatter_elements_errors():
    idx = te.placeholder((2, 4), "int32", name="I")
    with pytest.raises(ValueError, match=r"topi\.scatter_elements: argument 'reduction'"):
        topi.scatter_elements(A, idx, idx, 0, "sub")
    with pytest.raises(ValueError, match=r"topi\.scatter_elements: argument 'axis'"):
        topi.scatter_elements(A, idx, A, 2)
    with pytest.raises(TypeError, match=r"topi\.scatter_elements: argument 'updates'"):
        topi.scatter_elements(A, idx, X)


@pytest.mark.parametrize("mode", ["update", "add", "mul", "min", "max"])
def test_scatter_nd(mode):
    # indices (M=2, Y=3): coordinates of data's first two axes; updates (Y=3,)
    idx = te.placeholder((2, 3), "int32", name="I")
    upd = te.placeholder((3,), name="U")
    i = np.array([[0, 2, 0], [1, 5, 1]], "int32")
    u = np.array([2.0, -3.0, 4.0], "float32")
    x = RNG.standard_normal((3, 6)).astype("float32")
    got = _run([A, idx, upd], topi.scatter_nd(A, idx, upd, mode), [x, i, u])
    want = x.copy()
    fold = {"add": np.add, "mul": np.multiply, "min": np.minimum, "max": np.maximum}
    for n in range(3):
        at = (i[0, n], i[1, n])
        want[at] = u[n] if mode == "update" else fold[mode](want[at], u[n])
    np.testing.assert_allclose(got, want, rtol=1e-6)
    with pytest.raises(ValueError, match=r"topi\.scatter_nd: argument 'mode'"):
        topi.scatter_nd(A, idx, upd, "mean")
    with pytest.raises(ValueError, match=r"topi\.scatter_nd: indices address 3 axes"):
        topi.scatter_nd(A, te.placeholder((3, 2), "int32"), upd, "add")
