# sort, argsort, topk, scatter_elements and scatter_nd: struct info (errors name the op and the
# argument) and legalised PrimFuncs against NumPy.
import numpy as np
import pytest
from relax_eval import build_and_run
from tvm import relax, tir
from tvm.relax import op as R

RNG = np.random.default_rng(3)


def _v(shape, dtype="float32", name="x"):
    return relax.Var(name, relax.TensorStructInfo(shape, dtype))


def _sinfo(call):
    return relax.BlockBuilder().normalize(call).struct_info


def test_sort_argsort_topk_struct_info():
    n = tir.Var("n", "int64")
    assert str(_sinfo(R.sort(_v([n, 4])))) == str(_v([n, 4]).struct_info)
    assert _sinfo(R.argsort(_v([2, 3]), axis=0)).dtype == "int32"
    both = _sinfo(R.topk(_v([n, 6]), k=2, dtype="int64"))
    assert isinstance(both, relax.TupleStructInfo)
    assert [int(d) for d in both.fields[0].shape.values[1:]] == [2]
    assert both.fields[1].dtype == "int64"
    assert _sinfo(R.topk(_v([3, 6]), k=2, ret_type="indices")).dtype == "int32"
    with pytest.raises(ValueError, match="topk: k 7 is larger than the extent 6"):
        _sinfo(R.topk(_v([3, 6]), k=7))
    with pytest.raises(ValueError, match="sort: axis 2 is out of range"):
        _sinfo(R.sort(_v([3, 6]), axis=2))
    with pytest.raises(TypeError, match="argsort: dtype must be an integer dtype"):
        R.argsort(_v([3]), dtype="float32")
    with pytest.raises(ValueError, match="topk: ret_type must be"):
        R.topk(_v([3]), ret_type="all")


def test_sort_argsort_topk_match_numpy_with_ties():
    x = RNG.integers(0, 4, (4, 7)).astype("float32")  # many ties: the order must be stable

    def build(bb, x):
        return relax.Tuple(
            [
                bb.emit(R.sort(x)),
                bb.emit(R.sort(x, axis=0, descending=True)),
                bb.emit(R.argsort(x, axis=0)),
                bb.emit(R.topk(x, 3, largest=True, dtype="int64")),
                bb.emit(R.topk(x, 2, axis=0, ret_type="indices", largest=False)),
            ]
        )

    (s, sd, a, (tv, ti), small), _ = build_and_run(build, x)
    np.testing.assert_array_equal(s, np.sort(x, axis=-1))
    np.testing.assert_array_equal(sd, -np.sort(-x, axis=0))
    np.testing.assert_array_equal(a, np.argsort(x, axis=0, kind="stable"))
    ref = np.argsort(-x, axis=1, kind="stable")[:, :3]
    np.testing.assert_array_equal(ti, ref)
    np.testing.assert_array_equal(tv, np.take_along_axis(x, ref, 1))
    np.testing.assert_array_equal(small, np.argsort(x, axis=0, kind="stable")[:2])


def test_scatter_struct_info_errors():
    data, idx = _v([3, 4]), _v([2, 3], "int64", "i")
    assert str(_sinfo(R.scatter_elements(data, idx, _v([2, 3], name="u")))) == str(data.struct_info)
    with pytest.raises(ValueError, match=r"scatter_elements: updates of shape \(2, 2\)"):
        _sinfo(R.scatter_elements(data, idx, _v([2, 2], name="u")))
    with pytest.raises(TypeError, match="scatter_elements: indices must be an integer tensor"):
        _sinfo(R.scatter_elements(data, _v([2, 3]), _v([2, 3], name="u")))
    with pytest.raises(TypeError, match="scatter_elements: updates has dtype float16"):
        _sinfo(R.scatter_elements(data, idx, _v([2, 3], "float16", "u")))
    with pytest.raises(ValueError, match="scatter_elements: reduction must be one of"):
        R.scatter_elements(data, idx, idx, reduction="sub")
    with pytest.raises(ValueError, match=r"scatter_nd: updates of shape \(2,\) must have rank 2"):
        _sinfo(R.scatter_nd(data, _v([2, 1], "int64", "i"), _v([2], name="u")))
    with pytest.raises(ValueError, match="scatter_nd: the last axis of indices"):
        _sinfo(R.scatter_nd(data, _v([2, 3], "int64", "i"), _v([2], name="u")))


def _scatter_ref(data, idx, upd, axis, reduction):
    out = data.copy()
    hits = np.zeros(data.shape, "int64")
    for pos in np.ndindex(*idx.shape):
        target = list(pos)
        target[axis] = idx[pos] % data.shape[axis]
        target = tuple(target)
        if reduction == "update":
            out[target] = upd[pos]
        elif reduction in ("add", "mean"):
            out[target] += upd[pos]
        elif reduction == "mul":
            out[target] *= upd[pos]
        elif reduction == "max":
            out[target] = max(out[target], upd[pos])
        else:
            out[target] = min(out[target], upd[pos])
        hits[target] += 1
    return out / (hits + 1) if reduction == "mean" else out


@pytest.mark.parametrize("reduction", ["update", "add", "mul", "mean", "max", "min"])
def test_scatter_elements_matches_numpy(reduction):
    data = RNG.standard_normal((3, 5)).astype("float32")
    idx = np.array([[1, 0, 1], [4, -1, 2]], "int64")  # a duplicate and a negative index
    upd = RNG.standard_normal((2, 3)).astype("float32")

    def build(bb, d, i, u):
        return bb.emit(R.scatter_elements(d, i, u, axis=1, reduction=reduction))

    out, _ = build_and_run(build, data, idx, upd)
    np.testing.assert_allclose(out, _scatter_ref(data, idx, upd, 1, reduction), rtol=1e-6)


def test_scatter_nd_matches_numpy():
    data = RNG.standard_normal((4, 2, 3)).astype("float32")
    idx = np.array([[[1, 0], [3, 1]], [[1, 0], [0, 1]]], "int64")  # (1, 0) twice
    upd = RNG.standard_normal((2, 2, 3)).astype("float32")

    def build(bb, d, i, u):
        return relax.Tuple(
            [bb.emit(R.scatter_nd(d, i, u)), bb.emit(R.scatter_nd(d, i, u, reduction="add"))]
        )

    (out, added), _ = build_and_run(build, data, idx, upd)
    ref, ref_add = data.copy(), data.copy()
    for j in np.ndindex(2, 2):
        ref[tuple(idx[j])] = upd[j]
        ref_add[tuple(idx[j])] += upd[j]
    np.testing.assert_allclose(out, ref)
    np.testing.assert_allclose(added, ref_add, rtol=1e-6)


def test_topk_over_a_symbolic_axis_checks_k_at_run_time():
    # picks past the axis' end read outside data: an empty axis gave uninitialised memory
    import tvm

    n = tir.Var("n", "int64")
    bb = relax.BlockBuilder()
    x = _v([3, n])
    with bb.function("main", [x]):
        with bb.dataflow():
            out = bb.emit_output(R.topk(x, k=2, axis=1))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    data = RNG.random((3, 5), dtype="float32")
    values, indices = (o.numpy() for o in vm["main"](tvm.runtime.tensor(data)))
    np.testing.assert_array_equal(indices, np.argsort(-data, axis=1, kind="stable")[:, :2])
    np.testing.assert_array_equal(values, np.take_along_axis(data, indices, axis=1))
    for length in (0, 1):
        short = tvm.runtime.tensor(np.zeros((3, length), "float32"))
        with pytest.raises(ValueError, match="topk: k = 2 is larger than the extent of axis 1"):
            vm["main"](short)
