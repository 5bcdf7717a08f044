// The per-thread current work stream of each device (TVMFFIEnvSetStream / TVMFFIEnvGetStream).
#include <tvm_ffi/ffi.h>

#include <cstdint>
#include <unordered_map>

namespace tvm {
namespace ffi {
namespace {

// Thread-local like upstream: a stream set on one thread never leaks into kernels on another.
std::unordered_map<uint64_t, TVMFFIStreamHandle>& CurrentStreams() {
  thread_local std::unordered_map<uint64_t, TVMFFIStreamHandle> streams;
  return streams;
}

uint64_t DeviceKey(int32_t device_type, int32_t device_id) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(device_type)) << 32) |
         static_cast<uint32_t>(device_id);
}

// Python passes a pointer-sized handle as int64; the bits are the pointer.
TVMFFIStreamHandle HandleFromInt(int64_t value) {
  return reinterpret_cast<TVMFFIStreamHandle>(static_cast<uintptr_t>(value));
}

int64_t HandleToInt(TVMFFIStreamHandle handle) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(handle));
}

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef()
      .def("ffi.EnvSetStream",
           [](int32_t device_type, int32_t device_id, int64_t stream) {
             TVMFFIStreamHandle previous = nullptr;
             TVMFFIEnvSetStream(device_type, device_id, HandleFromInt(stream), &previous);
             return HandleToInt(previous);
           })
      .def("ffi.EnvGetStream", [](int32_t device_type, int32_t device_id) {
        return HandleToInt(TVMFFIEnvGetStream(device_type, device_id));
      });
});

}  // namespace
}  // namespace ffi
}  // namespace tvm

int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id, TVMFFIStreamHandle stream,
                       TVMFFIStreamHandle* opt_out_original_stream) {
  TVM_FFI_SAFE_CALL_BEGIN();
  auto& streams = tvm::ffi::CurrentStreams();
  uint64_t key = tvm::ffi::DeviceKey(device_type, device_id);
  auto it = streams.find(key);
  if (opt_out_original_stream != nullptr) {
    *opt_out_original_stream = it == streams.end() ? nullptr : it->second;
  }
  if (stream == nullptr) {
    if (it != streams.end()) streams.erase(it);
  } else if (it != streams.end()) {
    it->second = stream;
  } else {
    streams.emplace(key, stream);
  }
  TVM_FFI_SAFE_CALL_END();
}

TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id) {
  auto& streams = tvm::ffi::CurrentStreams();
  auto it = streams.find(tvm::ffi::DeviceKey(device_type, device_id));
  return it == streams.end() ? nullptr : it->second;
}
