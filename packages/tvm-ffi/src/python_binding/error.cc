// Errors across the boundary: FFI errors raised as Python exceptions and back again.
#include "core.h"

namespace tvm_ffi_py {
namespace {

// Python helpers from tvm_ffi.error, installed at import time.
PyObject* make_exception = nullptr;     // (kind, message, backtrace) -> exception with traceback
PyObject* kind_of_exception = nullptr;  // exception -> kind name
PyObject* format_traceback = nullptr;   // exception -> backtrace text (most recent call last)

std::string ToStdString(PyObject* str) {
  if (str == nullptr || !PyUnicode_Check(str)) return std::string();
  Py_ssize_t size;
  const char* data = PyUnicode_AsUTF8AndSize(str, &size);
  if (data == nullptr) {
    PyErr_Clear();
    return std::string();
  }
  return std::string(data, size);
}

/*! Calls a helper with one argument and returns its str result ("" when anything fails). */
std::string CallForText(PyObject* helper, PyObject* arg) {
  if (helper == nullptr) return std::string();
  PyObject* out = PyObject_CallOneArg(helper, arg);
  if (out == nullptr) {
    PyErr_Clear();
    return std::string();
  }
  std::string text = ToStdString(out);
  Py_DECREF(out);
  return text;
}

/*!
 * Sets exc.__tvm_ffi_error__ to a copy of err without its payload: err itself holds exc, and
 * a reference back from exc would be a cycle through C++ that Python's GC cannot see.
 */
void AttachErrorCopy(PyObject* exc, const tvm::ffi::Error& err) {
  try {
    tvm::ffi::Error copy(err.kind(), err.message(), err.backtrace());
    TVMFFIObject* header = tvm::ffi::details::ObjectUnsafe::GetHeader(copy.get());
    tvm::ffi::Object::IncRefHeader(header);
    PyObject* wrapper = WrapObject(header);
    if (wrapper == nullptr || PyObject_SetAttrString(exc, "__tvm_ffi_error__", wrapper) != 0)
      PyErr_Clear();
    Py_XDECREF(wrapper);
  } catch (const std::bad_alloc&) {
    // The exception still goes up, only without the attribute.
  }
}

}  // namespace

PyObject* SetErrorV(PyObject* type, const char* format, va_list args) {
  PyErr_FormatV(type, format, args);
  return nullptr;
}

PyObject* SetError(PyObject* type, const char* format, ...) {
  va_list args;
  va_start(args, format);
  SetErrorV(type, format, args);
  va_end(args);
  return nullptr;
}

void SetErrorHooks(PyObject* make, PyObject* kind_of, PyObject* format) {
  Py_XINCREF(make);
  Py_XINCREF(kind_of);
  Py_XINCREF(format);
  Py_XSETREF(make_exception, make);
  Py_XSETREF(kind_of_exception, kind_of);
  Py_XSETREF(format_traceback, format);
}

PyObject* RaiseFFIError() {
  TVMFFIObjectHandle handle = nullptr;
  TVMFFIErrorMoveFromRaised(&handle);
  if (handle == nullptr) {
    if (!PyErr_Occurred()) {
      SetError(PyExc_RuntimeError, "an FFI call failed without raising an error");
    }
    return nullptr;
  }
  tvm::ffi::Error err(tvm::ffi::details::ObjectUnsafe::FromOwnedHeader<tvm::ffi::Object>(
      static_cast<TVMFFIObject*>(handle)));
  // An exception that started in Python comes back as itself, with its own traceback.
  const Any& payload = err.get()->payload;
  if (payload.type_index() == kTVMFFIOpaquePyObject) {
    PyObject* exc = OpaquePyObjectGet(payload.raw()->v_obj);
    AttachErrorCopy(exc, err);
    PyObject* tb = PyException_GetTraceback(exc);
    Py_INCREF(exc);
    PyErr_Restore(reinterpret_cast<PyObject*>(Py_TYPE(exc)), exc, tb);
    Py_INCREF(Py_TYPE(exc));
    return nullptr;
  }
  if (make_exception == nullptr) {
    SetError(PyExc_RuntimeError, "%s: %s", err.kind().c_str(), err.message().c_str());
    return nullptr;
  }
  PyObject* kind = PyUnicode_DecodeUTF8(err.kind().data(), err.kind().size(), "replace");
  PyObject* message = PyUnicode_DecodeUTF8(err.message().data(), err.message().size(), "replace");
  PyObject* backtrace =
      PyUnicode_DecodeUTF8(err.backtrace().data(), err.backtrace().size(), "replace");
  PyObject* exc = nullptr;
  // The Error object itself goes along, so the exception can carry it as __tvm_ffi_error__.
  TVMFFIObject* header = tvm::ffi::details::ObjectUnsafe::GetHeader(err.get());
  tvm::ffi::Object::IncRefHeader(header);
  PyObject* err_obj = WrapObject(header);
  if (kind && message && backtrace && err_obj) {
    exc = PyObject_CallFunctionObjArgs(make_exception, kind, message, backtrace, err_obj, nullptr);
  }
  Py_XDECREF(kind);
  Py_XDECREF(message);
  Py_XDECREF(backtrace);
  Py_XDECREF(err_obj);
  if (exc == nullptr) return nullptr;
  if (!PyExceptionInstance_Check(exc)) {  // a broken hook must not raise a non-exception
    Py_DECREF(exc);
    SetError(PyExc_RuntimeError, "%s: %s", err.kind().c_str(), err.message().c_str());
    return nullptr;
  }
  PyObject* tb = PyException_GetTraceback(exc);
  PyObject* type = reinterpret_cast<PyObject*>(Py_TYPE(exc));
  Py_INCREF(type);
  PyErr_Restore(type, exc, tb);
  return nullptr;
}

void SetFFIErrorFromPython() {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (value == nullptr) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", "a Python callback failed without an exception");
    Py_XDECREF(type);
    Py_XDECREF(tb);
    return;
  }
  if (tb) PyException_SetTraceback(value, tb);
  std::string kind = CallForText(kind_of_exception, value);
  if (kind.empty()) kind = Py_TYPE(value)->tp_name;
  PyObject* msg = PyObject_Str(value);
  std::string message = ToStdString(msg);
  Py_XDECREF(msg);
  if (msg == nullptr) PyErr_Clear();
  std::string backtrace = CallForText(format_traceback, value);
  try {
    tvm::ffi::Error err(kind, message, backtrace);
    TVMFFIObject* opaque = NewOpaquePyObject(value);
    if (opaque) {
      err.get_mutable()->payload = Any(tvm::ffi::ObjectRef(
          tvm::ffi::details::ObjectUnsafe::FromOwnedHeader<tvm::ffi::Object>(opaque)));
    } else {
      PyErr_Clear();
    }
    tvm::ffi::details::SetRaised(err);
  } catch (...) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "out of memory while reporting a Python error");
  }
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
}

}  // namespace tvm_ffi_py
