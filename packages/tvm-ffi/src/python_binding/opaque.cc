// Opaque Python objects: any Python value carried through the FFI by reference.
#include "core.h"

namespace tvm_ffi_py {
namespace {

class OpaquePyObjectObj : public tvm::ffi::Object {
 public:
  explicit OpaquePyObjectObj(PyObject* obj) : cell{obj} { Py_INCREF(obj); }
  ~OpaquePyObjectObj() {
    GILGuard gil;
    if (gil.can_release()) Py_DECREF(get());
  }
  PyObject* get() const { return static_cast<PyObject*>(cell.handle); }
  TVM_FFI_DECLARE_STATIC_OBJECT_INFO("ffi.OpaquePyObject", OpaquePyObjectObj, Object,
                                     kTVMFFIOpaquePyObject);

  // First member: the ABI cell right after the header, where Map keys read the identity.
  TVMFFIOpaqueObjectCell cell;
};

}  // namespace

TVMFFIObject* NewOpaquePyObject(PyObject* obj) { return NewObjectHandle<OpaquePyObjectObj>(obj); }

PyObject* OpaquePyObjectGet(TVMFFIObject* handle) {
  return static_cast<OpaquePyObjectObj*>(tvm::ffi::details::ObjectUnsafe::FromHeader(handle))
      ->get();
}

}  // namespace tvm_ffi_py
