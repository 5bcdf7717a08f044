# Tests of tvm.target: parsing strings and dicts, options, the kind registry.
import pytest
from host_isa import requires_avx2
from tvm.target import Target, list_target_kinds, register_target_kind


def test_string_and_dict_forms():
    t = Target("llvm -mcpu=native -mattr=+avx2,+fma")
    assert t.kind.name == "llvm" and t.kind.codegen == "c"
    assert t.attrs == {"mcpu": "native", "mattr": ["+avx2", "+fma"]}
    assert str(t) == "llvm -mcpu=native -mattr=+avx2,+fma"
    d = Target({"kind": "c", "mcpu": "native"})
    assert d == Target("c -mcpu=native") and d.export() == {"kind": "c", "mcpu": "native"}
    assert Target(t) == t and "cpu" in t.keys


def test_errors_name_kind_and_option():
    with pytest.raises(ValueError, match="unknown target kind 'nope'"):
        Target("nope")
    with pytest.raises(ValueError, match="kind 'c' has no option 'color'"):
        Target("c -color=red")
    with pytest.raises(ValueError, match="'num-cores' expects an int"):
        Target("c -num-cores=many")
    with pytest.raises(TypeError, match="expected a str, dict or Target"):
        Target(3)


def test_registry_is_extensible_and_current_scope():
    kind = register_target_kind("testdev", {"width": int}, keys=("testdev",), codegen="testdev")
    assert "testdev" in list_target_kinds()
    t = Target("testdev -width=4")
    assert t.attrs["width"] == 4 and t.kind is kind
    with pytest.raises(ValueError, match="already registered"):
        register_target_kind("testdev")
    assert Target.current() is None
    with t:
        assert Target.current() is t


def test_host_stand_in_sets_width_and_march(monkeypatch):
    from tvm.codegen.c.compiler import find_compiler, host_flags
    from tvm.target.simd import host_vector_bytes, target_vector_bytes

    monkeypatch.setenv("TVM_STACK_HOST_TARGET", "x86-64")
    assert host_vector_bytes() == 16
    assert target_vector_bytes(Target("llvm")) == 16
    assert target_vector_bytes(Target("llvm -mcpu=native")) == 16
    # A pinned target is not the host: the stand-in leaves it alone.
    assert target_vector_bytes(Target("llvm -mcpu=x86-64-v4")) == 64
    flags = host_flags(find_compiler())
    assert "-march=x86-64" in flags and not any(f.endswith("=native") for f in flags)


@requires_avx2
def test_avx2_host_stand_in(monkeypatch):
    from tvm.codegen.c.compiler import find_compiler, host_flags
    from tvm.target.simd import host_vector_bytes

    monkeypatch.setenv("TVM_STACK_HOST_TARGET", "x86-64-v3")
    assert host_vector_bytes() == 32 and "-march=x86-64-v3" in host_flags(find_compiler())


def test_host_stand_in_kernels_run(monkeypatch, add_one_func):
    import numpy as np
    import tvm

    monkeypatch.setenv("TVM_STACK_HOST_TARGET", "x86-64")
    a, b = np.arange(8, dtype="float32"), np.zeros(8, "float32")
    tvm.compile(add_one_func)["main"](a, b)
    np.testing.assert_array_equal(b, a + 1)


def test_host_stand_in_the_cpu_cannot_run_is_refused(monkeypatch):
    import tvm.target.simd as simd

    monkeypatch.setattr(simd, "_cpu_flags", lambda: frozenset({"sse2"}))
    monkeypatch.setenv("TVM_STACK_HOST_TARGET", "x86-64-v4")
    with pytest.raises(
        ValueError,
        match=r"TVM_STACK_HOST_TARGET='x86-64-v4': this machine's "
        r"CPU lacks avx512f, .*cannot run here",
    ):
        simd.host_vector_bytes()


def test_host_stand_in_must_be_a_cpu_name(monkeypatch):
    from tvm.codegen.c.compiler import CompilerError, find_compiler, host_flags
    from tvm.target.simd import host_vector_bytes

    monkeypatch.setenv("TVM_STACK_HOST_TARGET", "x86-64 -fplugin=evil.so")
    with pytest.raises(ValueError, match="expected a CPU name such as x86-64-v3"):
        host_vector_bytes()
    monkeypatch.setenv("TVM_STACK_HOST_TARGET", "no-such-cpu")
    with pytest.raises(CompilerError, match="rejects -march=no-such-cpu"):
        host_flags(find_compiler())
