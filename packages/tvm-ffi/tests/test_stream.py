"""Streams: StreamContext / use_raw_stream / get_raw_stream and TVMFFIEnvSetStream/GetStream."""

import ctypes
import threading

import pytest
import tvm_ffi
from native_build import build_library

CPU = tvm_ffi.device("cpu:0")


def test_default_stream_is_zero_and_context_restores_it():
    assert tvm_ffi.get_raw_stream(CPU) == 0
    with tvm_ffi.use_raw_stream(CPU, 1234) as ctx:
        assert isinstance(ctx, tvm_ffi.StreamContext)
        assert tvm_ffi.get_raw_stream(CPU) == 1234
        assert tvm_ffi.get_raw_stream(tvm_ffi.device("cpu:1")) == 0  # per device
    assert tvm_ffi.get_raw_stream(CPU) == 0


def test_nested_contexts_and_explicit_enter_exit():
    with tvm_ffi.use_raw_stream(CPU, 1):
        with tvm_ffi.StreamContext(CPU, 2):
            assert tvm_ffi.get_raw_stream(CPU) == 2
        assert tvm_ffi.get_raw_stream(CPU) == 1
    ctx = tvm_ffi.StreamContext(CPU, 5)
    ctx.__enter__()
    assert tvm_ffi.get_raw_stream(CPU) == 5
    ctx.__exit__(None, None, None)
    assert tvm_ffi.get_raw_stream(CPU) == 0


def test_context_restores_on_exception():
    with pytest.raises(RuntimeError):
        with tvm_ffi.use_raw_stream(CPU, 9):
            raise RuntimeError("inside")
    assert tvm_ffi.get_raw_stream(CPU) == 0


def test_stream_is_thread_local():
    seen = []
    with tvm_ffi.use_raw_stream(CPU, 7):
        t = threading.Thread(target=lambda: seen.append(tvm_ffi.get_raw_stream(CPU)))
        t.start()
        t.join()
    assert seen == [0]


def test_full_pointer_range_and_c_void_p():
    with tvm_ffi.use_raw_stream(CPU, 2**64 - 1):
        assert tvm_ffi.get_raw_stream(CPU) == 2**64 - 1
    with tvm_ffi.use_raw_stream(CPU, ctypes.c_void_p(55)):
        assert tvm_ffi.get_raw_stream(CPU) == 55


@pytest.mark.parametrize(
    "device, stream, exc, match",
    [
        ("cpu", 1, TypeError, "use_raw_stream: argument `device` must be a tvm_ffi.Device"),
        (None, 1, TypeError, "argument `device`"),
        (CPU, "abc", ValueError, "only accepts int or c_void_p"),
        (CPU, None, ValueError, "only accepts int or c_void_p"),
        (CPU, 1.5, ValueError, "only accepts int or c_void_p"),
        (CPU, -1, OverflowError, "non-negative"),
        (CPU, 2**64, OverflowError, "64 bits"),
    ],
)
def test_use_raw_stream_bad_input(device, stream, exc, match):
    with pytest.raises(exc, match=match):
        tvm_ffi.use_raw_stream(device, stream)


def test_get_raw_stream_bad_device():
    with pytest.raises(TypeError, match="get_raw_stream: argument `device`"):
        tvm_ffi.get_raw_stream("cpu:0")


def test_use_torch_stream_without_cuda():
    torch = pytest.importorskip("torch", reason="use_torch_stream needs torch")
    if torch.cuda.is_available():
        stream = torch.cuda.Stream()
        with tvm_ffi.use_torch_stream(torch.cuda.stream(stream)):
            assert (
                tvm_ffi.get_raw_stream(tvm_ffi.device("cuda", stream.device.index))
                == stream.cuda_stream
            )
    else:
        with pytest.raises(RuntimeError, match="no CUDA device"):
            with tvm_ffi.use_torch_stream():
                pass


STREAM_PLUGIN = r"""
#include <tvm_ffi/c_api.h>
#include <tvm_ffi/function.h>
#include <cstdint>

// Reads the current CPU stream the way a kernel would, and sets one for another device.
int64_t CurrentStream(int32_t device_id) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(TVMFFIEnvGetStream(kDLCPU, device_id)));
}
int64_t SetStream(int32_t device_id, int64_t value) {
  TVMFFIStreamHandle previous = nullptr;
  TVMFFIEnvSetStream(kDLCPU, device_id, reinterpret_cast<TVMFFIStreamHandle>(value), &previous);
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(previous));
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(current_stream, CurrentStream);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(set_stream, SetStream);
"""


def test_cxx_plugin_reads_and_sets_the_stream(tmp_path):
    lib = tvm_ffi.load_module(
        build_library(tmp_path, "stream_plugin", STREAM_PLUGIN, "c++", link_ffi=True)
    )
    assert lib.current_stream(0) == 0
    with tvm_ffi.use_raw_stream(CPU, 4242):
        assert lib.current_stream(0) == 4242
        assert lib.current_stream(1) == 0
    assert lib.current_stream(0) == 0
    dev3 = tvm_ffi.device("cpu", 3)
    assert lib.set_stream(3, 77) == 0
    assert tvm_ffi.get_raw_stream(dev3) == 77
    assert lib.set_stream(3, 0) == 77
    assert tvm_ffi.get_raw_stream(dev3) == 0
