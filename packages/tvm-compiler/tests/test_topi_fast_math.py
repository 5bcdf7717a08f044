"""topi.fast_exp / fast_tanh / fast_erf: upstream's float32 approximations, within a few ulp of
the exact functions wherever the result is a normal float32, and other dtypes exact."""

import math

import numpy as np
import pytest
import tvm
from tvm import te, topi


def _run(fn, a):
    x = te.placeholder(a.shape, str(a.dtype), name="x")
    y = fn(x)
    prim = te.create_prim_func([x, y])
    f = tvm.compile(prim, target="llvm")
    out = np.zeros(a.shape, y.dtype)
    f(a, out)
    return out, prim.script()


@pytest.mark.parametrize(
    "fn, exact, lo, hi, libm",
    [
        (topi.fast_exp, np.exp, -87, 88, "T.exp("),  # below -87 exp is subnormal
        (topi.fast_tanh, np.tanh, -12, 12, "T.tanh("),
        (topi.fast_erf, np.vectorize(math.erf), -6, 6, "T.erf("),
    ],
)
def test_float32_approximation_within_a_few_ulp(fn, exact, lo, hi, libm):
    a = np.linspace(lo, hi, 40001).astype("float32")
    got, script = _run(fn, a)
    assert libm not in script  # the polynomial, not the library call
    want = exact(a.astype("float64"))
    rel = np.abs(got - want) / np.maximum(np.abs(want), np.finfo("float32").tiny)
    assert rel.max() < 1e-6


def test_other_dtypes():
    a = np.linspace(-3, 3, 101)
    got, script = _run(topi.fast_exp, a)  # float64: exact
    assert "T.exp(" in script
    np.testing.assert_allclose(got, np.exp(a), rtol=1e-12)
    half = a.astype("float16")
    got, script = _run(topi.fast_erf, half)  # float16 erf: the formula through float32
    assert "T.erf(" not in script
    np.testing.assert_allclose(got, np.vectorize(math.erf)(half.astype("float64")), atol=1e-3)


def test_fast_softmax_uses_fast_exp():
    x = te.placeholder((3, 50), "float32", name="x")
    prim = te.create_prim_func([x, topi.nn.fast_softmax(x, axis=1)])
    assert "T.exp(" not in prim.script()
    a = np.random.default_rng(0).uniform(-20, 20, (3, 50)).astype("float32")
    out = np.zeros_like(a)
    tvm.compile(prim, target="llvm")(a, out)
    e = np.exp(a - a.max(1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-7)
