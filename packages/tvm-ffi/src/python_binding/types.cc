// NewType: how every Python type of the binding is made (from a PyType_Spec, as a heap type).
#include <cstring>

#include "core.h"

namespace tvm_ffi_py {

/*
 * Heap types from specs rather than static PyTypeObjects: one declarative form for all, the
 * one CPython documents and keeps compatible. The call path stays as fast (bench_ffi.py's call
 * figures are unchanged): Function keeps its vectorcall slot (set through the spec's
 * `__vectorcalloffset__` member), type checks still compare one pointer, and an instance adds
 * only a reference to its type, dropped by the type's dealloc (ObjectDealloc for Object and
 * the types deriving from it). They are made immutable, as static types are, so that Python
 * code cannot patch Object or Function, and so that CPython never drops Function's vectorcall
 * slot (it does when a mutable type's __call__ is reassigned).
 */
PyTypeObject* NewType(PyObject* module, PyType_Spec* spec, PyTypeObject* base) {
  spec->flags |= Py_TPFLAGS_IMMUTABLETYPE;
  PyObject* bases = nullptr;
  if (base != nullptr) {
    bases = PyTuple_Pack(1, reinterpret_cast<PyObject*>(base));
    if (bases == nullptr) return nullptr;
  }
  PyObject* type = PyType_FromSpecWithBases(spec, bases);
  Py_XDECREF(bases);
  if (type == nullptr) return nullptr;
  if (module != nullptr) {
    const char* dot = std::strrchr(spec->name, '.');
    Py_INCREF(type);  // PyModule_AddObject steals one reference on success only
    if (PyModule_AddObject(module, dot ? dot + 1 : spec->name, type) < 0) {
      Py_DECREF(type);
      Py_DECREF(type);
      return nullptr;
    }
  }
  return reinterpret_cast<PyTypeObject*>(type);
}

}  // namespace tvm_ffi_py
