# Tests of the C backend through tvm.compile: results, argument checks, scalars, caching, export.
import os
import subprocess
import sys

import numpy as np
import pytest
import tvm
import tvm.ir
import tvm.runtime
from host_isa import AVX2_TARGET, AVX512_TARGET
from tvm import te, tir
from tvm.codegen.c import generate_c_source
from tvm.driver import lower
from tvm.target import Target


def _vector_add(n=37, dtype="float32"):
    a = te.placeholder((n,), dtype, name="A")
    b = te.placeholder((n,), dtype, name="B")
    c = te.compute((n,), lambda i: a[i] + b[i], name="C")
    return te.create_prim_func([a, b, c])


def _matmul(n=16):
    a = te.placeholder((n, n), name="A")
    b = te.placeholder((n, n), name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute((n, n), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    return te.create_prim_func([a, b, c])


def test_vector_add_on_numpy_and_tvm_tensors():
    mod = tvm.compile(_vector_add(), target="c")
    a, b = np.arange(37, dtype="float32"), np.ones(37, dtype="float32")
    c = np.zeros(37, dtype="float32")
    mod["main"](a, b, c)
    np.testing.assert_allclose(c, a + b)
    ta, tb = tvm.runtime.tensor(a), tvm.runtime.tensor(b)
    tc = tvm.runtime.tensor(np.zeros(37, dtype="float32"))
    mod["main"](ta, tb, tc)
    np.testing.assert_allclose(tc.numpy(), a + b)


def test_matmul_with_reduction_and_llvm_alias():
    mod = tvm.compile(_matmul(), target="llvm -mcpu=native")
    rng = np.random.default_rng(0)
    a, b = rng.random((16, 16), dtype="float32"), rng.random((16, 16), dtype="float32")
    c = np.zeros((16, 16), dtype="float32")
    mod["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)


def test_torch_tensors():
    torch = pytest.importorskip("torch", reason="torch is not installed on this machine")
    mod = tvm.compile(_vector_add(), target="c")
    a, b = torch.arange(37, dtype=torch.float32), torch.ones(37)
    c = torch.zeros(37)
    mod["main"](a, b, c)
    assert torch.allclose(c, a + b)


def test_argument_errors_are_precise():
    f = tvm.compile(_vector_add(), target="c")["main"]
    a = np.zeros(37, "float32")
    with pytest.raises(TypeError, match=r"main: expected 3 arguments \(A, B, C\), got 2"):
        f(a, a)
    with pytest.raises(TypeError, match=r"argument 1 \(B\) must be a tensor, got int"):
        f(a, 3, a)
    with pytest.raises(TypeError, match=r"argument 1 \(B\) must be a tensor, got str"):
        f(a, "not a tensor", a)
    with pytest.raises(TypeError, match=r"argument 1 \(B\) must be a tensor, got ffi.Array"):
        f(a, [1, 2], a)
    with pytest.raises(ValueError, match=r"argument 2 \(C\) must have dtype float32, got float64"):
        f(a, a, np.zeros(37))
    with pytest.raises(ValueError, match=r"argument 0 \(A\) has shape\[0\] == 36, expected 37"):
        f(np.zeros(36, "float32"), a, a)
    with pytest.raises(ValueError, match=r"argument 0 \(A\) must have 1 dimensions, got 2"):
        f(np.zeros((37, 1), "float32"), a, a)
    with pytest.raises(ValueError, match=r"argument 1 \(B\) must be compact"):
        f(a, np.zeros(74, "float32")[::2], a)
    raw = np.zeros(37 * 4 + 1, dtype="uint8")[1:]
    misaligned = raw.view("float32")
    with pytest.raises(ValueError, match=r"argument 0 \(A\) data must be aligned to 4 bytes"):
        f(misaligned, a, a)


def test_symbolic_shape_is_bound_from_the_first_tensor():
    n = te.var("n")
    a = te.placeholder((n,), name="A")
    b = te.compute((n,), lambda i: a[i] * 2.0, name="B")
    f = tvm.compile(te.create_prim_func([a, b]))["main"]
    x = np.arange(5, dtype="float32")
    y = np.zeros(5, dtype="float32")
    f(x, y)
    np.testing.assert_allclose(y, x * 2)
    with pytest.raises(ValueError, match=r"argument 1 \(B\) has shape\[0\] == 4, expected n == 5"):
        f(x, np.zeros(4, "float32"))


def test_empty_tensors_pass_the_layout_check():
    # NumPy gives zero-size arrays strides of 0, which is no layout error.
    n, m = te.var("n"), te.var("m")
    a = te.placeholder((n, m), name="A")
    b = te.compute((n, m), lambda i, j: a[i, j] + 1.0, name="B")
    f = tvm.compile(te.create_prim_func([a, b]))["main"]
    x, y = np.zeros((0, 4), "float32"), np.zeros((0, 4), "float32")
    f(x, y)
    assert y.shape == (0, 4)
    with pytest.raises(ValueError, match=r"argument 1 \(B\) has shape\[0\] == 0, expected n == 3"):
        f(np.zeros((3, 4), "float32"), y)
    with pytest.raises(ValueError, match=r"argument 0 \(A\) must be compact"):
        f(np.zeros((3, 8), "float32")[:, ::2], np.zeros((3, 4), "float32"))


def test_scalar_arguments_and_return_value():
    x, y = tir.Var("x", "int64"), tir.Var("y", "float64")
    func = tir.PrimFunc(
        [x, y], tir.Evaluate(tir.ret(tir.Cast("float64", x) * y + 1.0)), ret_type="float64"
    )
    f = tvm.compile(func)["main"]
    assert f(3, 2.5) == 8.5
    assert f(3, 2) == 7.0
    with pytest.raises(TypeError, match=r"argument 0 \(x\) must be an int, got float"):
        f(1.5, 2.0)
    with pytest.raises(TypeError, match=r"argument 1 \(y\) must be a float, got str"):
        f(1, "2.0")


@pytest.mark.parametrize(
    ("dtype", "bad", "good"), [("int32", 2**40, -(2**31)), ("uint8", -1, 255), ("int8", 128, -128)]
)
def test_narrow_integer_scalars_are_range_checked(dtype, bad, good):
    x = tir.Var("x", dtype)
    func = tir.PrimFunc([x], tir.Evaluate(tir.ret(tir.Cast("int64", x))), ret_type="int64")
    f = tvm.compile(func)["main"]
    assert f(good) == good
    with pytest.raises(ValueError, match=rf"argument 0 \(x\) = {bad} does not fit in {dtype}"):
        f(bad)


def test_parallel_vectorized_unrolled_loops_run():
    a = tir.decl_buffer((64, 16), "float32", name="A")
    pa = tir.Var("a", "handle")
    i, j, k = tir.Var("i"), tir.Var("j"), tir.Var("k")
    store = tir.BufferStore(a, tir.Cast("float32", i * 16 + j) + tir.Cast("float32", k), [i, j])
    body = tir.For(
        i,
        0,
        64,
        tir.ForKind.PARALLEL,
        tir.For(k, 0, 1, tir.ForKind.UNROLLED, tir.For(j, 0, 16, tir.ForKind.VECTORIZED, store)),
    )
    func = tir.PrimFunc([pa], body, buffer_map={pa: a})
    with Target(AVX512_TARGET):  # 16 float32 lanes are one AVX-512 register
        source = generate_c_source(lower(func)).text
    # The vectorized loop became vector expressions: no per-lane loop is left for omp simd.
    assert "#pragma omp parallel " in source and "tvm_float32x16" in source
    assert "#pragma omp simd" not in source
    with Target(AVX2_TARGET):  # two 8-lane chunks per row
        assert "tvm_float32x8" in generate_c_source(lower(func)).text
    out = np.zeros((64, 16), "float32")
    tvm.compile(func)["main"](out)
    np.testing.assert_allclose(out.ravel(), np.arange(64 * 16, dtype="float32"))


def test_generated_source_follows_the_abi():
    text = generate_c_source(lower(_vector_add())).text
    assert "TVM_FFI_LIBRARY_ABI_TAG();" in text
    assert "int __tvm_ffi_main(void* self, const TVMFFIAny* args" in text
    assert "kTVMFFIDLTensorPtr" in text and "TVMFFITensorGetDLTensorPtr" in text


def test_kernel_cache_reuses_library(tmp_path):
    first = tvm.compile(_vector_add())
    second = tvm.compile(_vector_add())
    assert first.path == second.path
    assert os.path.dirname(first.path) == os.environ["TVM_STACK_KERNEL_CACHE"]
    other = tvm.compile(_vector_add(n=38))
    assert other.path != first.path


def test_export_library_round_trips_in_a_fresh_process(tmp_path):
    path = str(tmp_path / "add.so")
    tvm.compile(_vector_add()).export_library(path)
    script = (
        "import numpy as np, tvm, tvm.runtime\n"
        f"m = tvm.runtime.load_module({path!r})\n"
        "a = np.arange(37, dtype='float32'); c = np.zeros(37, dtype='float32')\n"
        "m['main'](a, a, c)\n"
        "assert (c == 2 * a).all(), c\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_bad_compile_inputs():
    with pytest.raises(TypeError, match="tvm.compile: expected an IRModule or a PrimFunc"):
        tvm.compile("main")
    with pytest.raises(ValueError, match="unknown target kind 'cuda9'"):
        tvm.compile(_vector_add(), target="cuda9")


def test_module_with_several_functions_exports_each():
    a = tir.decl_buffer((4,), "float32", name="A")
    pa, i = tir.Var("a", "handle"), tir.Var("i")

    def fill(value):
        body = tir.For(i, 0, 4, body=tir.BufferStore(a, tir.const(value, "float32"), [i]))
        return tir.PrimFunc([pa], body, buffer_map={pa: a})

    mod = tvm.compile(tvm.ir.IRModule({"ones": fill(1.0), "twos": fill(2.0)}))
    x = np.zeros(4, "float32")
    mod["ones"](x)
    assert (x == 1).all()
    mod["twos"](x)
    assert (x == 2).all()


def test_bitwise_operators_on_integers_match_numpy():
    a = te.placeholder((16,), "int32", name="A")
    b = te.placeholder((16,), "int32", name="B")
    c = te.compute((16,), lambda i: ((a[i] & b[i]) | (a[i] << 2)) ^ (~b[i] >> 1), name="C")
    f = tvm.compile(te.create_prim_func([a, b, c]))["main"]
    x = np.arange(-8, 8, dtype="int32")
    y = np.arange(16, dtype="int32") * 3
    out = np.zeros(16, "int32")
    f(x, y, out)
    np.testing.assert_array_equal(out, ((x & y) | (x << 2)) ^ (~y >> 1))


def test_bitwise_operators_need_integers_and_bools_stay_logical():
    x = tir.Var("x", "float32")
    with pytest.raises(TypeError, match="shift_left needs integer expressions, got dtype float32"):
        x << 1  # noqa: B018
    with pytest.raises(TypeError, match="~ needs a bool or integer expression"):
        ~x  # noqa: B018
    p, q = tir.Var("p", "bool"), tir.Var("q", "bool")
    assert isinstance(p & q, tir.And) and isinstance(p | q, tir.Or) and isinstance(~p, tir.Not)


def test_int8_arithmetic_wraps_before_a_cast():
    # C would compute int8 * int8 in int; TIR's int8 product wraps, as NumPy's does.
    a = te.placeholder((16,), "int8", name="A")
    b = te.placeholder((16,), "int8", name="B")
    c = te.compute((16,), lambda i: (a[i] * b[i]).astype("float32"), name="C")
    x = (np.arange(16) * 9).astype("int8")
    out = np.zeros(16, "float32")
    tvm.compile(te.create_prim_func([a, b, c]))["main"](x, x, out)
    np.testing.assert_array_equal(out, (x * x).astype("float32"))


def test_vector_index_that_is_not_a_ramp_is_a_codegen_error():
    from tvm.codegen.c.body import CodegenError

    buf = tir.decl_buffer((64,), "float32", name="X")
    px = tir.Var("x", "handle")
    index = tir.Broadcast(tir.const(3, "int32"), 8)
    store = tir.BufferStore(buf, tir.Broadcast(tir.const(1.0, "float32"), 8), [index])
    func = tir.PrimFunc([px], store, buffer_map={px: buf})
    with pytest.raises(CodegenError, match="vector index into 'X' must be a Ramp, got Broadcast"):
        generate_c_source(tvm.IRModule({"main": func}))


def test_scalar_param_that_is_also_a_buffer_extent_is_checked_not_redeclared():
    # call_te passes an output's symbolic extent as a scalar too; the C entry once declared
    # the variable twice and failed to compile
    n = tir.Var("n", "int64")
    out = te.compute((n,), lambda i: i.astype("float32"), name="out")
    func = te.create_prim_func([out, n]).with_attr("global_symbol", "main")
    lib = tvm.compile(tvm.IRModule({"main": func}))
    buf = np.zeros(4, "float32")
    lib(buf, 4)
    np.testing.assert_array_equal(buf, np.arange(4, dtype="float32"))
    with pytest.raises(ValueError, match="disagrees with"):
        lib(buf, 5)
