"""tvm.relax.testing.vm (check_saved_func, the test.vm.* packed functions) and
tvm.relax.testing.runtime_builtin, used as upstream's Relax VM tests use them."""
# ruff: noqa: F821  (TVMScript bodies are IR)

import numpy as np
import pytest
import tvm
import tvm.relax.testing.vm  # noqa: F401  (registers test.vm.*)
import tvm_ffi
from tvm import relax
from tvm.relax.testing.runtime_builtin import MakeShapeCode, MatchShapeCode
from tvm.relax.testing.vm import check_saved_func
from tvm.runtime import vm as runtime_vm
from tvm.script import relax as R


@tvm.script.ir_module
class _Packed:
    @R.function(pure=False)
    def main(x: R.Tensor((3, 4), "float32"), y: R.Tensor((3, 4), "float32")):
        z = R.call_packed("test.vm.add", x, y, sinfo_args=R.Tensor((3, 4), "float32"))
        w = R.call_packed("test.vm.mul", z, y, sinfo_args=R.Tensor((3, 4), "float32"))
        return w


def _vm(mod):
    return relax.VirtualMachine(relax.build(mod, "llvm"), tvm.cpu())


def test_check_saved_func_runs_the_function_and_its_saved_closure():
    vm = _vm(_Packed)
    x = np.arange(12, dtype="float32").reshape(3, 4)
    y = np.full((3, 4), 2, "float32")
    res = check_saved_func(vm, "main", tvm.runtime.tensor(x), tvm.runtime.tensor(y))
    np.testing.assert_allclose(res.numpy(), (x + y) * y)
    # The closure is the VM's, under the saved name, as upstream's save_function makes it.
    np.testing.assert_allclose(vm["main_saved"]().numpy(), (x + y) * y)


def test_check_saved_func_fails_when_the_results_differ():
    calls = []

    def counting(a):
        calls.append(1)
        return tvm.runtime.tensor(a.numpy() + len(calls))

    tvm_ffi.register_global_func("test.vm.counting_add", counting, override=True)

    @tvm.script.ir_module
    class Counting:
        @R.function(pure=False)
        def main(x: R.Tensor((2,), "float32")):
            y = R.call_packed("test.vm.counting_add", x, sinfo_args=R.Tensor((2,), "float32"))
            return y

    with pytest.raises(AssertionError):
        check_saved_func(_vm(Counting), "main", tvm.runtime.tensor(np.zeros(2, "float32")))


def test_packed_helpers_compute_what_upstream_s_do():
    get = tvm_ffi.get_global_func
    a = tvm.runtime.tensor(np.array([[1, 2]], "float32"))
    b = tvm.runtime.tensor(np.array([[3, 4]], "float32"))
    np.testing.assert_array_equal(get("test.vm.add")(a, b).numpy(), [[4, 6]])
    np.testing.assert_array_equal(get("test.vm.mul")(a, b).numpy(), [[3, 8]])
    np.testing.assert_array_equal(get("test.vm.subtract_one")(a).numpy(), [[0, 1]])
    assert not get("test.vm.equal_zero")(a).numpy()
    np.testing.assert_array_equal(get("test.vm.move")(a).numpy(), a.numpy())
    out = tvm.runtime.tensor(np.zeros((1, 4), "float32"))
    get("test.vm.tile")(a, out)
    np.testing.assert_array_equal(out.numpy(), [[1, 2, 1, 2]])
    same = tvm.runtime.tensor(np.zeros((1, 2), "float32"))
    get("test.vm.identity")(b, same)
    np.testing.assert_array_equal(same.numpy(), [[3, 4]])
    assert get("test.vm.add_scalar")(2, 3) == 5
    assert get("test.vm.get_device_id")(tvm.cpu(0)) == 0
    assert get("test.vm.check_if_defined")(a) and not get("test.vm.check_if_defined")(None)


def test_shape_codes_are_the_runtime_s_values_under_upstream_s_names():
    assert [(c.name, int(c)) for c in MatchShapeCode] == [
        ("ASSERT_EQUAL_TO_IMM", 0),
        ("STORE_TO_HEAP", 1),
        ("NO_OP", 2),
        ("ASSERT_EQUAL_TO_LOAD", 3),
    ]
    assert [(c.name, int(c)) for c in MakeShapeCode] == [("USE_IMM", 0), ("LOAD_SHAPE", 1)]
    assert MatchShapeCode.STORE_TO_HEAP == runtime_vm.MatchShapeCode.kStoreToHeap
    assert MakeShapeCode.LOAD_SHAPE == runtime_vm.MakeShapeCode.kLoadShape
