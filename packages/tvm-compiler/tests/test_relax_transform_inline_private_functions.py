# relax.transform.InlinePrivateFunctions: calls of private functions replaced by their bodies
# (fresh variables per call site, symbolic dims bound to the arguments'), the inlined functions
# dropped, recursive and public ones left alone; results computed as before.
import numpy as np
import tvm
from relax_private_programs import T2, helper_and_main
from tvm import relax, tir
from tvm.relax.transform import InlinePrivateFunctions


def _run(mod, *data):
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    return vm["main"](*data).numpy()


def test_inline_and_drop_the_helper():
    mod = helper_and_main()
    out = InlinePrivateFunctions()(mod)
    assert [gv.name_hint for gv in out.functions] == ["main"]
    text = out["main"].script()
    assert "R.add(x, x)" in text and "R.multiply(x, x)" in text and "R.negative(x)" in text
    assert relax.analysis.well_formed(out)
    data = np.array([1.5, -2.0], "float32")
    np.testing.assert_allclose(_run(out, data), _run(mod, data))


def test_two_call_sites_get_their_own_variables_and_dims():
    n = tir.Var("n", "int64")
    bb = relax.BlockBuilder()
    a = relax.Var("a", relax.TensorStructInfo((n,), "float32"))
    with bb.function("double", [a], private=True):
        s = bb.emit(relax.op.add(a, a))
        bb.emit_func_output(bb.emit(relax.op.reshape(s, relax.ShapeExpr([n, 1]))))
    double = bb.get().get_global_var("double")
    x = relax.Var("x", relax.TensorStructInfo((3,), "float32"))
    y = relax.Var("y", relax.TensorStructInfo((5,), "float32"))
    with bb.function("main", [x, y]):
        with bb.dataflow():
            p = bb.emit(relax.Call(double, [x]))
            q = bb.emit(relax.Call(double, [y]))
            out = bb.emit_output(relax.Tuple([p, q]))
        bb.emit_func_output(out)
    mod = bb.get()
    inlined = InlinePrivateFunctions()(mod)
    assert list(inlined.functions) and "double" not in [g.name_hint for g in inlined.functions]
    assert relax.analysis.well_formed(inlined)  # no variable bound twice
    sinfo = inlined["main"].ret_struct_info
    assert [[int(d) for d in f.shape.values] for f in sinfo.fields] == [[3, 1], [5, 1]]
    assert relax.analysis.free_symbolic_vars(inlined["main"]) == []
    xs, ys = np.arange(3, dtype="float32"), np.arange(5, dtype="float32")
    vm = relax.VirtualMachine(tvm.compile(inlined, target="llvm"), tvm.cpu())
    res = vm["main"](xs, ys)
    np.testing.assert_allclose(res[0].numpy(), (xs + xs).reshape(3, 1))
    np.testing.assert_allclose(res[1].numpy(), (ys + ys).reshape(5, 1))


def test_recursive_and_public_functions_stay():
    mod = helper_and_main(public_helper=True)
    assert InlinePrivateFunctions()(mod) is mod
    # a private function calling itself
    gv = tvm.ir.GlobalVar("loop")
    z = relax.Var("z", T2)
    r = relax.Var("r", T2)
    body = relax.SeqExpr([relax.BindingBlock([relax.VarBinding(r, relax.Call(gv, [z]))])], r)
    rec = relax.Function([z], body, T2)
    x = relax.Var("x", T2)
    r2 = relax.Var("r2", T2)
    main_body = relax.SeqExpr([relax.BindingBlock([relax.VarBinding(r2, relax.Call(gv, [x]))])], r2)
    main = relax.Function([x], main_body, T2).with_attr("global_symbol", "main")
    mod = tvm.IRModule({gv: rec, tvm.ir.GlobalVar("main"): main})
    assert InlinePrivateFunctions()(mod) is mod
