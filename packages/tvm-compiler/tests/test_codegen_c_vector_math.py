# float32 exp inside vectorised loops (tvm_expf, straight-line arithmetic the C compiler
# vectorises) against float64 exp on each pinned x86 level; scalar loops keep libm's expf.
import numpy as np
import pytest
import tvm
from host_isa import X86_LEVEL_TARGETS
from tvm import s_tir, te


def _exp(n, target, vectorize=True):
    a = te.placeholder((n,), name="A")
    b = te.compute((n,), lambda i: te.exp(a[i]), name="B")
    sch = s_tir.Schedule(te.create_prim_func([a, b]))
    if vectorize:
        (i,) = sch.get_loops(sch.get_sblock("B"))
        _, inner = sch.split(i, [None, 64])
        sch.vectorize(inner)
    return tvm.compile(sch.mod, target=target)


@pytest.mark.parametrize("target", X86_LEVEL_TARGETS)
def test_vectorised_exp_is_within_an_ulp_and_keeps_special_values(target):
    special = [np.nan, np.inf, -np.inf, 0.0, -0.0, 88.72283, 88.7229, -87.33654, -103.9, -200.0]
    x = np.concatenate(
        [np.linspace(-110, 90, 200_000, dtype="float32"), np.array(special, "float32")]
    )
    x = np.concatenate([x, np.zeros((-x.size) % 64, "float32")])
    f = _exp(x.size, target)
    assert "tvm_expf" in f.inspect_source()
    got = np.zeros_like(x)
    f(x, got)
    with np.errstate(over="ignore"):
        exact = np.exp(x.astype("float64"))
        want = exact.astype("float32")
    normal = np.isfinite(want) & (want >= np.finfo("float32").tiny)
    ulps = np.abs(got[normal] - exact[normal]) / np.spacing(want[normal])
    assert ulps.max() <= 1.5
    tiny = np.isfinite(x) & ~normal & np.isfinite(want)  # subnormal results, and 0
    np.testing.assert_allclose(got[tiny], want[tiny], rtol=1e-3, atol=1e-44)
    np.testing.assert_array_equal(got[np.isinf(want)], want[np.isinf(want)])
    assert np.isnan(got[np.isnan(x)]).all()


def test_scalar_exp_keeps_libm():
    f = _exp(100, "llvm -mcpu=x86-64", vectorize=False)
    assert "tvm_expf" not in f.inspect_source()
    x = np.linspace(-5, 5, 100, dtype="float32")
    got = np.zeros_like(x)
    f(x, got)
    np.testing.assert_allclose(got, np.exp(x), rtol=1e-6)


def _erf(n, target):
    a = te.placeholder((n,), name="A")
    b = te.compute((n,), lambda i: te.erf(a[i]), name="B")
    sch = s_tir.Schedule(te.create_prim_func([a, b]))
    (i,) = sch.get_loops(sch.get_sblock("B"))
    _, inner = sch.split(i, [None, 64])
    sch.vectorize(inner)
    return tvm.compile(sch.mod, target=target)


@pytest.mark.parametrize("target", X86_LEVEL_TARGETS)
def test_vectorised_erf_is_within_5e_7_and_keeps_special_values(target):
    import math

    special = [np.nan, np.inf, -np.inf, 0.0, -0.0, 3.99, 4.0, 4.01, -100.0]
    x = np.concatenate([np.linspace(-6, 6, 60_000, dtype="float32"), np.array(special, "float32")])
    x = np.concatenate([x, np.zeros((-x.size) % 64, "float32")])
    f = _erf(x.size, target)
    assert "tvm_erff" in f.inspect_source()
    got = np.zeros_like(x)
    f(x, got)
    finite = ~np.isnan(x)
    exact = np.array([math.erf(float(v)) for v in x[finite]])
    assert np.abs(got[finite] - exact).max() < 5e-7
    assert np.abs(got[finite]).max() <= 1.0  # never past erf's range (1 + erf(x) >= 0)
    np.testing.assert_array_equal(got[np.isinf(x)], np.sign(x[np.isinf(x)]))
    assert np.isnan(got[np.isnan(x)]).all()
