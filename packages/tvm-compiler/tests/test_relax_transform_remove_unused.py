# relax.transform.RemoveUnusedParameters and RemoveUnusedOutputs on internal functions: the
# signatures, the rewritten call sites and the values computed (as apache-tvm 0.27 rewrites
# the same module); public functions keep their signatures.
import numpy as np
import tvm
from relax_private_programs import T2, helper_and_main
from tvm import relax
from tvm.relax.transform import RemoveUnusedOutputs, RemoveUnusedParameters


def _run(mod, data):
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    return vm["main"](data).numpy()


DATA = np.array([1.5, -2.0], "float32")


def test_remove_unused_parameters():
    mod = helper_and_main()
    out = RemoveUnusedParameters()(mod)
    assert [p.name_hint for p in out["helper"].params] == ["a", "c"]
    [call_binding] = [
        b
        for b in out["main"].body.blocks[0].bindings
        if isinstance(b.value, relax.Call) and isinstance(b.value.op, tvm.ir.GlobalVar)
    ]
    assert [a.name_hint for a in call_binding.value.args] == ["x", "x"]
    # the argument only b read (exp(x)) is gone from main too
    assert "R.exp" not in out["main"].script() and "R.exp" in mod["main"].script()
    assert relax.analysis.well_formed(out)
    np.testing.assert_allclose(_run(out, DATA), _run(mod, DATA))
    assert RemoveUnusedParameters()(out) is out


def test_parameter_defining_a_used_symbolic_var_stays():
    # c is read, and would stay anyway; a function reading only n from c's shape keeps c
    from tvm import tir

    n = tir.Var("n", "int64")
    bb = relax.BlockBuilder()
    c = relax.Var("c", relax.TensorStructInfo((n,), "float32"))
    d = relax.Var("d", T2)
    with bb.function("shape_only", [c, d], private=True):
        bb.emit_func_output(relax.ShapeExpr([n]))
    gv = bb.get().get_global_var("shape_only")
    x = relax.Var("x", T2)
    with bb.function("main", [x]):
        bb.emit_func_output(bb.emit(relax.Call(gv, [x, x])))
    out = RemoveUnusedParameters()(bb.get())
    assert [p.name_hint for p in out["shape_only"].params] == ["c"]


def test_public_functions_keep_their_parameters():
    mod = helper_and_main(public_helper=True)
    assert RemoveUnusedParameters()(mod) is mod
    assert RemoveUnusedOutputs()(mod) is mod


def test_remove_unused_outputs():
    mod = helper_and_main()
    out = RemoveUnusedOutputs()(mod)
    helper = out["helper"]
    assert len(helper.ret_struct_info.fields) == 2
    assert "R.multiply" not in helper.script()  # the dropped field's computation is dead
    getitems = [
        b.value.index
        for b in out["main"].body.blocks[0].bindings
        if isinstance(b.value, relax.TupleGetItem)
    ]
    assert getitems == [0, 1]
    assert relax.analysis.well_formed(out)
    np.testing.assert_allclose(_run(out, DATA), _run(mod, DATA))
    assert RemoveUnusedOutputs()(out) is out


def test_outputs_of_a_tuple_used_whole_stay():
    mod = helper_and_main()
    bb = relax.BlockBuilder(mod)
    x = relax.Var("x", T2)
    with bb.function("whole", [x]):
        r = bb.emit(relax.Call(mod.get_global_var("helper"), [x, x, x]))
        bb.emit_func_output(r)
    both = bb.get()
    assert RemoveUnusedOutputs()(both) is both
