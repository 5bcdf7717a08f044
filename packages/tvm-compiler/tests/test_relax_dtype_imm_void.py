"""R.dtype("") parses to the void DataTypeImm, as upstream's VMShapeLower tests write it."""

import pytest
import tvm
from tvm import relax
from tvm.ir.dtype import DataType
from tvm.script import relax as R


def test_empty_dtype_is_void():
    dt = DataType("")
    assert dt == "void"
    assert dt.bits == 0
    assert dt == DataType("void")


def test_r_dtype_empty_parses():
    @R.function
    def f(x: R.Tensor((2,), "float32")):
        d = R.dtype("")  # noqa: F841
        return x

    binding = f.body.blocks[0].bindings[0]
    assert isinstance(binding.value, relax.DataTypeImm)
    assert tvm.ir.structural_equal(binding.value, relax.DataTypeImm("void"))
    # The unknown-dtype tensor check in VMShapeLower carries the same immediate.
    assert R.Tensor(ndim=1).dtype == binding.value.value
    reparsed = tvm.script.from_source(f.script())
    tvm.ir.assert_structural_equal(f, reparsed)


def test_bad_dtype_still_rejected():
    with pytest.raises(ValueError, match="DataType"):
        DataType("float")
    with pytest.raises(ValueError, match="DataType"):
        relax.DataTypeImm("notatype")


@pytest.mark.parametrize("exec_mode", ["bytecode", "compiled"])
def test_a_tensor_of_unknown_dtype_compiles_and_runs(exec_mode):
    # The VM is given DataTypeImm("void") for R.Tensor(ndim=1); tvm-ffi could not parse it
    import numpy as np

    @R.function
    def main(x: R.Tensor(ndim=1)):
        return x

    ex = tvm.compile(tvm.IRModule({"main": main}), target="llvm", exec_mode=exec_mode)
    vm = relax.VirtualMachine(ex, tvm.cpu())
    for dtype in ("float32", "int8"):
        x = np.arange(3, dtype=dtype)
        np.testing.assert_array_equal(vm["main"](tvm.runtime.tensor(x)).numpy(), x)
    with pytest.raises(ValueError, match="ndim"):
        vm["main"](tvm.runtime.tensor(np.zeros((2, 2), "float32")))
