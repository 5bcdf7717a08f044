// GILGuard: taking the GIL from native threads, and refusing to once the interpreter shuts down.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "core.h"

namespace tvm_ffi_py {
namespace {

std::atomic<bool> shutting_down{false};
std::thread::id finalizer;  // the thread that runs the exit; written before shutting_down is set
std::mutex mu;
std::condition_variable drained;
int taking = 0;  // threads between PyGILState_Ensure and PyGILState_Release; guarded by mu

/*! How long exit waits for callbacks in flight on other threads to return. */
constexpr auto kDrainTimeout = std::chrono::seconds(2);

bool OtherThreadDuringShutdown() {
  return shutting_down.load(std::memory_order_acquire) && std::this_thread::get_id() != finalizer;
}

}  // namespace

GILGuard::GILGuard() {
  // Before PyGILState_Check: once finalised, it answers "held" to every thread.
  if (OtherThreadDuringShutdown()) {
    held_ = false;
    ok_ = false;
    return;
  }
  held_ = PyGILState_Check();
  if (held_) return;
  {
    std::lock_guard<std::mutex> lock(mu);
    // Checked under the lock: BeginShutdown then waits for every thread that got past it.
    if (shutting_down.load() || !PythonAlive()) {
      ok_ = false;
      return;
    }
    ++taking;
  }
  state_ = PyGILState_Ensure();
}

GILGuard::~GILGuard() {
  if (held_ || !ok_) return;
  PyGILState_Release(state_);
  std::lock_guard<std::mutex> lock(mu);
  if (--taking == 0) drained.notify_all();
}

void BeginShutdown() {
  {
    std::lock_guard<std::mutex> lock(mu);
    finalizer = std::this_thread::get_id();
    shutting_down.store(true, std::memory_order_release);
  }
  // Threads already waiting for the GIL would take it after finalisation started and be
  // ended mid-callback: let them run to the end of their callback first.
  Py_BEGIN_ALLOW_THREADS;
  {
    std::unique_lock<std::mutex> lock(mu);
    drained.wait_for(lock, kDrainTimeout, [] { return taking == 0; });
  }
  Py_END_ALLOW_THREADS;
}

}  // namespace tvm_ffi_py
