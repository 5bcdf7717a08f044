// Shared declarations of the tvm_ffi._core binding: Python object layouts and conversions.
#ifndef TVM_FFI_PY_CORE_H_
#define TVM_FFI_PY_CORE_H_

#include <Python.h>
#include <tvm_ffi/ffi.h>

#include <atomic>
#include <cstdarg>
#include <memory>
#include <vector>

namespace tvm_ffi_py {

using tvm::ffi::Any;
using tvm::ffi::AnyView;

/*! Python face of every FFI object: a strong reference to its header. */
struct PyFFIObject {
  PyObject_HEAD TVMFFIObject* handle;
};

/*! Function adds the vectorcall slot, so calls skip tuple building. */
struct PyFFIFunction {
  PyFFIObject base;
  vectorcallfunc vectorcall;
  int release_gil;
};

struct PyFFIDevice {
  PyObject_HEAD DLDevice device;
};

/*!
 * The binding's Python types, made at import by NewType (types.cc) from a PyType_Spec each,
 * and never freed. Set by the Init*Type functions; the module fails to import otherwise.
 */
extern PyTypeObject* ObjectType;
extern PyTypeObject* FunctionType;
extern PyTypeObject* TensorType;
extern PyTypeObject* DeviceType;

/*! The handle a wrapper of ObjectType (or a subclass) holds: NULL when uninitialized; no checks. */
inline TVMFFIObject* WrappedHandle(PyObject* wrapper) {
  return reinterpret_cast<PyFFIObject*>(wrapper)->handle;
}

// ---- types (types.cc) ----
/*!
 * The one way the binding makes a Python type: a heap type from `spec` (with `base` as its
 * base when given), immutable as builtin types are, added to `module` (unless NULL) under
 * `spec`'s short name. Returns a strong reference the binding keeps, or NULL with an error.
 */
PyTypeObject* NewType(PyObject* module, PyType_Spec* spec, PyTypeObject* base);
int InitObjectTypes(PyObject* module);  // Object and FieldDescriptor (object.cc)
int InitFunctionType(PyObject* module);
int InitTensorType(PyObject* module);
int InitDeviceType(PyObject* module);
/*! Object's slots, shared by the types deriving from it in C (Function, Tensor). */
void ObjectDealloc(PyObject* self);
int ObjectTraverse(PyObject* self, visitproc visit, void* arg);
int ObjectClear(PyObject* self);

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
/*! Instances of `cls` (tvm_ffi.core.ObjectConvertible) convert as their asobject(). */
void SetObjectConvertibleClass(PyObject* cls);
/*! Describes what a Python value is for messages: its type's name. */
const char* PyTypeName(PyObject* obj);

// ---- object classes (object.cc) ----
void RegisterClass(int32_t type_index, PyObject* cls);
PyObject* ClassForTypeIndex(int32_t type_index);
/*! Sets a TypeError naming func unless Python objects of `type` may hold a handle of `type_index`.
 */
bool CheckHandleFits(PyTypeObject* type, int32_t type_index, const char* func);
void SetDTypeClass(PyObject* cls);
/*! The callables repr/copy/deepcopy/pickle of every Object go through (None: the default). */
void SetObjectHooks(PyObject* repr, PyObject* copy, PyObject* deepcopy, PyObject* reduce);
PyObject* DataTypeToPy(DLDataType dtype);

// ---- functions (function.cc) ----
PyObject* NewFunction(TVMFFIObject* handle);
/*! Function's static constructors over raw symbols (function_extern.cc). */
extern PyMethodDef function_extern_methods[];
/*! The keep_alive_object of a Function over a raw symbol, or NULL (borrowed). */
PyObject* ExternKeepAliveOf(const TVMFFIObject* function);
TVMFFIObject* FunctionFromPyCallable(PyObject* callable);
/*! The Python callable a Function runs, or NULL when its body is not a Python callable (borrowed).
 */
PyObject* PyCallbackOf(const TVMFFIObject* function);
/*! True when code at addr belongs to tvm-ffi itself (libtvm_ffi, tvm_ffi._core), not to another
 * library. */
bool IsTvmFfiCode(const void* addr);
/*! True, with RecursionError set (its message ending in `where`), when this thread's C stack is
 * nearly used up. */
bool CStackNearlyFull(const char* where);

// ---- errors (error.cc) ----
/*!
 * The binding's one error funnel. A failure becomes the pending Python exception, set by
 * SetError (a message of ours) or RaiseFFIError (the error an FFI call left on this thread),
 * never by a C++ exception thrown at Python. A C-API slot then returns NULL or -1; a function
 * bound with nanobind calls ThrowPending (module.cc), which hands nanobind that same exception.
 * Both return NULL so that a slot can `return SetError(...)`.
 */
PyObject* SetError(PyObject* type, const char* format, ...);
PyObject* SetErrorV(PyObject* type, const char* format, va_list args);
/*! Raises this thread's FFI error as a Python exception; returns NULL. */
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

// ---- the cyclic GC (gc.cc) ----
/*! tp_traverse for a wrapper holding `handle`: visits the Python objects only it holds through it.
 */
int TraverseHandle(const TVMFFIObject* handle, visitproc visit, void* arg);

// ---- py_class objects (dyn_object.cc) ----
/*! True, with the slots, when obj is an object of a Python-defined (py_class) type. */
bool DynObjectSlots(const TVMFFIObject* obj, const TVMFFIAny** slots, int64_t* num_slots);

// ---- opaque Python objects (opaque.cc) ----
TVMFFIObject* NewOpaquePyObject(PyObject* obj);
PyObject* OpaquePyObjectGet(TVMFFIObject* handle);

/*! True while the interpreter can still run Python code (not finalizing). */
inline bool PythonAlive() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsInitialized() && !Py_IsFinalizing();
#else
  return Py_IsInitialized() && !_Py_IsFinalizing();
#endif
}

/*!
 * Holds the GIL for a scope; free when this thread already holds it (the common case).
 * A thread without the GIL gets it only while the interpreter is not shutting down: during
 * finalisation PyGILState_Ensure ends the thread with a forced unwind, which a plugin's
 * `catch (...)` on the way turns into a crash. Check ok() before touching Python.
 */
class GILGuard {
 public:
  GILGuard() {
    if (TVM_FFI_LIKELY(!shutting_down.load(std::memory_order_acquire)) && PyGILState_Check())
      return;
    Acquire();
  }
  ~GILGuard() {
    if (TVM_FFI_UNLIKELY(state_ == kTaken)) Release();
  }
  GILGuard(const GILGuard&) = delete;
  GILGuard& operator=(const GILGuard&) = delete;
  /*! False when the GIL could not be taken (the interpreter is shutting down). */
  bool ok() const { return state_ != kRefused; }
  /*! For destructors: ok(), and the interpreter not finalising (its objects may be gone). */
  bool can_release() const {
    return ok() &&
           (TVM_FFI_LIKELY(!shutting_down.load(std::memory_order_acquire)) || PythonAlive());
  }

  /*! Set once an atexit hook ran (BeginShutdown). */
  static std::atomic<bool> shutting_down;

 private:
  void Acquire();  // the slow path, gil.cc
  void Release();
  enum State : char { kHeld, kTaken, kRefused };  // kTaken: this guard called PyGILState_Ensure
  State state_ = kHeld;
  PyGILState_STATE gstate_{};
};

/*! Called at interpreter exit (atexit): no thread takes the GIL from now on; waits for those
 * inside. */
void BeginShutdown();

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

}  // namespace tvm_ffi_py

#endif  // TVM_FFI_PY_CORE_H_
