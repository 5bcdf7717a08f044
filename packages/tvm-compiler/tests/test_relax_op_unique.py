# unique (flattened and along an axis): struct info (only the rank is known) and a compiled
# function on the VM whose result length follows the data, against np.unique.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax import op as R


def test_unique_struct_info():
    x = relax.Var("x", relax.TensorStructInfo([2, 3], "float32"))
    out = relax.BlockBuilder().normalize(R.unique(x))
    assert out.struct_info.ndim == 1 and out.struct_info.shape is None
    both = relax.BlockBuilder().normalize(R.unique(x, return_counts=True)).struct_info
    assert isinstance(both, relax.TupleStructInfo) and both.fields[1].dtype == "int64"
    by_rows = relax.BlockBuilder().normalize(R.unique(x, return_inverse=True, axis=-1))
    assert by_rows.struct_info.fields[0].ndim == 2 and by_rows.struct_info.fields[1].ndim == 1


def test_unique_axis_errors_name_the_op_and_the_argument():
    x = relax.Var("x", relax.TensorStructInfo([2, 3], "float32"))
    bb = relax.BlockBuilder()
    with pytest.raises(ValueError, match="unique: axis 2 is out of range for a tensor of 2"):
        bb.normalize(R.unique(x, axis=2))
    with pytest.raises(TypeError, match="unique: argument 'axis' must be an int or None"):
        R.unique(x, axis="0")
    scalar = relax.Var("s", relax.TensorStructInfo([], "float32"))
    with pytest.raises(ValueError, match="unique: argument 'x' is a scalar"):
        bb.normalize(R.unique(scalar, axis=0))


def _unique_vm(sinfo, **kwargs):
    x = relax.Var("x", sinfo)
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        bb.emit_func_output(bb.emit(R.unique(x, **kwargs)))
    return relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())


_FLAGS = {"return_index": True, "return_inverse": True, "return_counts": True}


@pytest.mark.parametrize(
    "shape, axis", [((5, 3), 0), ((4, 6), 1), ((3, 4, 2), 1), ((6,), 0), ((4, 3), -1)]
)
def test_unique_along_an_axis_matches_numpy(shape, axis):
    vm = _unique_vm(relax.TensorStructInfo(shape, "int32"), axis=axis, **_FLAGS)
    rng = np.random.default_rng(len(shape) * 10 + axis)
    for _ in range(3):
        data = rng.integers(0, 2, size=shape).astype("int32")
        got = [t.numpy() for t in vm["main"](tvm.runtime.tensor(data))]
        want = np.unique(data, axis=axis, **_FLAGS)
        np.testing.assert_array_equal(got[0], want[0])
        for g, w in zip(got[1:], want[1:]):
            np.testing.assert_array_equal(g, np.asarray(w).reshape(-1))


def test_unique_rows_of_a_symbolic_number_of_rows_in_both_orders():
    n = tvm.tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo((n, 3), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        rows = bb.emit(R.unique(x, return_counts=True, axis=0))
        in_order = bb.emit(R.unique(x, sorted=False, axis=0))
        bb.emit_func_output(relax.Tuple([rows, in_order]))
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    for count in (1, 4, 9):
        data = np.random.default_rng(count).integers(0, 2, size=(count, 3)).astype("float32")
        (values, counts), appearance = vm["main"](tvm.runtime.tensor(data))
        want_values, first, want_counts = np.unique(
            data, return_index=True, return_counts=True, axis=0
        )
        np.testing.assert_array_equal(values.numpy(), want_values)
        np.testing.assert_array_equal(counts.numpy(), want_counts)
        np.testing.assert_array_equal(appearance.numpy(), data[np.sort(first)])


@pytest.mark.parametrize("shape, axis", [((3, 0), 0), ((0, 3), 0), ((0,), None)])
def test_unique_of_empty_slices_and_empty_tensors(shape, axis):
    # a reduction over an empty range never ran its init: the count came out unset
    vm = _unique_vm(relax.TensorStructInfo(shape, "int32"), return_counts=True, axis=axis)
    data = np.zeros(shape, "int32")
    values, counts = (t.numpy() for t in vm["main"](tvm.runtime.tensor(data)))
    want_values, want_counts = np.unique(data, return_counts=True, axis=axis)
    assert values.shape == want_values.shape
    np.testing.assert_array_equal(counts, want_counts)


def test_unique_runs_on_the_vm_with_a_data_dependent_length():
    if not hasattr(relax, "VirtualMachine"):
        pytest.skip("the Relax VM is not in this build yet")
    x = relax.Var("x", relax.TensorStructInfo([2, 3], "int32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        full = bb.emit(R.unique(x, True, True, True, True))
        appearance = bb.emit(R.unique(x, sorted=False))
        bb.emit_func_output(relax.Tuple([full, appearance]))
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    for data in ([[2, 1, 1], [3, 4, 3]], [[5, 5, 5], [5, 5, 5]], [[9, 8, 7], [6, 5, 4]]):
        data = np.array(data, "int32")
        (values, first, inverse, counts), in_order = vm["main"](tvm.runtime.tensor(data))
        want = np.unique(data, return_index=True, return_inverse=True, return_counts=True)
        for got, ref in zip((values, first, inverse, counts), want):
            np.testing.assert_array_equal(got.numpy(), np.asarray(ref).reshape(-1))
        _, idx = np.unique(data, return_index=True)
        np.testing.assert_array_equal(in_order.numpy(), data.reshape(-1)[np.sort(idx)])


@pytest.mark.parametrize(
    "data, axis",
    [
        ([2.0, np.nan, 1.0, 1.0], None),
        ([np.nan, 3.0, np.nan, 1.0, 3.0, -0.0, 0.0], None),
        ([[np.nan, 1, 2], [0, -0.0, 1], [np.nan, 1, 2], [0, 0.0, 1]], 0),
        ([[1, np.nan], [1, 0], [1, np.nan]], 1),
    ],
)
def test_nan_elements_are_unique_values_as_numpy_counts_them(data, axis):
    # NaN compares unequal to everything: the values, indices and counts were garbled (a
    # value listed twice, counts summing to less than the size).
    data = np.array(data, "float32")
    vm = _unique_vm(relax.TensorStructInfo(data.shape, "float32"), axis=axis, **_FLAGS)
    got = [t.numpy() for t in vm["main"](tvm.runtime.tensor(data))]
    want = np.unique(data, axis=axis, **_FLAGS)
    np.testing.assert_array_equal(got[0], want[0])
    for g, w in zip(got[1:], want[1:]):
        np.testing.assert_array_equal(g, np.asarray(w).reshape(-1))
