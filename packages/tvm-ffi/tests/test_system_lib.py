"""system_lib(): the process-wide module of TVMFFIEnvModRegisterSystemLibSymbol's symbols."""

import pytest
import tvm_ffi
from native_build import build_library

# A library that registers two symbols at load time instead of exporting them.
REGISTERING_PLUGIN = r"""
#include <tvm_ffi/c_api.h>
#include <tvm_ffi/function.h>

static int AddOne(void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  if (num_args != 1 || args[0].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "syslib_add_one: expects one int");
    return -1;
  }
  result->type_index = kTVMFFIInt;
  result->v_int64 = args[0].v_int64 + 1;
  return 0;
}

static int Prefixed(void*, const TVMFFIAny*, int32_t, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->v_int64 = 7;
  return 0;
}

static int registered = [] {
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_syslib_add_one", reinterpret_cast<void*>(AddOne));
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_pre_syslib_seven",
                                      reinterpret_cast<void*>(Prefixed));
  return 0;
}();

int64_t Loaded() { return registered; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(loaded, Loaded);
"""


@pytest.fixture(scope="module")
def registered(tmp_path_factory):
    path = build_library(
        tmp_path_factory.mktemp("syslib"), "syslib_plugin", REGISTERING_PLUGIN, "c++", link_ffi=True
    )
    return tvm_ffi.load_module(path)


def test_registered_symbols_are_functions_of_the_system_lib(registered):
    lib = tvm_ffi.system_lib()
    assert isinstance(lib, tvm_ffi.Module)
    assert lib.syslib_add_one(41) == 42
    assert lib["syslib_add_one"](1) == 2
    with pytest.raises(TypeError, match="syslib_add_one: expects one int"):
        lib.syslib_add_one("x")


def test_prefix_is_tried_first_then_the_bare_name(registered):
    pre = tvm_ffi.system_lib("pre_")
    assert pre.syslib_seven() == 7  # __tvm_ffi_pre_syslib_seven
    assert pre.syslib_add_one(1) == 2  # falls back to __tvm_ffi_syslib_add_one
    assert tvm_ffi.system_lib().get_function("syslib_seven", allow_missing=True) is None


def test_one_module_per_prefix():
    a, b = tvm_ffi.system_lib("p_"), tvm_ffi.system_lib("p_")
    assert a.__ffi_handle__ == b.__ffi_handle__
    assert tvm_ffi.system_lib().__ffi_handle__ != a.__ffi_handle__


def test_missing_symbol_and_bad_prefix():
    with pytest.raises(AttributeError, match="no function 'no_such_symbol'"):
        _ = tvm_ffi.system_lib().no_such_symbol
    with pytest.raises(TypeError, match="system_lib: argument `symbol_prefix` must be a str"):
        tvm_ffi.system_lib(5)
