"""DeadCodeElimination, CanonicalizeBindings and BindParams."""

import numpy as np
import pytest
import tvm
from relax_programs import mlp_module, mlp_reference, run
from tvm import relax
from tvm.relax import transform


def _bindings(func):
    return [b for block in func.body.blocks for b in block.bindings]


def test_unused_pure_bindings_and_unreachable_functions_go():
    mod = transform.ToNonDataflow()(mlp_module((4, 8)))
    func = mod["main"]
    x = func.params[0]
    dead = relax.Var("dead", x.struct_info)
    block = func.body.blocks[0]
    extra = relax.BindingBlock([relax.VarBinding(dead, x), *block.bindings])
    func = func.with_fields(body=func.body.with_fields(blocks=(extra,)))
    private = relax.Function([x], relax.SeqExpr([], x), x.struct_info)
    mod = tvm.IRModule({**{gv: f for gv, f in mod.functions.items()}, "unused": private})
    mod = mod.with_function("main", func)
    out = transform.DeadCodeElimination()(mod)
    assert "unused" not in out
    assert dead not in [b.var for b in _bindings(out["main"])]
    assert transform.DeadCodeElimination()(out) is out


def test_kernel_calls_writing_outputs_are_kept():
    mod = transform.CallTIRRewrite()(transform.ToNonDataflow()(mlp_module((4, 8))))
    assert transform.DeadCodeElimination()(mod) is mod


def test_canonicalize_bindings_removes_aliases():
    mod = transform.CallTIRRewrite()(transform.ToNonDataflow()(mlp_module((4, 8))))
    out = transform.CanonicalizeBindings()(mod)
    assert not any(isinstance(b.value, relax.Var) for b in _bindings(out["main"]))
    assert transform.CanonicalizeBindings()(out) is out


def test_bind_params_folds_weights_into_constants():
    sizes = (4, 8)
    rng = np.random.default_rng(0)
    w = rng.standard_normal((4, 8)).astype("float32")
    b = rng.standard_normal(8).astype("float32")
    mod = transform.BindParams("main", {"w0": w, "b0": b})(mlp_module(sizes))
    assert [p.name_hint for p in mod["main"].params] == ["x"]
    ex = relax.build(mod, "llvm")
    x = rng.standard_normal((3, 4)).astype("float32")
    np.testing.assert_allclose(run(ex, x).numpy(), mlp_reference(x, [(w, b)]), rtol=1e-5)


def test_bind_params_refuses_a_wrong_shape():
    with pytest.raises(ValueError, match="'w0' is declared with shape"):
        transform.BindParams("main", {"w0": np.zeros((3, 8), "float32")})(mlp_module((4, 8)))


def test_match_cast_defining_a_symbol_others_use_stays_unread():
    from tvm.script import relax as R
    from tvm.script import tir as T

    @R.function
    def f(x: R.Tensor("float32", ndim=1)):
        n = T.int64()
        _x = R.match_cast(x, R.Tensor((n,), "float32"))
        _dead = R.match_cast(x, R.Tensor(("k",), "float32"))
        y = R.call_pure_packed("ext", x, sinfo_args=R.Tensor((n,), "float32"))
        return y

    out = relax.analysis.remove_all_unused(f)
    kept = [b.var.name_hint for b in out.body.blocks[0].bindings]
    # n names y's struct info, so its match_cast stays although nothing reads _x; k names
    # nothing else, so that one goes
    assert kept == ["_x", "y"]
    assert relax.analysis.well_formed(tvm.IRModule({"f": out}))


def test_extern_funcs_are_kept_though_nothing_calls_them():
    bb = relax.BlockBuilder()
    bb.add_func(relax.extern("extern_func"), "extern_func")
    mod = bb.get()
    assert transform.DeadCodeElimination()(mod) is mod
