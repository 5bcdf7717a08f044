// Function.__from_extern_c__ / __from_mlir_packed_safe_call__: Functions over raw C symbols
// (a JIT's output, a symbol of a loaded library), optionally keeping a Python object alive.
#include <cstdint>
#include <new>
#include <string>

#include "core.h"

namespace tvm_ffi_py {
namespace {

using MlirPackedCall = void (*)(void**);

/*! What a Function over a raw symbol owns: the symbol and the object to keep alive. */
struct ExternState {
  TVMFFISafeCallType c_call = nullptr;
  MlirPackedCall mlir = nullptr;
  PyObject* keep_alive = nullptr;
};

void ExternStateDeleter(void* self) {
  auto* state = static_cast<ExternState*>(self);
  if (state->keep_alive != nullptr) {
    GILGuard gil;
    if (gil.can_release()) Py_DECREF(state->keep_alive);
  }
  delete state;
}

/*!
 * A C symbol called through its state, so that the cyclic GC can find the keep-alive object
 * from the Function (a keep-alive object holding its own Function is then collected).
 */
int ExternCTrampoline(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  return static_cast<ExternState*>(self)->c_call(self, args, num_args, result);
}

/*! The calling convention over MLIR's: one array of pointers to (self, args, n, result, rc). */
int MlirTrampoline(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  void* handle = self;
  int rc = 0;
  void* packed[5] = {&handle, &args, &num_args, &result, &rc};
  static_cast<ExternState*>(self)->mlir(packed);
  return rc;
}

/*! The symbol address of argument `name`: a positive int, else TypeError / ValueError. */
void* SymbolAddress(PyObject* value, const char* func, const char* name) {
  if (!PyLong_Check(value) || PyBool_Check(value)) {
    SetError(PyExc_TypeError, "Function.%s: argument `%s` must be an int address, got %s", func,
             name, Py_TYPE(value)->tp_name);
    return nullptr;
  }
  unsigned long long address = PyLong_AsUnsignedLongLong(value);
  if (PyErr_Occurred() || address == 0) {
    PyErr_Clear();
    SetError(PyExc_ValueError, "Function.%s: argument `%s` must be a non-null address", func, name);
    return nullptr;
  }
  return reinterpret_cast<void*>(static_cast<uintptr_t>(address));
}

PyObject* FromSymbol(PyObject* args, PyObject* kwargs, const char* func, bool mlir) {
  static const char* keywords[] = {"", "keep_alive_object", nullptr};
  PyObject* symbol;
  PyObject* keep_alive = Py_None;
  std::string format = std::string("O|$O:") + func;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, format.c_str(), const_cast<char**>(keywords),
                                   &symbol, &keep_alive)) {
    return nullptr;
  }
  void* address = SymbolAddress(symbol, func, mlir ? "mlir_packed_symbol" : "c_symbol");
  if (address == nullptr) return nullptr;
  auto* state = new (std::nothrow) ExternState();
  if (state == nullptr) return PyErr_NoMemory();
  if (keep_alive != Py_None) {
    Py_INCREF(keep_alive);
    state->keep_alive = keep_alive;
  }
  TVMFFISafeCallType call;
  if (mlir) {
    state->mlir = reinterpret_cast<MlirPackedCall>(address);
    call = MlirTrampoline;
  } else if (state->keep_alive != nullptr) {
    state->c_call = reinterpret_cast<TVMFFISafeCallType>(address);
    call = ExternCTrampoline;
  } else {
    call = reinterpret_cast<TVMFFISafeCallType>(address);
  }
  TVMFFIObjectHandle handle = nullptr;
  if (TVMFFIFunctionCreate(state, call, ExternStateDeleter, &handle) != 0) {
    ExternStateDeleter(state);
    return RaiseFFIError();
  }
  PyObject* function = NewFunction(static_cast<TVMFFIObject*>(handle));
  // Decided by the symbol, not by the trampoline (which lies in this module): code from
  // another library runs without the GIL, as every Function over such code does.
  if (function != nullptr) {
    reinterpret_cast<PyFFIFunction*>(function)->release_gil = !IsTvmFfiCode(address);
  }
  return function;
}

PyObject* FromExternC(PyObject*, PyObject* args, PyObject* kwargs) {
  return FromSymbol(args, kwargs, "__from_extern_c__", false);
}

PyObject* FromMlirPacked(PyObject*, PyObject* args, PyObject* kwargs) {
  return FromSymbol(args, kwargs, "__from_mlir_packed_safe_call__", true);
}

}  // namespace

PyObject* ExternKeepAliveOf(const TVMFFIObject* function) {
  const TVMFFIFunctionCell* cell = TVMFFIFunctionGetCell(const_cast<TVMFFIObject*>(function));
  if (cell->safe_call != ExternCTrampoline && cell->safe_call != MlirTrampoline) return nullptr;
  return static_cast<ExternState*>(cell->self)->keep_alive;
}

PyMethodDef function_extern_methods[] = {
    {"__from_extern_c__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(FromExternC)),
     METH_VARARGS | METH_KEYWORDS | METH_STATIC,
     "__from_extern_c__(c_symbol, *, keep_alive_object=None): a Function calling the C symbol at "
     "address "
     "c_symbol (the TVMFFISafeCallType convention)"},
    {"__from_mlir_packed_safe_call__",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(FromMlirPacked)),
     METH_VARARGS | METH_KEYWORDS | METH_STATIC,
     "__from_mlir_packed_safe_call__(mlir_packed_symbol, *, keep_alive_object=None): a Function "
     "calling an "
     "MLIR packed-interface symbol"},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace tvm_ffi_py
