"""The tir.rsqrt intrinsic: tvm.tir.rsqrt, T.rsqrt in TVMScript and its C code, against NumPy."""

import numpy as np
import pytest
import tvm
from tvm import te, tir
from tvm.script import tir as T


def test_rsqrt_is_the_pure_intrinsic():
    x = tir.Var("x", "float32")
    call = tir.rsqrt(x)
    assert isinstance(call, tir.Call)
    assert call.op.name == "tir.rsqrt"
    assert str(call.dtype) == "float32"
    assert te.rsqrt is tir.rsqrt
    # An integer argument is computed in float32, as the other math intrinsics.
    assert str(tir.rsqrt(tir.Var("i", "int32")).dtype) == "float32"


@T.prim_func
def _rsqrt_func(a: T.Buffer((64,), "float32"), b: T.Buffer((64,), "float32")):
    for i in range(64):
        with T.sblock("b"):
            vi = T.axis.spatial(64, i)
            b[vi] = T.rsqrt(a[vi])


def test_tvmscript_rsqrt_roundtrip():
    text = _rsqrt_func.script()
    assert "T.rsqrt(" in text
    tvm.ir.assert_structural_equal(_rsqrt_func, tvm.script.from_source(text))


def test_rsqrt_c_codegen_matches_numpy():
    f = tvm.compile(_rsqrt_func.with_attr("global_symbol", "main"), target="c")
    a = np.linspace(0.01, 100, 64, dtype="float32")
    b = np.zeros_like(a)
    f(a, b)
    np.testing.assert_allclose(b, 1 / np.sqrt(a), rtol=1e-6)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_rsqrt_vectorised_te(dtype):
    a = te.placeholder((128,), dtype, name="A")
    b = te.compute((128,), lambda i: tir.rsqrt(a[i]), name="B")
    sch = tvm.s_tir.Schedule(te.create_prim_func([a, b]))
    (i,) = sch.get_loops(sch.get_sblock("B"))
    _, inner = sch.split(i, [None, 8])
    sch.vectorize(inner)
    f = tvm.compile(sch.mod, target="llvm -mcpu=x86-64")
    x = np.linspace(0.5, 50, 128).astype(dtype)
    y = np.zeros_like(x)
    f(x, y)
    np.testing.assert_allclose(y, 1 / np.sqrt(x), rtol=1e-6 if dtype == "float32" else 1e-12)
