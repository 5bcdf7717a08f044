"""TVMScript IRModules: a Relax function without a return annotation gets its GlobalVar's struct
info from its parsed body, so later callers in the module see the real result (as upstream)."""

import tvm
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R


def test_caller_after_unannotated_callee_gets_its_result():
    @I.ir_module
    class Mod:
        @R.function
        def helper(x: R.Tensor(("n", 3), "float32")):
            y = R.add(x, x)
            return y

        @R.function
        def main(x: R.Tensor((2, 3), "float32")):
            z = Mod.helper(x)
            return z

    gv = Mod.get_global_var("helper")
    tvm.ir.assert_structural_equal(gv.struct_info, Mod["helper"].struct_info)
    assert gv.struct_info.purity
    main = Mod["main"]
    call_sinfo = main.body.blocks[0].bindings[0].value.struct_info
    tvm.ir.assert_structural_equal(call_sinfo, R.Tensor((2, 3), "float32"))
    tvm.ir.assert_structural_equal(main.ret_struct_info, R.Tensor((2, 3), "float32"))
    # The printed module reparses to the same IR.
    tvm.ir.assert_structural_equal(Mod, tvm.script.from_source(Mod.script()))


def test_caller_before_callee_keeps_object_result():
    @I.ir_module
    class Mod:
        @R.function
        def main(x: R.Tensor((2, 3), "float32")):
            z = Mod.helper(x)
            return z

        @R.function
        def helper(x: R.Tensor((2, 3), "float32")):
            return x

    # As upstream: the declaration's result (R.Object) is what an earlier caller sees, and the
    # GlobalVar holds the function's struct info once the module is parsed.
    call = Mod["main"].body.blocks[0].bindings[0].value
    assert isinstance(call.struct_info, relax.ObjectStructInfo)
    tvm.ir.assert_structural_equal(
        Mod.get_global_var("helper").struct_info, Mod["helper"].struct_info
    )


def test_annotated_callee_unchanged():
    @I.ir_module
    class Mod:
        @R.function
        def helper(x: R.Tensor((2, 3), "float32")) -> R.Tensor(ndim=2, dtype="float32"):
            return x

        @R.function
        def main(x: R.Tensor((2, 3), "float32")):
            z = Mod.helper(x)
            return z

    call = Mod["main"].body.blocks[0].bindings[0].value
    tvm.ir.assert_structural_equal(call.struct_info, R.Tensor(ndim=2, dtype="float32"))
