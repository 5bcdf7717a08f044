# unique (flattened): struct info (only the rank is known) and a compiled function on the VM
# whose result length follows the data, against np.unique.
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
    with pytest.raises(NotImplementedError, match="unique: axis is not supported"):
        R.unique(x, axis=0)


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
