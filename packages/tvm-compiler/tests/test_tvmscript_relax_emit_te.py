# R.emit_te in TVMScript: a te computation becomes a private PrimFunc of the parsed module.
import numpy as np
import pytest
import tvm
from tvm import relax, topi
from tvm.error import DiagnosticError
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class TwoAdds:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), y: R.Tensor(("n", 4), "float32")):
        with R.dataflow():
            z = R.emit_te(topi.add, x, y)
            w = R.emit_te(topi.add, z, y, primfunc_name_hint="main")
            R.output(w)
        return w


def test_each_emit_te_adds_a_private_prim_func_under_a_free_name():
    names = sorted(gv.name_hint for gv in TwoAdds.functions)
    # "main" is the class's own function, so the second kernel takes the next free name.
    assert names == ["add", "main", "main1"]
    for name in ("add", "main1"):
        func = TwoAdds[name]
        assert isinstance(func, tvm.tir.PrimFunc) and "global_symbol" not in (func.attrs or {})
    text = TwoAdds.script()
    assert 'z = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((n, 4), dtype="float32"))' in text


@pytest.mark.parametrize("rows", [1, 3, 16])
def test_the_module_runs_at_every_row_count(rows):
    vm = relax.VirtualMachine(tvm.compile(TwoAdds, target="llvm"), tvm.cpu())
    rng = np.random.default_rng(rows)
    a, b = (rng.random((rows, 4), dtype="float32") for _ in range(2))
    got = vm["main"](tvm.runtime.tensor(a), tvm.runtime.tensor(b)).numpy()
    np.testing.assert_allclose(got, a + 2 * b, rtol=1e-6)


def test_the_printed_module_parses_back_equal():
    tvm.ir.assert_structural_equal(tvm.script.from_source(TwoAdds.script()), TwoAdds)


def test_emit_te_outside_a_module_is_a_diagnostic_naming_it():
    with pytest.raises(DiagnosticError, match="R.emit_te must be used inside an @I.ir_module"):

        @R.function
        def alone(x: R.Tensor((4,), "float32")):
            y = R.emit_te(topi.exp, x)
            return y


def test_emit_te_of_something_not_callable_names_the_argument():
    with pytest.raises(DiagnosticError, match="R.emit_te: func must be a te function, got int"):

        @I.ir_module
        class Bad:
            @R.function
            def main(x: R.Tensor((4,), "float32")):
                y = R.emit_te(3, x)
                return y


def test_a_call_te_module_with_symbolic_shapes_survives_print_and_parse():
    # call_te's PrimFunc shares the Relax function's symbolic variables; the parsed module's
    # PrimFunc declares its own. Each function is its own scope for equality and hashing.
    from tvm import tir

    n = tir.Var("n", "int64")
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((n, 4), "float32"))
    with bb.function("main", [x]):
        y = bb.emit_te(topi.exp, x)
        z = bb.emit_te(topi.add, y, x)
        bb.emit_func_output(z)
    mod = bb.get()
    back = tvm.script.from_source(mod.script())
    tvm.ir.assert_structural_equal(mod, back)
    assert tvm.ir.structural_hash(mod) == tvm.ir.structural_hash(back)
    legal = relax.transform.LegalizeOps()(mod)
    tvm.ir.assert_structural_equal(legal, tvm.script.from_source(legal.script()))
