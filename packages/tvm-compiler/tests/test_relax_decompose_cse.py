"""DecomposeOpsForInference and EliminateCommonSubexpr: the modules upstream's passes produce
(built here with the BlockBuilder and compared structurally), the numbers unchanged, copy-on-
write and bad arguments."""

import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax import op as R
from tvm.relax import transform


def _tensor(*shape):
    return relax.TensorStructInfo(shape, "float32")


def _batch_norm_module(center=True, scale=True):
    x = relax.Var("x", _tensor(2, 3, 4, 4))
    stats = [relax.Var(n, _tensor(3)) for n in ("gamma", "beta", "mean", "var")]
    y = relax.Var("y", _tensor(2, 5))
    g5 = relax.Var("g5", _tensor(5))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, *stats, y, g5]):
        with bb.dataflow():
            bn = bb.emit(
                R.nn.batch_norm(x, *stats, axis=1, epsilon=1e-3, center=center, scale=scale)
            )
            first = bb.emit(relax.TupleGetItem(bn, 0))
            ln = bb.emit(R.nn.layer_norm(y, g5, g5, axes=[-1]))
            out = bb.emit_output(relax.Tuple([first, ln]))
        bb.emit_func_output(out)
    return bb.get()


def _expected_decomposed(center=True, scale=True):
    """What upstream makes of it: (x - mean) / sqrt(var + eps) * gamma + beta, each
    statistic expanded to (1, C, 1, 1); the moving statistics pass through; layer_norm stays."""
    x = relax.Var("x", _tensor(2, 3, 4, 4))
    gamma, beta, mean, var = (relax.Var(n, _tensor(3)) for n in ("gamma", "beta", "mean", "var"))
    y = relax.Var("y", _tensor(2, 5))
    g5 = relax.Var("g5", _tensor(5))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, gamma, beta, mean, var, y, g5]):
        with bb.dataflow():
            m = bb.emit(R.expand_dims(mean, [0, 2, 3]))
            centered = bb.emit(R.subtract(x, m))
            v = bb.emit(R.expand_dims(var, [0, 2, 3]))
            v = bb.emit(R.add(v, relax.const(1e-3, "float32")))
            v = bb.emit(R.sqrt(v))
            out = bb.emit(R.divide(centered, v))
            if scale:
                out = bb.emit(R.multiply(out, bb.emit(R.expand_dims(gamma, [0, 2, 3]))))
            if center:
                out = bb.emit(R.add(out, bb.emit(R.expand_dims(beta, [0, 2, 3]))))
            bn = bb.emit(relax.Tuple([out, mean, var]))
            first = bb.emit(relax.TupleGetItem(bn, 0))
            ln = bb.emit(R.nn.layer_norm(y, g5, g5, axes=[-1]))
            result = bb.emit_output(relax.Tuple([first, ln]))
        bb.emit_func_output(result)
    return bb.get()


@pytest.mark.parametrize("center,scale", [(True, True), (False, True), (True, False)])
def test_decompose_batch_norm_as_upstream(center, scale):
    mod = _batch_norm_module(center, scale)
    decomposed = transform.DecomposeOpsForInference()(mod)
    tvm.ir.assert_structural_equal(decomposed["main"], _expected_decomposed(center, scale)["main"])
    assert relax.analysis.well_formed(decomposed)
    assert transform.DecomposeOpsForInference()(decomposed) is decomposed


def test_decomposed_batch_norm_computes_inference_batch_norm():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 4, 4)).astype("float32")
    gamma, beta, mean = (rng.standard_normal(3).astype("float32") for _ in range(3))
    var = rng.uniform(0.5, 2.0, 3).astype("float32")
    y, g5 = rng.standard_normal((2, 5)).astype("float32"), np.ones(5, "float32")
    mod = transform.DecomposeOpsForInference()(_batch_norm_module())
    assert "relax.nn.batch_norm" not in mod.script()
    ex = tvm.compile(mod, target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    args = [tvm.runtime.tensor(a) for a in (x, gamma, beta, mean, var, y, g5)]
    out = vm["main"](*args)
    shape = (1, 3, 1, 1)
    expected = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + 1e-3)
    expected = expected * gamma.reshape(shape) + beta.reshape(shape)
    np.testing.assert_allclose(out[0].numpy(), expected, rtol=1e-5, atol=1e-6)


def test_decompose_only_the_named_function_and_bad_names():
    mod = _batch_norm_module()
    assert transform.DecomposeOpsForInference("main")(mod) is not mod
    with pytest.raises(ValueError, match="DecomposeOpsForInference: no function 'other'"):
        transform.DecomposeOpsForInference("other")(mod)
    with pytest.raises(TypeError, match="DecomposeOpsForInference: func_name must be a str"):
        transform.DecomposeOpsForInference(3)
    with pytest.raises(TypeError, match="IRModule"):
        transform.DecomposeOpsForInference()(mod["main"])


def _cse_module():
    x = relax.Var("x", _tensor(2, 3))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            a = bb.emit(R.add(x, x))
            b = bb.emit(R.add(x, x))
            c = bb.emit(R.multiply(a, b))
            t1 = bb.emit(relax.Tuple([a, x]))
            t2 = bb.emit(relax.Tuple([a, x]))
            d = bb.emit(R.add(x, x))
            o = bb.emit_output(R.add(x, x))
            o2 = bb.emit_output(relax.Tuple([c, t1, t2, d]))
        e = bb.emit(R.add(x, x))
        bb.emit_func_output(relax.Tuple([o, o2, e]))
    return bb.get()


def _expected_cse(call_only):
    """Upstream's result: repeats bind the first variable and later uses read it; outside the
    dataflow block the block output stands for the value."""
    x = relax.Var("x", _tensor(2, 3))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            a = bb.emit(R.add(x, x))
            bb.emit(a)
            c = bb.emit(R.multiply(a, a))
            t1 = bb.emit(relax.Tuple([a, x]))
            t2 = bb.emit(t1 if not call_only else relax.Tuple([a, x]))
            bb.emit(a)
            o = bb.emit_output(a)
            o2 = bb.emit_output(relax.Tuple([c, t1, t1 if not call_only else t2, a]))
        bb.emit(o)
        bb.emit_func_output(relax.Tuple([o, o2, o]))
    return bb.get()


@pytest.mark.parametrize("call_only", [False, True])
def test_eliminate_common_subexpr_as_upstream(call_only):
    after = transform.EliminateCommonSubexpr(call_only=call_only)(_cse_module())
    tvm.ir.assert_structural_equal(after["main"], _expected_cse(call_only)["main"])
    assert relax.analysis.well_formed(after)
    assert transform.EliminateCommonSubexpr(call_only)(after) is after


def test_cse_keeps_impure_calls_and_branch_scopes():
    x = relax.Var("x", _tensor(2))
    cond = relax.Var("c", relax.TensorStructInfo((), "bool"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, cond], pure=False):
        p1 = bb.emit(R.call_packed("my_effect", x, sinfo_args=_tensor(2)))
        p2 = bb.emit(R.call_packed("my_effect", x, sinfo_args=_tensor(2)))
        then = relax.SeqExpr(
            [relax.BindingBlock([relax.VarBinding(v := relax.Var("t", _tensor(2)), R.add(x, x))])],
            v,
        )
        other = relax.SeqExpr(
            [relax.BindingBlock([relax.VarBinding(w := relax.Var("f", _tensor(2)), R.add(x, x))])],
            w,
        )
        branch = bb.emit(relax.If(cond, then, other))
        bb.emit_func_output(relax.Tuple([p1, p2, branch]))
    mod = bb.get()
    assert transform.EliminateCommonSubexpr()(mod) is mod


def test_cse_bad_argument():
    with pytest.raises(TypeError, match="EliminateCommonSubexpr: call_only must be a bool"):
        transform.EliminateCommonSubexpr(call_only="yes")
    with pytest.raises(TypeError, match="IRModule"):
        transform.EliminateCommonSubexpr()(None)


def test_cse_after_lowering_keeps_allocations_and_kernel_calls():
    # Regression: two builtin.alloc_tensor of one shape (no FPurity registered: taken as pure)
    # were merged, and so were the direct PrimFunc calls writing into them.
    from relax_programs import _relu_kernel, call_tir, tensor
    from tvm.ir.module import GlobalVar, IRModule

    relu = GlobalVar("relu8")
    x = relax.Var("x", tensor(2, 8))
    a, b = relax.Var("a", tensor(2, 8)), relax.Var("b", tensor(2, 8))
    block = relax.BindingBlock(
        [
            relax.VarBinding(a, call_tir(relu, [x], tensor(2, 8))),
            relax.VarBinding(b, call_tir(relu, [x], tensor(2, 8))),
        ]
    )
    func = relax.Function([x], relax.SeqExpr([block], relax.Tuple([a, b])), None)
    mod = IRModule({relu: _relu_kernel(8), "main": func.with_attr("global_symbol", "main")})
    lowered = transform.CallTIRRewrite()(mod)
    assert transform.EliminateCommonSubexpr()(lowered) is lowered
    assert transform.EliminateCommonSubexpr()(mod) is not mod  # before lowering: one relu
