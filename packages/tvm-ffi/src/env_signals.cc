// TVMFFIEnvCheckSignals / TVMFFIEnvRegisterCAPI: native loops ask the surrounding environment
// (Python) whether a signal such as Ctrl-C is pending, through a hook it registered by name.
#include <tvm_ffi/ffi.h>

#include <atomic>
#include <cstring>

namespace {
using CheckSignalsFn = int (*)();
using GILEnsureFn = void* (*)();
using GILReleaseFn = void (*)(void*);

std::atomic<CheckSignalsFn> check_signals{nullptr};
std::atomic<GILEnsureFn> gil_ensure{nullptr};
std::atomic<GILReleaseFn> gil_release{nullptr};
}  // namespace

int TVMFFIEnvRegisterCAPI(const char* name, void* symbol) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (name == nullptr)
    TVM_FFI_THROW(ValueError) << "TVMFFIEnvRegisterCAPI: argument `name` must not be NULL";
  if (std::strcmp(name, "PyErr_CheckSignals") == 0) {
    check_signals.store(reinterpret_cast<CheckSignalsFn>(symbol), std::memory_order_release);
  } else if (std::strcmp(name, "PyGILState_Ensure") == 0) {
    gil_ensure.store(reinterpret_cast<GILEnsureFn>(symbol), std::memory_order_release);
  } else if (std::strcmp(name, "PyGILState_Release") == 0) {
    gil_release.store(reinterpret_cast<GILReleaseFn>(symbol), std::memory_order_release);
  } else {
    TVM_FFI_THROW(ValueError)
        << "TVMFFIEnvRegisterCAPI: unknown environment API `" << name
        << "` (known: PyErr_CheckSignals, PyGILState_Ensure, PyGILState_Release)";
  }
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIEnvCheckSignals(void) {
  CheckSignalsFn check = check_signals.load(std::memory_order_acquire);
  if (check == nullptr) return 0;
  GILEnsureFn ensure = gil_ensure.load(std::memory_order_acquire);
  GILReleaseFn release = gil_release.load(std::memory_order_acquire);
  void* state = ensure != nullptr && release != nullptr ? ensure() : nullptr;
  int rc = check();
  if (ensure != nullptr && release != nullptr) release(state);
  return rc == 0 ? 0 : -1;
}
