"""Functions over raw C symbols: keep-alive cycles collected, the GIL released for foreign code."""

import ctypes
import gc
import weakref

import pytest
import tvm_ffi
from native_build import build_library
from tvm_ffi import testing as t

_FOREIGN = """
#include <stdint.h>
int c_add_two(void* self, const int64_t* args, int32_t n, int64_t* result) {
  (void)self; (void)n;
  /* A TVMFFIAny is two 8-byte words: type index (kTVMFFIInt = 1, padding 0), payload. */
  result[0] = 1;
  result[1] = args[1] + 2;
  return 0;
}
void mlir_add_two(void** packed) {
  *(int*)packed[4] = c_add_two(*(void**)packed[0], *(const int64_t**)packed[1],
                               *(int32_t*)packed[2], *(int64_t**)packed[3]);
}
"""


class _Engine:
    """Stands in for a JIT engine that caches the Functions it made (keep_alive_object=self)."""


@pytest.mark.parametrize(
    "make",
    [
        lambda keep: tvm_ffi.Function.__from_extern_c__(
            t.get_add_one_c_symbol(), keep_alive_object=keep
        ),
        lambda keep: tvm_ffi.Function.__from_mlir_packed_safe_call__(
            t.get_mlir_add_one_c_symbol(), keep_alive_object=keep
        ),
    ],
    ids=["extern_c", "mlir"],
)
def test_keep_alive_object_holding_its_function_is_collected(make):
    engine = _Engine()
    engine.fn = make(engine)
    assert engine.fn(1) == 2
    alive = weakref.ref(engine)
    del engine
    gc.collect()
    assert alive() is None  # the cycle engine -> Function -> engine was leaked before


def test_functions_over_foreign_symbols_release_the_gil(tmp_path):
    lib = ctypes.CDLL(str(build_library(tmp_path, "foreign_sym", _FOREIGN, "c")))
    c_addr = ctypes.cast(lib.c_add_two, ctypes.c_void_p).value
    mlir_addr = ctypes.cast(lib.mlir_add_two, ctypes.c_void_p).value
    made = [
        tvm_ffi.Function.__from_extern_c__(c_addr),
        tvm_ffi.Function.__from_extern_c__(c_addr, keep_alive_object=lib),
        tvm_ffi.Function.__from_mlir_packed_safe_call__(mlir_addr),
        tvm_ffi.Function.__from_mlir_packed_safe_call__(mlir_addr, keep_alive_object=lib),
    ]
    for f in made:
        assert f(40) == 42
        assert f.release_gil is True  # foreign code, as any Function over another library's code
    own = tvm_ffi.Function.__from_mlir_packed_safe_call__(t.get_mlir_add_one_c_symbol())
    assert own.release_gil is False
