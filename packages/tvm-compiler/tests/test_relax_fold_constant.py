"""FoldConstant: call_tir of constant inputs runs at compile time and becomes a Constant."""

import numpy as np
from relax_programs import _bias_kernel, _relu_kernel, call_tir, run, tensor
from tvm import relax
from tvm.ir.module import GlobalVar, IRModule
from tvm.relax import transform


def _module(a, b):
    relu, add = GlobalVar("relu8"), GlobalVar("add8")
    x = relax.Var("x", tensor(2, 8))
    c = relax.Var("c", tensor(2, 8))
    d = relax.Var("d", tensor(2, 8))
    y = relax.Var("y", tensor(2, 8))
    block = relax.BindingBlock(
        [
            relax.VarBinding(c, call_tir(relu, [relax.const(a)], tensor(2, 8))),
            relax.VarBinding(d, call_tir(add, [c, relax.const(b)], tensor(2, 8))),
            relax.VarBinding(y, call_tir(add, [x, relax.const(b)], tensor(2, 8))),
        ]
    )
    func = relax.Function([x], relax.SeqExpr([block], relax.Tuple([d, y])), None)
    func = func.with_attr("global_symbol", "main")
    return IRModule({relu: _relu_kernel(8), add: _bias_kernel(8, False), "main": func})


def test_constant_chains_fold_and_the_rest_stays():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 8)).astype("float32")
    b = rng.standard_normal(8).astype("float32")
    folded = transform.FoldConstant()(transform.ToNonDataflow()(_module(a, b)))
    # c and d fold, their uses see the constants and (as upstream) their bindings, read by
    # nothing now, go; y, of the input x, stays
    (binding,) = folded["main"].body.blocks[0].bindings
    assert not isinstance(binding.value, relax.Constant)  # x is an input
    result = folded["main"].body.body
    assert isinstance(result.fields[0], relax.Constant)
    np.testing.assert_allclose(result.fields[0].data.numpy(), np.maximum(a, 0) + b, rtol=1e-6)
    x = rng.standard_normal((2, 8)).astype("float32")
    out = run(relax.build(folded, "llvm"), x)
    np.testing.assert_allclose(out[1].numpy(), x + b, rtol=1e-6)
    np.testing.assert_allclose(out[0].numpy(), np.maximum(a, 0) + b, rtol=1e-6)
    assert transform.FoldConstant()(folded) is folded


def test_the_kernels_of_a_constant_chain_compile_as_one_library(monkeypatch, tmp_path):
    # Each C compiler run costs a good part of a second: folding relu then add (two kernels,
    # the second fed by the first's folded result) must compile them together, once.
    from tvm.codegen.c import build

    monkeypatch.setenv("TVM_STACK_KERNEL_CACHE", str(tmp_path))  # nothing cached yet
    sources = []
    real = build.compile_shared_library

    def counting(source, *args, **kwargs):
        sources.append(source)
        return real(source, *args, **kwargs)

    monkeypatch.setattr(build, "compile_shared_library", counting)  # what tvm.compile calls
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 8)).astype("float32")
    b = rng.standard_normal(8).astype("float32")
    folded = transform.FoldConstant()(transform.ToNonDataflow()(_module(a, b)))
    assert len(sources) == 1
    assert "relu8" in sources[0] and "add8" in sources[0]
    value = folded["main"].body.body.fields[0]
    np.testing.assert_allclose(value.data.numpy(), np.maximum(a, 0) + b, rtol=1e-6)
