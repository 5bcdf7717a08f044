"""tvm_ffi.cpp: load_inline/build_inline/load/build compile against the installed headers,
cache, and fail clearly."""

import os
import re
import shutil
import subprocess
import sys

import pytest
import tvm_ffi.cpp
from native_build import compiler, run_python
from tvm_ffi.cpp import _toolchain
from upstream_examples import CHECK_INT_PAIR, INT_PAIR

# apache-tvm-ffi's load_inline docstring example: no includes, exported through `functions`.
DOC_ADD_ONE = r"""
void add_one_cpu(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  TVM_FFI_ICHECK(x.ndim() == 1) << "x must be a 1D tensor";
  DLDataType f32_dtype{kDLFloat, 32, 1};
  TVM_FFI_ICHECK(x.dtype() == f32_dtype) << "x must be a float tensor";
  TVM_FFI_ICHECK(y.ndim() == 1) << "y must be a 1D tensor";
  TVM_FFI_ICHECK(y.dtype() == f32_dtype) << "y must be a float tensor";
  TVM_FFI_ICHECK(x.size(0) == y.size(0)) << "x and y must have the same shape";
  for (int i = 0; i < x.size(0); ++i) {
    static_cast<float*>(y.data_ptr())[i] = static_cast<float*>(x.data_ptr())[i] + 1;
  }
}
"""
ADD = "int add(int a, int b) { return a + b; }"


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    """Each test gets its own cache, and a C++ compiler (or skips)."""
    compiler("c++")
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _child(code):
    # Loading happens in a child: a loaded library stays in its process (see test_module.py).
    result = run_python(code, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_docstring_example_builds_and_runs():
    pytest.importorskip("numpy", reason="the example passes numpy arrays")
    out = _child(f"""
import numpy as np, tvm_ffi, tvm_ffi.cpp
mod = tvm_ffi.cpp.load_inline(name="hello", cpp_sources={DOC_ADD_ONE!r}, functions="add_one_cpu")
assert isinstance(mod, tvm_ffi.Module)
x = np.array([1, 2, 3, 4, 5], dtype=np.float32); y = np.empty_like(x)
mod.add_one_cpu(x, y)
print(y.tolist())
""")
    assert out.strip() == "[2.0, 3.0, 4.0, 5.0, 6.0]"


def test_registered_object_and_globals_through_load_inline():
    out = _child(f"""
import sys, tvm_ffi, tvm_ffi.cpp
path = tvm_ffi.cpp.build_inline("int_pair", cpp_sources={INT_PAIR!r})
sys.argv[1:] = [path]
exec({CHECK_INT_PAIR!r})
""")
    assert out.strip() == "ok"


def test_functions_as_mapping_sequence_and_docs(cache_dir):
    path = tvm_ffi.cpp.build_inline(
        "docs",
        cpp_sources=[ADD, "int sub(int a, int b) { return a - b; }"],
        functions={"add": 'adds "two"', "sub": ""},
    )
    main = open(os.path.join(os.path.dirname(path), "main.cpp")).read()
    assert "TVM_FFI_DLL_EXPORT_TYPED_FUNC(add, add);" in main
    assert 'TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(add, "adds \\"two\\"");' in main
    assert "TVM_FFI_DLL_EXPORT_TYPED_FUNC(sub, sub);" in main
    assert "TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(sub" not in main
    assert _child(
        f"import tvm_ffi; m = tvm_ffi.load_module({path!r}); print(m.add(2, 3), m.sub(2, 3))"
    ).split() == ["5", "-1"]


def test_second_build_is_cached_and_runs_no_compiler(cache_dir, monkeypatch):
    first = tvm_ffi.cpp.build_inline("cached", cpp_sources=ADD, functions="add")
    stamp = os.stat(first).st_mtime_ns
    # A compiler that cannot run: the cached build must not need one.
    monkeypatch.setenv("PATH", "/nonexistent")
    again = tvm_ffi.cpp.build_inline("cached", cpp_sources=ADD, functions="add")
    assert again == first and os.stat(again).st_mtime_ns == stamp
    assert os.path.dirname(first).startswith(str(cache_dir / "cached_"))


def test_changed_source_builds_into_another_folder(cache_dir):
    a = tvm_ffi.cpp.build_inline("changes", cpp_sources=ADD, functions="add")
    b = tvm_ffi.cpp.build_inline("changes", cpp_sources=ADD + "\n// v2", functions="add")
    assert a != b and os.path.exists(a) and os.path.exists(b)


def test_build_directory_is_used_and_rebuilt_on_change(tmp_path):
    out = tmp_path / "mine"
    first = tvm_ffi.cpp.build_inline(
        "here", cpp_sources=ADD, functions="add", build_directory=str(out)
    )
    assert first == str(out / "here.so")
    second = tvm_ffi.cpp.build_inline(
        "here",
        cpp_sources="int add(int a, int b) { return a * b; }",
        functions="add",
        build_directory=out,
    )
    assert second == first
    assert (
        _child(f"import tvm_ffi; print(tvm_ffi.load_module({second!r}).add(3, 4))").strip() == "12"
    )


def test_compile_error_shows_the_compiler_output():
    with pytest.raises(RuntimeError) as info:
        tvm_ffi.cpp.build_inline(
            "broken", cpp_sources="int add(int a, int b) { return a + ; }", functions="add"
        )
    text = str(info.value)
    assert "tvm_ffi.cpp.build_inline: build failed" in text
    assert "error:" in text and "return a + ;" in text


def test_compile_error_without_ninja_shows_the_compiler_output(monkeypatch):
    which = shutil.which
    monkeypatch.setattr(
        _toolchain.shutil, "which", lambda name: None if name == "ninja" else which(name)
    )
    with pytest.raises(RuntimeError, match=r"(?s)exited with status.*error:.*undeclared_thing"):
        tvm_ffi.cpp.build_inline("broken2", cpp_sources="int f() { return undeclared_thing; }")
    path = tvm_ffi.cpp.build_inline("direct", cpp_sources=ADD, functions="add")
    assert not os.path.exists(os.path.join(os.path.dirname(path), "build.ninja"))
    assert _child(f"import tvm_ffi; print(tvm_ffi.load_module({path!r}).add(1, 1))").strip() == "2"


def test_missing_compiler_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("CXX", "/nonexistent/c++")
    with pytest.raises(RuntimeError, match=r"build_inline: the C\+\+ compiler named by \$CXX"):
        tvm_ffi.cpp.build_inline("nocxx", cpp_sources=ADD)
    monkeypatch.delenv("CXX")
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(RuntimeError, match=r"no C\+\+ compiler found"):
        tvm_ffi.cpp.build_inline("nocxx2", cpp_sources=ADD)


def test_cuda_sources_without_nvcc_name_nvcc(monkeypatch, tmp_path):
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.delenv("CUDA_PATH", raising=False)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(compiler("c++"), bin_dir / "c++")
    monkeypatch.setenv("PATH", str(bin_dir))
    with pytest.raises(RuntimeError, match="nvcc"):
        tvm_ffi.cpp.build_inline("gpu", cuda_sources="__global__ void k() {}")
    with pytest.raises(RuntimeError, match="nvcc"):
        tvm_ffi.cpp.load_inline("gpu2", cpp_sources=ADD, cuda_sources="__global__ void k() {}")


@pytest.mark.parametrize(
    ("kwargs", "exc", "text"),
    [
        ({"name": 3, "cpp_sources": ADD}, TypeError, "argument `name` must be a str"),
        ({"name": "a/b", "cpp_sources": ADD}, ValueError, "argument `name` must be an identifier"),
        (
            {"name": "m", "cpp_sources": 5},
            TypeError,
            "argument `cpp_sources` must be a str or a sequence of str, got int",
        ),
        ({"name": "m", "cpp_sources": [ADD, 1]}, TypeError, "argument `cpp_sources`"),
        ({"name": "m", "cuda_sources": b"x"}, TypeError, "argument `cuda_sources`"),
        (
            {"name": "m", "cpp_sources": ADD, "functions": 5},
            TypeError,
            "argument `functions` must be a str",
        ),
        (
            {"name": "m", "cpp_sources": ADD, "functions": {"add": 1}},
            TypeError,
            "argument `functions` must map",
        ),
        (
            {"name": "m", "cpp_sources": ADD, "functions": ["a b"]},
            ValueError,
            "not a C++ identifier",
        ),
        (
            {"name": "m", "cpp_sources": ADD, "extra_cflags": [1]},
            TypeError,
            "argument `extra_cflags`",
        ),
        (
            {"name": "m", "cpp_sources": ADD, "extra_ldflags": 2},
            TypeError,
            "argument `extra_ldflags`",
        ),
        (
            {"name": "m", "cpp_sources": ADD, "extra_include_paths": 2},
            TypeError,
            "argument `extra_include_paths`",
        ),
        (
            {"name": "m", "cpp_sources": ADD, "build_directory": 2},
            TypeError,
            "argument `build_directory`",
        ),
        (
            {"name": "m", "cpp_sources": ADD, "keep_module_alive": "yes"},
            TypeError,
            "argument `keep_module_alive`",
        ),
        ({"name": "m", "cpp_sources": ADD, "backend": "metal"}, ValueError, "argument `backend`"),
        ({"name": "m"}, ValueError, "give `cpp_sources` or `cuda_sources`"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs, exc, text):
    with pytest.raises(exc, match=re.escape(text)) as info:
        tvm_ffi.cpp.load_inline(**kwargs)
    assert str(info.value).startswith("tvm_ffi.cpp.")


def test_build_and_load_from_files(tmp_path):
    src = tmp_path / "plugin.cc"
    src.write_text(
        "#include <tvm/ffi/function.h>\n" + ADD + "\nTVM_FFI_DLL_EXPORT_TYPED_FUNC(add, add);\n"
    )
    path = tvm_ffi.cpp.build("files", cpp_files=[str(src)])
    assert (
        _child(f"import tvm_ffi; print(tvm_ffi.load_module({path!r}).add(20, 22))").strip() == "42"
    )
    obj = tvm_ffi.cpp.build("files", sources=str(src), output="files.o")
    assert obj.endswith("files.o") and os.path.getsize(obj) > 0
    with pytest.raises(FileNotFoundError, match="argument `cpp_files` names"):
        tvm_ffi.cpp.build("files", cpp_files=str(tmp_path / "missing.cc"))
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(ValueError, match="cannot tell how to build"):
        tvm_ffi.cpp.build("files", sources=str(tmp_path / "notes.txt"))
    with pytest.raises(ValueError, match="give `sources`"):
        tvm_ffi.cpp.load("files")


def test_load_keeps_the_module_and_calls_it(tmp_path):
    out = _child(f"""
import tvm_ffi.cpp
mod = tvm_ffi.cpp.load_inline(
    "kept", cpp_sources={ADD!r}, functions=["add"], build_directory={str(tmp_path / "b")!r}
)
print(mod.add(1, 2))
""")
    assert out.strip() == "3"


def test_cuda_example_builds_with_nvcc_when_present():
    if _toolchain.shutil.which("nvcc") is None and not os.environ.get("CUDA_HOME"):
        pytest.skip("nvcc (the CUDA toolkit) is not installed")
    source = r"""
__global__ void AddOneKernel(float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + 1;
}
void add_one_cuda(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  int64_t n = x.size(0);
  AddOneKernel<<<(n + 255) / 256, 256>>>(static_cast<float*>(x.data_ptr()),
                                         static_cast<float*>(y.data_ptr()), n);
}
int twice(int x) { return 2 * x; }
"""
    path = tvm_ffi.cpp.build_inline(
        "cuda_add", cuda_sources=source, functions=["add_one_cuda", "twice"]
    )
    # Loading needs no GPU: the host function runs on the CPU.
    assert _child(f"import tvm_ffi; print(tvm_ffi.load_module({path!r}).twice(21))").strip() == "42"


def test_to_cpp_dtype():
    import tvm_ffi

    assert [
        tvm_ffi.cpp.to_cpp_dtype(s) for s in ("float32", "float64", "int8", "uint64", "bool")
    ] == ["float", "double", "int8_t", "uint64_t", "bool"]
    assert tvm_ffi.cpp.to_cpp_dtype(tvm_ffi.dtype("int16")) == "int16_t"
    with pytest.raises(ValueError, match="to_cpp_dtype: unsupported dtype 'float32x4'"):
        tvm_ffi.cpp.to_cpp_dtype("float32x4")
    with pytest.raises(TypeError, match="argument `dtype_str`"):
        tvm_ffi.cpp.to_cpp_dtype(5)


def test_to_cpp_dtype_gpu_types_follow_the_gpu_pytorch_sees():
    from tvm_ffi.cpp import dtype as cpp_dtype

    assert cpp_dtype.CUDA_DTYPE_MAP["bfloat16"] == "__nv_bfloat16"
    assert cpp_dtype.ROCM_DTYPE_MAP["bfloat16"] == "__hip_bfloat16"
    assert set(cpp_dtype.CPU_DTYPE_MAP) >= {"float32", "int64", "bool"}
    backend = cpp_dtype._gpu_backend()
    if backend == "cpu":
        with pytest.raises(ValueError, match="unsupported dtype 'float16' for backend 'cpu'"):
            cpp_dtype.to_cpp_dtype("float16")
    else:
        table = cpp_dtype.CUDA_DTYPE_MAP if backend == "cuda" else cpp_dtype.ROCM_DTYPE_MAP
        assert cpp_dtype.to_cpp_dtype("float16") == table["float16"] == "__half"


def test_concurrent_builds_of_one_source_share_the_result(cache_dir):
    # The build folder's lock: one child compiles, the others wait and load its library.
    code = f"""
import tvm_ffi, tvm_ffi.cpp
m = tvm_ffi.cpp.load_inline("racing", cpp_sources={ADD!r}, functions="add")
print(m.add(20, 22), m.path)
"""
    env = dict(os.environ, TVM_FFI_CACHE_DIR=str(cache_dir))
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(3)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outs]
    lines = {out.strip() for out, _ in outs}
    assert len(lines) == 1 and lines.pop().startswith("42 "), outs
