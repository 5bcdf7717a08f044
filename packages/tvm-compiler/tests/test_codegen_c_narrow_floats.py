# float16 and bfloat16 in the C backend: storage, arithmetic rounded per operation as NumPy
# (and PyTorch for bfloat16) do, casts, math functions, scalar parameters.
import numpy as np
import pytest
import tvm
from tvm import te, tir


def _binary(dtype, fcompute, n=257):
    a = te.placeholder((n,), dtype, name="A")
    b = te.placeholder((n,), dtype, name="B")
    c = te.compute((n,), lambda i: fcompute(a[i], b[i]), name="C")
    return tvm.compile(te.create_prim_func([a, b, c]))


def _inputs(dtype, n=257):
    rng = np.random.default_rng(0)
    x = (rng.random(n) * 8 - 4).astype(dtype)
    y = (rng.random(n) * 3 + 0.25).astype(dtype)
    return x, y


def test_float16_arithmetic_is_bit_identical_to_numpy():
    f = _binary("float16", lambda x, y: x * y + x / y - (x - y))
    x, y = _inputs("float16")
    z = np.zeros_like(x)
    f(x, y, z)
    with np.errstate(all="ignore"):
        expected = x * y + x / y - (x - y)
    np.testing.assert_array_equal(z, expected)


def test_float16_math_and_casts_match_numpy():
    f = _binary("float16", lambda x, y: tir.exp(x) + tir.sqrt(y) + tir.floor(x))
    x, y = _inputs("float16")
    z = np.zeros_like(x)
    f(x, y, z)
    expected = np.exp(x) + np.sqrt(y) + np.floor(x)
    np.testing.assert_array_equal(z, expected)
    a = te.placeholder((64,), "float32", name="A")
    h = te.compute((64,), lambda i: a[i].astype("float16"), name="H")
    back = te.compute((64,), lambda i: h[i].astype("float32") * 2.0, name="F")
    g = tvm.compile(te.create_prim_func([a, back]))
    src = np.linspace(-70000, 70000, 64, dtype="float32")  # beyond float16's range: inf
    out = np.zeros(64, "float32")
    g(src, out)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, src.astype("float16").astype("float32") * 2)


def test_float16_scalar_parameter_and_reduction():
    n = 128
    a = te.placeholder((n,), "float16", name="A")
    s = tir.Var("s", "float16")
    b = te.compute((n,), lambda i: a[i] * s, name="B")
    f = tvm.compile(te.create_prim_func([a, s, b]))
    x = np.linspace(-1, 1, n, dtype="float16")
    y = np.zeros_like(x)
    f(x, 0.3, y)
    np.testing.assert_array_equal(y, x * np.float16(0.3))
    k = te.reduce_axis((0, n), name="k")
    total = te.compute((1,), lambda i: te.sum(a[k], axis=k), name="T")
    g = tvm.compile(te.create_prim_func([a, total]))
    out = np.zeros(1, "float16")
    g(x, out)
    # A float16 accumulator rounds after every addition: close to the exact sum, not equal.
    np.testing.assert_allclose(out[0], x.astype("float64").sum(), atol=0.05)


def test_float16_under_every_stand_in_host(monkeypatch):
    # F16C where -march has it, libgcc's software conversions where not: the same bits.
    x, y = _inputs("float16")
    results = []
    for cpu in ("x86-64", "x86-64-v3"):
        monkeypatch.setenv("TVM_STACK_HOST_TARGET", cpu)
        z = np.zeros_like(x)
        _binary("float16", lambda p, q: p * q + p)(x, y, z)
        results.append(z)
    np.testing.assert_array_equal(results[0], results[1])
    np.testing.assert_array_equal(results[0], x * y + x)


def test_bfloat16_matches_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed in this venv")
    f = _binary("bfloat16", lambda x, y: x * y + x / y - tir.exp(y))
    rng = torch.Generator().manual_seed(0)
    x = (torch.rand(257, generator=rng) * 8 - 4).to(torch.bfloat16)
    y = (torch.rand(257, generator=rng) * 3 + 0.25).to(torch.bfloat16)
    z = torch.zeros(257, dtype=torch.bfloat16)
    f(x, y, z)
    expected = x * y + x / y - torch.exp(y)
    assert torch.equal(z, expected)
    cast = te.placeholder((4,), "float32", name="A")
    to_bf16 = te.compute((4,), lambda i: cast[i].astype("bfloat16"), name="B")
    g = tvm.compile(te.create_prim_func([cast, to_bf16]))
    src = torch.tensor([1.00390625, float("nan"), float("inf"), -3.1415926])
    out = torch.zeros(4, dtype=torch.bfloat16)
    g(src, out)
    assert torch.equal(out[[0, 2, 3]], src.to(torch.bfloat16)[[0, 2, 3]])
    assert torch.isnan(out[1])
