// GILGuard's slow path: taking the GIL from native threads, and refusing to once Python exits.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "core.h"

namespace tvm_ffi_py {
namespace {

std::thread::id finalizer;  // the thread that runs the exit; written before shutting_down is set
std::mutex mu;
std::condition_variable drained;
int taking = 0;  // threads between PyGILState_Ensure and PyGILState_Release; guarded by mu

/*! How long exit waits for callbacks in flight on other threads to return. */
constexpr auto kDrainTimeout = std::chrono::seconds(2);

bool OtherThreadDuringShutdown() {
  return GILGuard::shutting_down.load(std::memory_order_acquire) &&
         std::this_thread::get_id() != finalizer;
}

}  // namespace

std::atomic<bool> GILGuard::shutting_down{false};

void GILGuard::Acquire() {
  // Only the exiting thread may go on. Other threads must not even ask PyGILState_Check:
  // once finalised, it answers "held" to every thread.
  if (OtherThreadDuringShutdown()) {
    state_ = kRefused;
    return;
  }
  if (PyGILState_Check()) return;
  {
    std::lock_guard<std::mutex> lock(mu);
    // Checked under the lock: BeginShutdown then waits for every thread that got past it.
    if (OtherThreadDuringShutdown() || !PythonAlive()) {
      state_ = kRefused;
      return;
    }
    ++taking;
  }
  gstate_ = PyGILState_Ensure();
  state_ = kTaken;
}

void GILGuard::Release() {
  PyGILState_Release(gstate_);
  std::lock_guard<std::mutex> lock(mu);
  if (--taking == 0) drained.notify_all();
}

void BeginShutdown() {
  {
    std::lock_guard<std::mutex> lock(mu);
    finalizer = std::this_thread::get_id();
    GILGuard::shutting_down.store(true, std::memory_order_release);
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
