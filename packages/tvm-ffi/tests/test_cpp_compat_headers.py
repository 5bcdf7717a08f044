"""Plugin sources written for apache-tvm-ffi (include paths, macros, names) build and run as is."""

import importlib.util
import os
import pathlib
import subprocess

import pytest
import tvm_ffi.libinfo
from native_build import build_library, compiler, config_flags, run_python
from upstream_examples import ADD_ONE, CHECK_ADD_ONE, CHECK_INT_PAIR, INT_PAIR

# apache-tvm-ffi's public include paths that plugin code uses.
HEADERS = [
    "tvm/ffi/any.h",
    "tvm/ffi/c_api.h",
    "tvm/ffi/container/array.h",
    "tvm/ffi/container/map.h",
    "tvm/ffi/container/list.h",
    "tvm/ffi/container/dict.h",
    "tvm/ffi/container/shape.h",
    "tvm/ffi/container/tensor.h",
    "tvm/ffi/dtype.h",
    "tvm/ffi/error.h",
    "tvm/ffi/extra/c_env_api.h",
    "tvm/ffi/extra/module.h",
    "tvm/ffi/function.h",
    "tvm/ffi/object.h",
    "tvm/ffi/optional.h",
    "tvm/ffi/reflection/registry.h",
    "tvm/ffi/string.h",
    "tvm/ffi/tvm_ffi.h",
    "dlpack/dlpack.h",
]


def _check(code, lib):
    result = run_python(code, lib)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


@pytest.mark.parametrize("header", HEADERS)
def test_header_is_installed_and_compiles_alone(tmp_path, header):
    assert os.path.isfile(os.path.join(tvm_ffi.libinfo.find_include_path(), header)), header
    src = tmp_path / "one.cc"
    src.write_text(f"#include <{header}>\n")
    result = subprocess.run(
        [
            compiler("c++"),
            "-std=c++17",
            "-fsyntax-only",
            "-Wall",
            "-Werror",
            *config_flags("cxxflags"),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


def test_quickstart_add_one_over_tensorview(tmp_path):
    pytest.importorskip("numpy", reason="the add_one check passes numpy arrays")
    _check(CHECK_ADD_ONE, build_library(tmp_path, "add_one", ADD_ONE, "c++", link_ffi=True))


def test_object_type_with_fields_and_typed_globals(tmp_path):
    _check(CHECK_INT_PAIR, build_library(tmp_path, "int_pair", INT_PAIR, "c++", link_ffi=True))


def test_static_init_block_takes_both_spellings(tmp_path):
    source = r"""
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
TVM_FFI_STATIC_INIT_BLOCK() {
  tvm::ffi::reflection::GlobalDef().def("spell.a", [](int x) { return x + 1; });
}
TVM_FFI_STATIC_INIT_BLOCK({
  tvm::ffi::reflection::GlobalDef().def("spell.b", [](int x, int y) { return x * y; });
});
"""
    lib = build_library(tmp_path, "spell", source, "c++", link_ffi=True)
    _check(
        f"""
import tvm_ffi
tvm_ffi.load_module({str(lib)!r})
assert tvm_ffi.get_global_func("spell.a")(1) == 2 and tvm_ffi.get_global_func("spell.b")(3, 4) == 12
print("ok")
""",
        lib,
    )


def test_comparison_checks_name_both_values_and_the_kind(tmp_path):
    source = r"""
#include <tvm/ffi/function.h>
#include <tvm/ffi/error.h>
void CheckLe(int64_t x, int64_t y) { TVM_FFI_CHECK_LE(x, y, ValueError) << "x too big"; }
void CheckNe(int64_t x, int64_t y) { TVM_FFI_ICHECK_NE(x, y) << "equal"; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(check_le, CheckLe);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(check_ne, CheckNe);
"""
    lib = build_library(tmp_path, "checks", source, "c++", link_ffi=True)
    _check(
        f"""
import tvm_ffi
mod = tvm_ffi.load_module({str(lib)!r})
mod.check_le(1, 2); mod.check_ne(1, 2)
try:
    mod.check_le(3, 2)
except ValueError as err:
    assert "Check failed: x <= y (3 vs. 2): x too big" in str(err), err
else:
    raise AssertionError("no ValueError")
try:
    mod.check_ne(5, 5)
except RuntimeError as err:
    assert "Check failed: x != y (5 vs. 5): equal" in str(err), err
else:
    raise AssertionError("no error")
print("ok")
""",
        lib,
    )


def test_quickstart_cmake_project_with_upstream_target_names(tmp_path):
    import shutil
    import sys

    cmake = shutil.which("cmake") or pytest.skip(
        "cmake is not on PATH: the CMake build of the quick start needs it"
    )
    (tmp_path / "add_one_cpu.cc").write_text(ADD_ONE)
    (tmp_path / "int_pair.cc").write_text(INT_PAIR)
    # As apache-tvm-ffi's quick start: tvm_ffi_ROOT from `tvm_ffi.config --cmakedir`, its target
    # names.
    (tmp_path / "CMakeLists.txt").write_text("""
cmake_minimum_required(VERSION 3.18)
project(quickstart LANGUAGES CXX)
find_package(Python COMPONENTS Interpreter REQUIRED)
execute_process(COMMAND "${Python_EXECUTABLE}" -m tvm_ffi.config --cmakedir
  OUTPUT_STRIP_TRAILING_WHITESPACE OUTPUT_VARIABLE tvm_ffi_ROOT)
find_package(tvm_ffi CONFIG REQUIRED)
add_library(add_one_cpu SHARED add_one_cpu.cc)
target_link_libraries(add_one_cpu tvm_ffi_header)
target_link_libraries(add_one_cpu tvm_ffi_shared)
add_library(int_pair SHARED int_pair.cc)
target_link_libraries(int_pair PRIVATE tvm_ffi::header tvm_ffi::shared)
set_target_properties(add_one_cpu int_pair PROPERTIES PREFIX "" SUFFIX ".so"
  LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/")
""")
    build = tmp_path / "build"
    for cmd in (
        [cmake, "-S", tmp_path, "-B", build, f"-DPython_EXECUTABLE={sys.executable}"],
        [cmake, "--build", build],
    ):
        done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    _check(CHECK_INT_PAIR, build / "int_pair.so")
    if importlib.util.find_spec("numpy") is not None:
        _check(CHECK_ADD_ONE, build / "add_one_cpu.so")


def _reference_include():
    """apache-tvm-ffi's headers: $TVM_FFI_REFERENCE_INCLUDE, else $TVM_BENCH_REFERENCE_PYTHON's."""
    import sys

    path = os.environ.get("TVM_FFI_REFERENCE_INCLUDE")
    python = os.environ.get(
        "TVM_BENCH_REFERENCE_PYTHON", "/work/main/.nox/bench-reference-tvm-ffi/bin/python"
    )
    if (
        not path
        and os.path.exists(python)
        and os.path.abspath(python) != os.path.abspath(sys.executable)
    ):
        # Its libinfo alone (no `import tvm_ffi`): the folder next to it holds include/.
        code = (
            "import importlib.util as u; "
            "print(u.find_spec('tvm_ffi').submodule_search_locations[0])"
        )
        done = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=60)
        path = os.path.join(done.stdout.strip(), "include") if done.returncode == 0 else None
    if not path or not os.path.exists(os.path.join(path, "tvm", "ffi", "c_api.h")):
        pytest.skip("apache-tvm-ffi's headers are not installed (set TVM_FFI_REFERENCE_INCLUDE)")
    return path


def test_library_built_against_reference_headers_is_refused(tmp_path):
    # Built with apache-tvm-ffi's own c_api.h: the layouts differ (docs/abi.md), so ours must
    # refuse it with an error, never call into it.
    include = _reference_include()
    src = tmp_path / "theirs.cc"
    src.write_text(r"""
#include <tvm/ffi/c_api.h>
extern "C" TVM_FFI_DLL_EXPORT int __tvm_ffi_add(void*, const TVMFFIAny* args, int32_t,
                                                TVMFFIAny* out) {
  out->type_index = kTVMFFIInt;
  out->v_int64 = args[0].v_int64 + args[1].v_int64;
  return 0;
}
""")
    lib = tmp_path / "libtheirs.so"
    done = subprocess.run(
        [
            compiler("c++"),
            "-std=c++17",
            "-shared",
            "-fPIC",
            f"-I{include}",
            str(src),
            "-o",
            str(lib),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result = run_python(f"""
import tvm_ffi
try:
    tvm_ffi.load_module({str(lib)!r})
except ValueError as err:
    assert "does not export the ABI tag" in str(err), err
    print("refused")
""")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "refused"


def test_common_cpp_api_of_plugins(tmp_path):
    # Any/AnyView::as and try_cast, String, Array, Map, Optional, Shape, Tensor's ShapeView
    # accessors, Function::FromPacked/GetGlobalRequired/TypedFunction, GetRef, lambdas exported.
    source = (pathlib.Path(__file__).parent / "cpp_api_plugin.cc").read_text()
    lib = build_library(tmp_path, "cpp_api", source, "c++", link_ffi=True)
    _check(
        f"""
import tvm_ffi
m = tvm_ffi.load_module({str(lib)!r})
assert m.use_any(1, 2) == 5
assert m.use_string("ab") == "ab!2"
assert list(m.use_array([5, 6])) == [3, 2, 5, 6]
out = m.use_map({{"a": 4}})
assert dict(out.items()) == {{"a": 4, "n": 1, "a2": 8, "has_a": 1}}, dict(out.items())
assert tuple(m.use_shape(tvm_ffi.Shape((3, 4)))) == (3, 12)
assert m.use_optional(None) is None and m.use_optional("x") == "x"
f = m.use_function()
assert f(41) == 42
tvm_ffi.register_global_func("cpp_api.inc", lambda x: x + 1)
assert m.call_global("cpp_api.inc") == 2 + 3
assert m.dtype_str(tvm_ffi.dtype("int8")) == "int8"
assert m.lambda_fn(5) == 15
@tvm_ffi.register_object("t2.Node")
class Node(tvm_ffi.Object):
    pass
assert m.use_node(Node(10)) == 21
try:
    m.use_shape("no")
except TypeError as err:
    assert "argument #0" in str(err), err
else:
    raise AssertionError("no TypeError")
print("ok")
""",
        lib,
    )


def test_tensor_shape_and_strides_views(tmp_path):
    pytest.importorskip("numpy", reason="the strided tensors come from numpy")
    source = r"""
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>
namespace ffi = tvm::ffi;
ffi::Array<int64_t> Describe(ffi::Tensor t, int64_t dim) {
  ffi::ShapeView shape = t.shape();
  ffi::ShapeView strides = t.strides();
  return {shape[0],    strides[0],    strides[t.ndim() - 1],
          t.size(dim), t.stride(dim), t.is_contiguous()};
}
ffi::Array<int64_t> DescribeView(ffi::TensorView t, int64_t dim) {
  return {t.shape()[0], t.strides()[0], t.size(dim), t.stride(dim), t.numel(), t.IsContiguous()};
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(describe, Describe);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(describe_view, DescribeView);
"""
    lib = build_library(tmp_path, "views", source, "c++", link_ffi=True)
    _check(
        f"""
import numpy as np, tvm_ffi
m = tvm_ffi.load_module({str(lib)!r})
x = np.zeros((3, 4), "float32")
assert list(m.describe(x, -1)) == [3, 4, 1, 4, 1, 1], list(m.describe(x, -1))
assert list(m.describe(tvm_ffi.from_dlpack(x.T), 0)) == [4, 1, 4, 4, 1, 0]
assert list(m.describe_view(x, 1)) == [3, 4, 4, 1, 12, 1]
for bad in (2, -3):
    try:
        m.describe(x, bad)
    except IndexError as err:
        assert "out of range for a tensor of ndim 2" in str(err), err
    else:
        raise AssertionError("no IndexError")
print("ok")
""",
        lib,
    )
