"""load_module: libraries built with the system compiler, in C++ and in plain C, and bad files."""

import subprocess
import sys

import pytest
import tvm_ffi
from native_build import build_library, config_flags, run_python

CXX_LIBRARY = r"""
#include <tvm_ffi/function.h>
#include <tvm_ffi/string.h>

int64_t AddOne(int64_t x) { return x + 1; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);

std::string Greet(std::string who) { return "hello " + who; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(greet, Greet);

void Fail(int64_t code) { TVM_FFI_THROW(ValueError) << "failing with " << code; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(fail, Fail);
"""

C_LIBRARY = r"""
#include <tvm_ffi/c_api.h>

TVM_FFI_LIBRARY_ABI_TAG();

TVM_FFI_DLL_EXPORT int __tvm_ffi_mul(void* self, const TVMFFIAny* args, int32_t num_args,
                                     TVMFFIAny* result) {
  if (num_args != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "mul: expects two ints");
    return -1;
  }
  result->type_index = kTVMFFIInt;
  result->v_int64 = args[0].v_int64 * args[1].v_int64;
  return 0;
}
"""

C_WITHOUT_TAG = r"""
int plain_function(int x) { return x + 1; }
"""

C_OTHER_MAJOR = r"""
#include <tvm_ffi/c_api.h>

TVM_FFI_DLL_EXPORT const uint32_t __tvm_ffi__abi_version =
    (uint32_t)(((TVM_FFI_ABI_VERSION_MAJOR + 7) << 16) | 3);

TVM_FFI_DLL_EXPORT int __tvm_ffi_nothing(void* self, const TVMFFIAny* args, int32_t n,
                                         TVMFFIAny* result) {
  return 0;
}
"""


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("ffi_modules")


@pytest.fixture(scope="module")
def cxx_library(build_dir):
    return build_library(build_dir, "cxx_funcs", CXX_LIBRARY, "c++", link_ffi=True)


@pytest.fixture(scope="module")
def c_library(build_dir):
    return build_library(build_dir, "c_funcs", C_LIBRARY, "c", link_ffi=True)


def test_cxx_library_functions(cxx_library):
    mod = tvm_ffi.load_module(str(cxx_library))
    assert isinstance(mod, tvm_ffi.Module)
    assert mod.kind == "library"
    assert mod.path == str(cxx_library)
    assert mod["add_one"](41) == 42
    assert mod.add_one(1) == 2
    assert mod.get_function("greet")("world") == "hello world"
    assert "add_one" in mod
    assert "nope" not in mod


def test_cxx_library_typed_errors(cxx_library):
    mod = tvm_ffi.load_module(cxx_library)  # a PathLike works too
    with pytest.raises(TypeError) as info:
        mod["add_one"]("x")
    for part in ("add_one", "#0", "`int`", "`str`"):
        assert part in str(info.value)
    with pytest.raises(TypeError, match="Expected 1 but got 0"):
        mod["add_one"]()
    with pytest.raises(ValueError, match="failing with 3"):
        mod["fail"](3)


def test_missing_function(cxx_library):
    mod = tvm_ffi.load_module(str(cxx_library))
    assert mod.get_function("no_such", allow_missing=True) is None
    with pytest.raises(AttributeError, match="no_such"):
        mod.get_function("no_such")
    with pytest.raises(AttributeError, match="no_such"):
        mod["no_such"]


def test_function_keeps_library_alive(cxx_library):
    f = tvm_ffi.load_module(str(cxx_library))["add_one"]
    import gc

    gc.collect()
    assert f(1) == 2


def test_c_library(c_library):
    mod = tvm_ffi.load_module(str(c_library))
    assert mod["mul"](6, 7) == 42
    with pytest.raises(TypeError, match="mul: expects two ints"):
        mod["mul"](1, "x")


def test_imports(cxx_library, c_library):
    main = tvm_ffi.load_module(str(cxx_library))
    other = tvm_ffi.load_module(str(c_library))
    main.import_module(other)
    assert len(main.imports) == 1
    assert main.imports[0].same_as(other)
    assert main["mul"](2, 3) == 6  # found through the import
    with pytest.raises(ValueError, match="itself"):
        main.import_module(main)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing_here"):
        tvm_ffi.load_module(str(tmp_path / "nothing_here.so"))


def test_library_without_abi_tag(build_dir):
    path = build_library(build_dir, "no_tag", C_WITHOUT_TAG, "c")
    with pytest.raises(ValueError, match="ABI tag"):
        tvm_ffi.load_module(str(path))


def test_garbage_file(tmp_path):
    path = tmp_path / "garbage.so"
    path.write_bytes(b"this is not an ELF file\x00" * 10)
    with pytest.raises(OSError, match="garbage.so"):
        tvm_ffi.load_module(str(path))


def test_library_built_for_another_abi_major(build_dir):
    path = build_library(build_dir, "other_major", C_OTHER_MAJOR, "c")
    with pytest.raises(RuntimeError) as info:
        tvm_ffi.load_module(str(path))
    major, minor = tvm_ffi._core.ABI_VERSION
    message = str(info.value)
    assert f"{major + 7}.3" in message  # the library's version
    assert f"{major}.{minor}" in message  # ours
    assert "other_major" in message


def test_config_cli_and_libinfo():
    import os

    include = tvm_ffi.libinfo.find_include_path()
    assert os.path.exists(os.path.join(include, "tvm_ffi", "c_api.h"))
    assert os.path.exists(tvm_ffi.libinfo.find_libtvm_ffi())
    assert os.path.exists(os.path.join(tvm_ffi.libinfo.find_cmake_path(), "tvm_ffiConfig.cmake"))
    flags = config_flags("cxxflags", "ldflags", "libs")
    assert f"-I{include}" in flags
    assert "-ltvm_ffi" in flags


def test_relative_path_in_working_directory(cxx_library, monkeypatch):
    monkeypatch.chdir(cxx_library.parent)
    mod = tvm_ffi.load_module(cxx_library.name)
    assert mod["add_one"](1) == 2


def test_two_cxx_libraries_in_one_process(build_dir):
    first = build_library(build_dir, "cxx_first", CXX_LIBRARY, "c++", link_ffi=True)
    second = build_library(
        build_dir, "cxx_second", CXX_LIBRARY.replace("add_one", "add_two"), "c++", link_ffi=True
    )
    code = (
        "import sys, tvm_ffi\n"
        "a = tvm_ffi.load_module(sys.argv[1])\n"
        "b = tvm_ffi.load_module(sys.argv[2])\n"
        "assert a['add_one'](1) == 2 and b['add_two'](1) == 2\n"
    )
    # A child process: once the bug shows, the first library's tag poisons later loads.
    result = subprocess.run(
        [sys.executable, "-c", code, str(first), str(second)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]


LIFETIME_LIBRARY = r"""
#include <tvm_ffi/ffi.h>

using namespace tvm::ffi;

Array<Any> MakeArray(int64_t n) {
  Array<Any> a;
  for (int64_t i = 0; i < n; ++i) a.push_back(Any(i));
  return a;
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_array, MakeArray);

Function MakeAdder(int64_t k) { return Function::FromTyped([k](int64_t x) { return x + k; }); }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_adder, MakeAdder);

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef().def("lifetime.add_two", [](int64_t x) { return x + 2; });
});
"""

# Each line drops the Module first, then uses what its library made (its code, its deleters).
LIFETIME_SCRIPT = """
import gc, sys, tvm_ffi
arr = tvm_ffi.load_module(sys.argv[1]).make_array(3)
adder = tvm_ffi.load_module(sys.argv[1]).make_adder(5)
gc.collect()
assert list(arr) == [0, 1, 2]
del arr
assert adder(1) == 6
del adder
gc.collect()
assert tvm_ffi.get_global_func("lifetime.add_two")(1) == 3
print("done")
"""


def test_library_code_outlives_its_module(build_dir):
    path = build_library(build_dir, "lifetime", LIFETIME_LIBRARY, "c++", link_ffi=True)
    result = run_python(LIFETIME_SCRIPT, path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "done"


# A library whose initialiser registers a global function, then fails the ABI check.
REJECTED_AFTER_INIT = r"""
#include <tvm_ffi/c_api.h>

TVM_FFI_DLL_EXPORT const uint32_t __tvm_ffi__abi_version =
    (uint32_t)((TVM_FFI_ABI_VERSION_MAJOR + 7) << 16);

static int AddThree(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->v_int64 = args[0].v_int64 + 3;
  return 0;
}

__attribute__((constructor)) static void Register(void) {
  TVMFFIObjectHandle f = 0;
  TVMFFIByteArray name = {"rejected.add_three", 18};
  if (TVMFFIFunctionCreate(0, AddThree, 0, &f) == 0) TVMFFIFunctionSetGlobal(&name, f, 1);
  TVMFFIObjectDecRef(f);
}
"""


def test_library_rejected_after_its_initialisers_stays_loaded(build_dir):
    path = build_library(build_dir, "rejected_after_init", REJECTED_AFTER_INIT, "c", link_ffi=True)
    code = (
        "import gc, sys, tvm_ffi\n"
        "try:\n"
        "    tvm_ffi.load_module(sys.argv[1])\n"
        "except RuntimeError as err:\n"
        "    assert 'ABI' in str(err), err\n"
        "gc.collect()\n"
        "print(tvm_ffi.get_global_func('rejected.add_three')(1))\n"
    )
    result = run_python(code, path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "4"


def test_import_cycles_are_refused_and_lookups_end(build_dir, cxx_library, c_library):
    copy = build_library(build_dir, "c_funcs_copy", C_LIBRARY, "c", link_ffi=True)
    code = (
        "import sys, tvm_ffi\n"
        "a, b, c = (tvm_ffi.load_module(p) for p in sys.argv[1:4])\n"
        "a.import_module(b); b.import_module(c)\n"
        "for x, y in [(b, a), (c, a)]:\n"
        "    try:\n"
        "        x.import_module(y)\n"
        "    except ValueError as err:\n"
        "        assert 'cycle' in str(err) and 'ModuleImportModule' in str(err), err\n"
        "    else:\n"
        "        raise AssertionError('a cycle of imports was accepted')\n"
        "a.import_module(c)  # a diamond is no cycle\n"
        "assert a.get_function('no_such', allow_missing=True) is None\n"
        "assert a['mul'](2, 3) == 6\n"
        "print('done')\n"
    )
    result = run_python(code, cxx_library, c_library, copy)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "done"
