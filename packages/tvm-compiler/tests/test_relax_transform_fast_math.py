"""FastMathTransform: exp/erf/tanh/softmax become call_tir of topi's float32 approximations,
which compile and stay within a few float32 ulp of the exact functions."""

import math

import numpy as np
from relax_programs import run
from tvm import relax, tir
from tvm.relax.transform import FastMathTransform
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Nonlinear:
    @R.function
    def main(x: R.Tensor((4, 64), "float32")) -> R.Tensor((4, 64), "float32"):
        with R.dataflow():
            a = R.exp(x)
            b = R.tanh(x)
            c = R.erf(x)
            d = R.nn.softmax(x, axis=1)
            e = R.add(R.add(a, b), R.add(c, d))
            R.output(e)
        return e


def _prim_funcs(mod):
    return {gv.name_hint: f for gv, f in mod.functions.items() if isinstance(f, tir.PrimFunc)}


def test_ops_become_kernels_of_the_approximations():
    mod = FastMathTransform()(Nonlinear)
    ops = {
        b.value.op.name
        for block in mod["main"].body.blocks
        for b in block.bindings
        if isinstance(b.value, relax.Call)
    }
    assert ops == {"relax.call_tir", "relax.add"}
    kernels = _prim_funcs(mod)
    assert len(kernels) == 4
    text = "\n".join(f.script() for f in kernels.values())
    # polynomials, not the libm calls the plain legalisation emits
    for libm in ("T.exp(", "T.tanh(", "T.erf("):
        assert libm not in text
    assert "T.reinterpret" in text  # exp's 2^n built in the exponent bits


def test_compiled_results_are_within_float32_ulps():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(-5, 5, (2, 64)), rng.uniform(-87, 87, (2, 64))]).astype(
        "float32"
    )
    got = run(relax.build(FastMathTransform()(Nonlinear), "llvm"), x).numpy()
    x64 = x.astype("float64")
    soft = np.exp(x64 - x64.max(1, keepdims=True))
    soft /= soft.sum(1, keepdims=True)
    want = np.exp(x64) + np.tanh(x64) + np.vectorize(math.erf)(x64) + soft
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_float16_exp_falls_back_to_exact():
    @I.ir_module
    class Half:
        @R.function
        def main(x: R.Tensor((16,), "float16")) -> R.Tensor((16,), "float16"):
            with R.dataflow():
                y = R.exp(x)
                R.output(y)
            return y

    mod = FastMathTransform()(Half)
    assert "T.exp(" in "\n".join(f.script() for f in _prim_funcs(mod).values())
    x = np.linspace(-4, 4, 16).astype("float16")
    got = run(relax.build(mod, "llvm"), x).numpy()
    np.testing.assert_allclose(got, np.exp(x.astype("float32")), rtol=2e-3)


def test_module_without_those_ops_comes_back_as_itself():
    @I.ir_module
    class Plain:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            with R.dataflow():
                y = R.add(x, x)
                R.output(y)
            return y

    assert FastMathTransform()(Plain) is Plain
