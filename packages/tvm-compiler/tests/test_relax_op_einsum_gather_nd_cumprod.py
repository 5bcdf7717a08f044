# relax.op.einsum, gather_nd and cumprod (and topi's einsum, gather_nd, cumsum, cumprod):
# struct info with symbolic shapes, bad input, and values against NumPy.
import numpy as np
import pytest
import tvm
from tvm import relax, te, tir, topi


def _run(params, make, *arrays):
    bb = relax.BlockBuilder()
    with bb.function("main", params):
        out = bb.emit(make(*params))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    return out.struct_info, vm["main"](*[tvm.runtime.tensor(a) for a in arrays]).numpy()


def _var(name, shape, dtype="float32"):
    return relax.Var(name, relax.TensorStructInfo(shape, dtype))


@pytest.mark.parametrize(
    ("subscripts", "shapes"),
    [
        ("ij,jk->ik", [(3, 4), (4, 5)]),
        ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
        ("ii->i", [(4, 4)]),
        ("ij->", [(3, 4)]),
        ("i,j", [(3,), (4,)]),
        ("ij,j->i", [(3, 1), (5,)]),
    ],
)
def test_einsum_matches_numpy(subscripts, shapes):
    rng = np.random.default_rng(1)
    arrays = [rng.standard_normal(s).astype("float32") for s in shapes]
    params = [_var(f"x{k}", s) for k, s in enumerate(shapes)]
    sinfo, got = _run(params, lambda *xs: relax.op.einsum(list(xs), subscripts), *arrays)
    want = (
        np.einsum(subscripts, *[np.broadcast_to(a, a.shape) for a in arrays])
        if subscripts != "ij,j->i"
        else (arrays[0] * arrays[1]).sum(1)
    )
    assert [int(d) for d in sinfo.shape] == list(want.shape)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_einsum_symbolic_shape_and_errors():
    n = tir.Var("n", "int64")
    x, y = _var("x", (n, 4)), _var("y", (4, 6))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, y]):
        out = bb.emit(relax.op.einsum((x, y), "ij,jk->ik"))
        assert out.struct_info.shape[0].same_as(n) and int(out.struct_info.shape[1]) == 6
        with pytest.raises(ValueError, match="einsum: letter 'j' of 'ij,kj->ik' has extents 4"):
            bb.emit(relax.op.einsum((x, y), "ij,kj->ik"))
        with pytest.raises(ValueError, match="einsum: 'ij' names 1 operands, got 2"):
            bb.emit(relax.op.einsum((x, y), "ij"))
        with pytest.raises(TypeError, match="einsum: subscripts must be a str"):
            relax.op.einsum((x, y), 3)
        bb.emit_func_output(out)


def test_gather_nd_with_batch_dims_and_negative_indices():
    data = np.arange(24, dtype="float32").reshape(2, 3, 4)
    index = np.array([[[1], [-1]], [[0], [2]]], "int64")  # batch_dims=1: per batch, rows
    sinfo, got = _run(
        [_var("d", (2, 3, 4)), _var("i", (2, 2, 1), "int64")],
        lambda d, i: relax.op.gather_nd(d, i, batch_dims=1),
        data,
        index,
    )
    want = np.stack([data[b][index[b, :, 0]] for b in range(2)])
    assert [int(d) for d in sinfo.shape] == [2, 2, 4]
    np.testing.assert_array_equal(got, want)
    pairs = np.array([[0, 1, 2], [1, 2, 3]], "int32")
    _, got = _run(
        [_var("d", (2, 3, 4)), _var("i", (2, 3), "int32")], relax.op.gather_nd, data, pairs
    )
    np.testing.assert_array_equal(got, data[tuple(pairs.T)])


def test_gather_nd_bad_input():
    bb = relax.BlockBuilder()
    d, i, f = _var("d", (2, 3)), _var("i", (4, 3), "int64"), _var("f", (4, 1))
    with bb.function("main", [d, i, f]):
        with pytest.raises(ValueError, match="gather_nd: batch_dims 0 with index depth 3"):
            bb.emit(relax.op.gather_nd(d, i))
        with pytest.raises(TypeError, match="gather_nd: indices must be an integer tensor"):
            bb.emit(relax.op.gather_nd(d, f))
        bb.emit_func_output(d)


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_cumprod_and_cumsum(axis, exclusive):
    data = np.array([[1, 2, 3], [4, -1, 2]], "float32")
    sinfo, got = _run(
        [_var("x", (2, 3))],
        lambda x: relax.op.cumprod(x, axis=axis, exclusive=exclusive),
        data,
    )
    flat = data.reshape(-1) if axis is None else data
    ax = 0 if axis is None else axis
    want = np.cumprod(flat, axis=ax)
    if exclusive:
        want = np.cumprod(np.concatenate([np.ones_like(np.take(flat, [0], ax)), flat], ax), axis=ax)
        want = np.take(want, range(flat.shape[ax]), ax)
    np.testing.assert_allclose(got, want)
    assert sinfo.ndim == (1 if axis is None else 2)


def test_cumsum_into_a_wider_dtype():
    data = np.array([100, 100, 100], "int8")
    _, got = _run([_var("x", (3,), "int8")], lambda x: relax.op.cumsum(x, 0, "int32"), data)
    np.testing.assert_array_equal(got, [100, 200, 300])


def test_topi_functions_name_their_bad_arguments():
    with pytest.raises(TypeError, match="topi.cumprod: argument 'data' must be a te.Tensor"):
        topi.cumprod(np.zeros(3))
    with pytest.raises(ValueError, match="topi.cumsum: axis 3 is out of range"):
        topi.cumsum(te.placeholder((2, 2)), axis=3)
    with pytest.raises(ValueError, match="topi.einsum: an ellipsis"):
        topi.einsum("...i->i", te.placeholder((2, 2)))
    with pytest.raises(
        ValueError, match="topi.gather_nd: the last extent of indices must be static"
    ):
        topi.gather_nd(te.placeholder((2, 2)), te.placeholder((3, te.var("k")), "int32"))


def test_out_of_range_indices_read_the_nearest_element_not_outside_memory():
    # An index far outside the data once read (and crashed on) memory beyond the tensor.
    data = np.arange(4, dtype="float32")
    far = 10**12
    _, got = _run(
        [_var("d", (4,)), _var("i", (3,), "int64")],
        relax.op.gather_elements,
        data,
        np.array([1, far, -far], "int64"),
    )
    np.testing.assert_array_equal(got, [1, 3, 0])
    _, got = _run(
        [_var("d", (4,)), _var("i", (3, 1), "int64")],
        relax.op.gather_nd,
        data,
        np.array([[-1], [far], [-far]], "int64"),
    )
    np.testing.assert_array_equal(got, [3, 3, 0])


def _legalized_prim_func(make, data_shape, index_shape):
    bb = relax.BlockBuilder()
    d = _var("d", data_shape)
    i = _var("i", index_shape, "int64")
    with bb.function("main", [d, i]):
        bb.emit_func_output(bb.emit(make(d, i)))
    mod = relax.transform.LegalizeOps()(bb.get())
    return next(f for _, f in mod.items() if isinstance(f, tir.PrimFunc))


@pytest.mark.parametrize(
    "make, out_shape",
    [
        (lambda d, i: relax.op.take(d, i, axis=1), (3, 3, 1)),
        (lambda d, i: relax.op.take(d, i, axis=1, mode="wrap"), (3, 3, 1)),
        (lambda d, i: relax.op.gather_elements(d, i, axis=1), (3, 1)),
        (lambda d, i: relax.op.gather_nd(d, i, batch_dims=1), (3,)),
    ],
    ids=["take", "take_wrap", "gather_elements", "gather_nd"],
)
def test_an_index_into_an_empty_axis_reads_zero_not_memory_outside(make, out_shape):
    # Clamping into [0, extent) cannot help an axis of extent 0: the kernel read element 0 of
    # an empty tensor. A zero-size NumPy view keeps its parent's data pointer, so such a read
    # shows the parent's 7s.
    n = tir.Var("n", "int64")
    func = _legalized_prim_func(make, (3, n), (3, 1))
    parent = np.full((3, 4), 7.0, "float32")
    out = np.ones(out_shape, "float32")
    tvm.compile(func)(parent[:, :0], np.array([[0], [2], [-1]], "int64"), out)
    np.testing.assert_array_equal(out, np.zeros(out_shape, "float32"))


def test_topi_gather_nd_and_take_of_an_empty_axis_read_zero():
    n = te.var("n", "int64")
    a = te.placeholder((n, 3), "float32", name="A")
    parent = np.full((4, 3), 7.0, "float32")
    i2 = te.placeholder((2, 1), "int64", name="I")
    i1 = te.placeholder((2,), "int64", name="J")
    for idx_t, out_t, idx in [
        (i2, topi.gather_nd(a, i2), np.array([[0], [5]], "int64")),
        (i1, topi.take(a, i1, 0), np.array([0, 5], "int64")),
    ]:
        out = np.ones((2, 3), "float32")
        tvm.compile(te.create_prim_func([a, idx_t, out_t]))(parent[:0], idx, out)
        np.testing.assert_array_equal(out, np.zeros((2, 3), "float32"))
