// Shared declarations of the tvm_ffi._core binding: Python object layouts and conversions.
#ifndef TVM_FFI_PY_CORE_H_
#define TVM_FFI_PY_CORE_H_

#include <Python.h>
#include <tvm_ffi/ffi.h>

#include <memory>
#include <vector>

namespace tvm_ffi_py {

using tvm::ffi::Any;
using tvm::ffi::AnyView;

/*! Python face of every FFI object: a strong reference to its header. */
struct PyFFIObject {
  PyObject_HEAD
  TVMFFIObject* handle;
};

/*! Function adds the vectorcall slot, so calls skip tuple building. */
struct PyFFIFunction {
  PyFFIObject base;
  vectorcallfunc vectorcall;
  int release_gil;
};

struct PyFFIDevice {
  PyObject_HEAD
  DLDevice device;
};

extern PyTypeObject ObjectType;
extern PyTypeObject FunctionType;
extern PyTypeObject TensorType;
extern PyTypeObject DeviceType;

/*!
 * What converting call arguments creates: objects, released after the call, and byte-array
 * descriptors that long bytes arguments point at. The first few live inline (no allocation on
 * the common path); later ones get their own heap cells, so earlier pointers stay valid.
 */
class CallTemps {
 public:
  CallTemps() = default;
  CallTemps(const CallTemps&) = delete;
  CallTemps& operator=(const CallTemps&) = delete;
  ~CallTemps() {
    for (int i = 0; i < num_objects_; ++i) tvm::ffi::Object::DecRefHeader(objects_[i]);
    for (TVMFFIObject* obj : more_objects_) tvm::ffi::Object::DecRefHeader(obj);
  }
  void Own(TVMFFIObject* obj) {
    if (num_objects_ < kInline) {
      objects_[num_objects_++] = obj;
    } else {
      more_objects_.push_back(obj);
    }
  }
  TVMFFIByteArray* NewByteArray() {
    if (num_byte_arrays_ < kInline) return &byte_arrays_[num_byte_arrays_++];
    more_byte_arrays_.push_back(std::make_unique<TVMFFIByteArray>());
    return more_byte_arrays_.back().get();
  }

 private:
  static constexpr int kInline = 8;
  TVMFFIObject* objects_[kInline];
  int num_objects_ = 0;
  std::vector<TVMFFIObject*> more_objects_;
  TVMFFIByteArray byte_arrays_[kInline];
  int num_byte_arrays_ = 0;
  std::vector<std::unique_ptr<TVMFFIByteArray>> more_byte_arrays_;
};

// ---- conversion (convert.cc) ----
/*! Python -> borrowed view for a call; created objects go to temps. -1 with a Python error. */
int PyToAnyArg(PyObject* obj, TVMFFIAny* out, CallTemps* temps);
/*! Python -> owned value. -1 with a Python error set. */
int PyToAnyOwned(PyObject* obj, TVMFFIAny* out);
/*! Owned value -> new Python reference; consumes the value. NULL with a Python error. */
PyObject* AnyToPyOwned(TVMFFIAny* value);
/*! Borrowed view -> new Python reference. */
PyObject* AnyViewToPy(const TVMFFIAny* value);
/*! New Python wrapper of an object handle, taking over one strong reference. */
PyObject* WrapObject(TVMFFIObject* handle);
/*! Describes what a Python value is for messages: its type's name. */
const char* PyTypeName(PyObject* obj);

// ---- object classes (object.cc) ----
void RegisterClass(int32_t type_index, PyObject* cls);
PyObject* ClassForTypeIndex(int32_t type_index);
/*! Sets a TypeError naming func unless Python objects of `type` may hold a handle of `type_index`. */
bool CheckHandleFits(PyTypeObject* type, int32_t type_index, const char* func);
void SetDTypeClass(PyObject* cls);
PyObject* DataTypeToPy(DLDataType dtype);

// ---- functions (function.cc) ----
PyObject* NewFunction(TVMFFIObject* handle);
TVMFFIObject* FunctionFromPyCallable(PyObject* callable);
/*! True, with RecursionError set (its message ending in `where`), when this thread's C stack is nearly used up. */
bool CStackNearlyFull(const char* where);

// ---- errors (error.cc) ----
/*! Raises this thread's FFI error as a Python exception; returns NULL for convenience. */
PyObject* RaiseFFIError();
/*! Stores the current Python exception as this thread's FFI error. */
void SetFFIErrorFromPython();
void SetErrorHooks(PyObject* make_exception, PyObject* kind_of_exception,
                   PyObject* format_traceback);

// ---- tensors (tensor.cc) ----
/*! A Tensor handle (new reference) from any DLPack producer; NULL when obj is not one. */
TVMFFIObject* TensorFromDLPackProducer(PyObject* obj, int* is_producer);
bool IsDLPackProducer(PyObject* obj);
/*!
 * True, with BufferError set, when obj is a torch tensor that torch.from_dlpack semantics refuse
 * to share as raw values: it requires grad, or has its conjugate or negative bit set (torch's C
 * exchange API checks none of these). from_dlpack asks; argument conversion does not (the
 * queries cost more than the call, and kernels take parameters that require grad).
 */
bool RefusesTorchExport(PyObject* obj, TVMFFIObject* tensor);

// ---- opaque Python objects (opaque.cc) ----
TVMFFIObject* NewOpaquePyObject(PyObject* obj);
PyObject* OpaquePyObjectGet(TVMFFIObject* handle);

/*! Holds the GIL for a scope; free when this thread already holds it (the common case). */
class GILGuard {
 public:
  GILGuard() : held_(PyGILState_Check()) {
    if (!held_) state_ = PyGILState_Ensure();
  }
  ~GILGuard() {
    if (!held_) PyGILState_Release(state_);
  }
  GILGuard(const GILGuard&) = delete;

 private:
  int held_;
  PyGILState_STATE state_{};
};

/*! A new object of class T as an owned handle; NULL with MemoryError set when out of memory. */
template <typename T, typename... Args>
TVMFFIObject* NewObjectHandle(Args&&... args) {
  try {
    auto obj = tvm::ffi::make_object<T>(std::forward<Args>(args)...);
    return tvm::ffi::details::ObjectUnsafe::MoveToHeader(std::move(obj));
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
    return nullptr;
  }
}

/*! True while the interpreter can still run Python code (not finalizing). */
inline bool PythonAlive() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsInitialized() && !Py_IsFinalizing();
#else
  return Py_IsInitialized() && !_Py_IsFinalizing();
#endif
}

}  // namespace tvm_ffi_py

#endif  // TVM_FFI_PY_CORE_H_
