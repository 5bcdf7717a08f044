# relax.op.builtin / relax.op.memory: upstream's constructors of the allocation ops the memory
# passes emit, so planned modules can be written in TVMScript and compared to what they make.
import pytest
import tvm
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


def test_constructors_build_the_calls_the_passes_emit():
    shape = relax.ShapeExpr([2, 3])
    a = relax.op.builtin.alloc_tensor(shape, "float32", 0)
    assert a.op.name == "relax.builtin.alloc_tensor"
    assert [type(x).__name__ for x in a.args] == [
        "ShapeExpr",
        "DataTypeImm",
        "PrimValue",
        "StringImm",
    ]
    a = relax.BlockBuilder().normalize(a)
    assert a.struct_info.dtype == "float32" and [int(d) for d in a.struct_info.shape] == [2, 3]
    s = relax.op.memory.alloc_storage(relax.ShapeExpr([24]), 0, "global", "float32")
    assert isinstance(relax.BlockBuilder().normalize(s).struct_info, relax.ObjectStructInfo)
    storage = relax.Var("storage", relax.ObjectStructInfo())
    t = relax.BlockBuilder().normalize(relax.op.memory.alloc_tensor(storage, 0, shape, "int32"))
    assert t.struct_info.dtype == "int32" and t.struct_info.ndim == 2
    with pytest.raises(TypeError, match="memory.alloc_storage: dtype must be a str"):
        relax.op.memory.alloc_storage(relax.ShapeExpr([24]), 0, "global", 4)
    with pytest.raises(TypeError, match="builtin.alloc_tensor: runtime_device_index must be"):
        relax.op.builtin.alloc_tensor(shape, "float32", "cpu")


def test_a_planned_module_written_in_tvmscript_equals_the_pass_output():
    @I.ir_module
    class Module:
        @T.prim_func
        def add(A: T.Buffer((2, 3), "float32"), B: T.Buffer((2, 3), "float32")):
            T.evaluate(0)

        @R.function
        def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
            R.func_attr({"relax.force_pure": True})
            cls = Module
            alloc = R.builtin.alloc_tensor(R.shape([2, 3]), dtype="float32", runtime_device_index=0)
            _ = cls.add(x, alloc)
            return x

    @I.ir_module
    class Expected:
        @T.prim_func
        def add(A: T.Buffer((2, 3), "float32"), B: T.Buffer((2, 3), "float32")):
            T.evaluate(0)

        @R.function
        def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
            R.func_attr({"relax.force_pure": True})
            cls = Expected
            storage = R.memory.alloc_storage(
                R.shape([24]), virtual_device_index=0, storage_scope="global", dtype="float32"
            )
            alloc = R.memory.alloc_tensor(storage, 0, R.shape([2, 3]), dtype="float32")
            _ = cls.add(x, alloc)
            return x

    tvm.ir.assert_structural_equal(relax.transform.StaticPlanBlockMemory()(Module), Expected)
