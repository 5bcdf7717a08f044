# Shared fixtures of the compiler tests: small PrimFuncs and a private kernel cache folder.
import pytest


@pytest.fixture(autouse=True)
def _private_kernel_cache(tmp_path, monkeypatch):
    # Each test compiles into its own cache so results never leak between tests.
    monkeypatch.setenv("TVM_STACK_KERNEL_CACHE", str(tmp_path / "kernels"))


@pytest.fixture
def add_one_func():
    from tvm import tir

    a = tir.decl_buffer((8,), "float32", name="A")
    b = tir.decl_buffer((8,), "float32", name="B")
    pa, pb = tir.Var("a", "handle"), tir.Var("b", "handle")
    i = tir.Var("i")
    body = tir.For(i, 0, 8, tir.ForKind.SERIAL, tir.BufferStore(b, a[i] + 1.0, [i]))
    return tir.PrimFunc([pa, pb], body, buffer_map={pa: a, pb: b})
