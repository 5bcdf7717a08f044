// The Function type (called through vectorcall) and Python callables exposed as Functions.
#if defined(__linux__) || defined(__APPLE__)
#include <pthread.h>
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>

#include "core.h"

#if PY_VERSION_HEX < 0x030C0000
#include <structmember.h>  // T_PYSSIZET, READONLY: named Py_T_PYSSIZET, Py_READONLY from 3.12
#define Py_T_PYSSIZET T_PYSSIZET
#define Py_READONLY READONLY
#endif

namespace tvm_ffi_py {
namespace {

constexpr Py_ssize_t kStackArgs = 8;

/*!
 * Adds the argument's position to the pending conversion error as a PEP 678 note, keeping the
 * exception object itself: its class, attributes (errno, a custom code) and SystemExit's status.
 */
void NoteArgumentError(Py_ssize_t i) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (value != nullptr && PyExceptionInstance_Check(value)) {
    if (tb) PyException_SetTraceback(value, tb);
    // What BaseException.add_note does (3.11+); on 3.10 the note travels unprinted.
    PyObject* note =
        PyUnicode_FromFormat("while converting argument %zd of an FFI function call", i);
    PyObject* notes = note ? PyObject_GetAttrString(value, "__notes__") : nullptr;
    if (note && notes == nullptr && PyErr_ExceptionMatches(PyExc_AttributeError)) {
      PyErr_Clear();
      notes = PyList_New(0);
      if (notes && PyObject_SetAttrString(value, "__notes__", notes) != 0) Py_CLEAR(notes);
    }
    if (notes && PyList_Check(notes)) PyList_Append(notes, note);
    Py_XDECREF(notes);
    Py_XDECREF(note);
    PyErr_Clear();  // a note that cannot be added must not replace the error itself
  }
  PyErr_Restore(type, value, tb);
}

/*! The call path: convert straight into a stack array of Any and call the function pointer. */
TVM_FFI_INLINE PyObject* CallFunction(PyObject* self, PyObject* const* args, size_t nargsf,
                                      PyObject* kwnames) {
  auto* f = reinterpret_cast<PyFFIFunction*>(self);
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (TVM_FFI_UNLIKELY(kwnames != nullptr && PyTuple_GET_SIZE(kwnames) != 0)) {
    SetError(PyExc_TypeError, "FFI functions take positional arguments only");
    return nullptr;
  }
  TVMFFIAny stack[kStackArgs];
  std::vector<TVMFFIAny> heap;
  TVMFFIAny* values = stack;
  if (nargs > kStackArgs) {
    heap.resize(nargs);
    values = heap.data();
  }
  CallTemps temps;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    if (TVM_FFI_UNLIKELY(PyToAnyArg(args[i], &values[i], &temps) != 0)) {
      NoteArgumentError(i);
      return nullptr;
    }
  }
  TVMFFIAny result;
  tvm::ffi::details::InitNone(&result);
  if (TVM_FFI_UNLIKELY(f->base.handle == nullptr)) {
    SetError(PyExc_ValueError, "Function is not initialized (its handle was moved out)");
    return nullptr;
  }
  TVMFFIFunctionCell* cell = TVMFFIFunctionGetCell(f->base.handle);
  int ret;
  if (f->release_gil) {
    Py_BEGIN_ALLOW_THREADS;
    ret = cell->safe_call(cell->self, values, static_cast<int32_t>(nargs), &result);
    Py_END_ALLOW_THREADS;
  } else {
    ret = cell->safe_call(cell->self, values, static_cast<int32_t>(nargs), &result);
  }
  if (TVM_FFI_UNLIKELY(ret != 0)) return RaiseFFIError();
  if (result.type_index == kTVMFFINone) Py_RETURN_NONE;
  return AnyToPyOwned(&result);
}

/*! Out of memory for the argument buffers is a MemoryError: no C++ exception crosses into Python.
 */
PyObject* Function_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf,
                              PyObject* kwnames) {
  try {
    return CallFunction(self, args, nargsf, kwnames);
  } catch (const std::bad_alloc&) {
    return PyErr_NoMemory();
  }
}

PyObject* Function_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject* callable = nullptr;
  static const char* kwlist[] = {"func", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:Function", const_cast<char**>(kwlist),
                                   &callable)) {
    return nullptr;
  }
  if (PyObject_TypeCheck(callable, FunctionType)) {
    Py_INCREF(callable);
    return callable;
  }
  if (!PyCallable_Check(callable)) {
    SetError(PyExc_TypeError, "Function: argument `func` must be callable, got %s",
             Py_TYPE(callable)->tp_name);
    return nullptr;
  }
  TVMFFIObject* handle = FunctionFromPyCallable(callable);
  if (handle == nullptr) return nullptr;
  return NewFunction(handle);
}

PyObject* Function_get_release_gil(PyObject* self, void*) {
  return PyBool_FromLong(reinterpret_cast<PyFFIFunction*>(self)->release_gil);
}

int Function_set_release_gil(PyObject* self, PyObject* value, void*) {
  if (value == nullptr) {
    SetError(PyExc_AttributeError, "release_gil cannot be deleted");
    return -1;
  }
  int flag = PyObject_IsTrue(value);
  if (flag < 0) return -1;
  reinterpret_cast<PyFFIFunction*>(self)->release_gil = flag;
  return 0;
}

PyGetSetDef function_getset[] = {
    {"release_gil", Function_get_release_gil, Function_set_release_gil,
     "Whether calls release the GIL while the native code runs (for long-running calls).", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

// Where instances keep their vectorcall function: calls skip building an argument tuple.
PyMemberDef function_members[] = {{"__vectorcalloffset__", Py_T_PYSSIZET,
                                   offsetof(PyFFIFunction, vectorcall), Py_READONLY, nullptr},
                                  {nullptr, 0, 0, 0, nullptr}};

PyType_Slot function_slots[] = {
    {Py_tp_new, reinterpret_cast<void*>(Function_new)},
    {Py_tp_dealloc, reinterpret_cast<void*>(ObjectDealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(ObjectTraverse)},
    {Py_tp_clear, reinterpret_cast<void*>(ObjectClear)},
    {Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
    {Py_tp_members, function_members},
    {Py_tp_getset, function_getset},
    {Py_tp_methods, function_extern_methods},
    {Py_tp_doc,
     const_cast<char*>("A callable FFI function. Function(callable) wraps a Python callable.")},
    {0, nullptr}};

PyType_Spec function_spec = {"tvm_ffi.core.Function", sizeof(PyFFIFunction), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
                             function_slots};

// ---------------- Python callables as Functions ----------------
int CallPyCallback(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result);

/*! A safe call never throws: out of memory for the argument buffer is reported as MemoryError. */
int PyCallbackSafeCall(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  try {
    return CallPyCallback(self, args, num_args, result);
  } catch (const std::bad_alloc&) {
    GILGuard gil;
    PyErr_NoMemory();
    SetFFIErrorFromPython();
    return -1;
  }
}

int CallPyCallback(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  GILGuard gil;
  if (!gil.ok()) {
    TVMFFIErrorSetRaisedFromCStr(
        "RuntimeError", "cannot call a Python callback: the Python interpreter is shutting down");
    return -1;
  }
  // Python -> FFI -> Python recursion uses the C stack, which Python's recursion limit does not
  // watch.
  if (CStackNearlyFull(" in a Python callback called through the FFI")) {
    SetFFIErrorFromPython();
    return -1;
  }
  PyObject* callable = static_cast<PyObject*>(self);
  PyObject* stack[kStackArgs + 1];
  std::vector<PyObject*> heap;
  PyObject** py_args = stack + 1;  // one spare slot in front for PY_VECTORCALL_ARGUMENTS_OFFSET
  if (num_args > kStackArgs) {
    heap.resize(num_args + 1);
    py_args = heap.data() + 1;
  }
  int32_t converted = 0;
  int ret = 0;
  for (; converted < num_args; ++converted) {
    py_args[converted] = AnyViewToPy(&args[converted]);
    if (py_args[converted] == nullptr) {
      ret = -1;
      break;
    }
  }
  if (ret == 0) {
    PyObject* out =
        PyObject_Vectorcall(callable, py_args, num_args | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
    if (out == nullptr) {
      ret = -1;
    } else {
      ret = PyToAnyOwned(out, result);
      Py_DECREF(out);
    }
  }
  for (int32_t i = 0; i < converted; ++i) Py_DECREF(py_args[i]);
  if (ret != 0) SetFFIErrorFromPython();
  return ret;
}

/*! A Function whose body is a Python callable, built in place: no C-API detour, one allocation. */
class PyCallbackFunctionObj : public tvm::ffi::FunctionObj {
 public:
  explicit PyCallbackFunctionObj(PyObject* callable) {
    Py_INCREF(callable);
    cell.safe_call = PyCallbackSafeCall;
    cell.self = callable;
  }
  ~PyCallbackFunctionObj() {
    GILGuard gil;
    if (gil.can_release()) Py_DECREF(static_cast<PyObject*>(cell.self));
  }
};

/*! The lowest address this thread's stack may grow down to; 0 when unknown. */
uintptr_t StackLimit() {
  uintptr_t low = 0;
  size_t size = 0;
#if defined(__linux__)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  void* addr = nullptr;
  if (pthread_attr_getstack(&attr, &addr, &size) == 0) low = reinterpret_cast<uintptr_t>(addr);
  pthread_attr_destroy(&attr);
#elif defined(__APPLE__)
  size = pthread_get_stacksize_np(pthread_self());
  low = reinterpret_cast<uintptr_t>(pthread_get_stackaddr_np(pthread_self())) - size;
#endif
  if (low == 0) return 0;
  // Keep a reserve for the code that runs before the next check: 256 KiB, less on small stacks.
  return low + std::min<size_t>(size / 4, 256 * 1024);
}

}  // namespace

bool CStackNearlyFull(const char* where) {
  thread_local uintptr_t limit = StackLimit();
  char probe;
  if (limit == 0 || reinterpret_cast<uintptr_t>(&probe) > limit) return false;
  SetError(PyExc_RecursionError, "maximum recursion depth exceeded%s (the C stack is nearly full)",
           where);
  return true;
}

PyTypeObject* FunctionType = nullptr;

int InitFunctionType(PyObject* module) {
  FunctionType = NewType(module, &function_spec, ObjectType);
  return FunctionType != nullptr ? 0 : -1;
}

PyObject* NewFunction(TVMFFIObject* handle) {
  auto* f = PyObject_GC_New(PyFFIFunction, FunctionType);
  if (f == nullptr) {
    tvm::ffi::Object::DecRefHeader(handle);
    return nullptr;
  }
  f->base.handle = handle;
  f->vectorcall = Function_vectorcall;
  // By what the function is, never by how it was found (registry, module, return value): code
  // from another library may block on threads of its own that call back into Python, so it
  // runs without the GIL; tvm-ffi's own functions and Python callbacks keep it (cheaper).
  f->release_gil =
      !IsTvmFfiCode(reinterpret_cast<const void*>(TVMFFIFunctionGetCell(handle)->safe_call));
  PyObject_GC_Track(f);
  return reinterpret_cast<PyObject*>(f);
}

PyObject* PyCallbackOf(const TVMFFIObject* function) {
  const TVMFFIFunctionCell* cell = TVMFFIFunctionGetCell(const_cast<TVMFFIObject*>(function));
  return cell->safe_call == PyCallbackSafeCall ? static_cast<PyObject*>(cell->self) : nullptr;
}

TVMFFIObject* FunctionFromPyCallable(PyObject* callable) {
  return NewObjectHandle<PyCallbackFunctionObj>(callable);
}

}  // namespace tvm_ffi_py
