// The cyclic GC's view into FFI objects: the Python objects an Object wrapper holds through them.
#include "core.h"

namespace tvm_ffi_py {
namespace {

/*! Nested containers deeper than this are not looked into (their cycles are not collected). */
constexpr int kMaxDepth = 64;

bool OwnedByParentAlone(const TVMFFIObject* obj) {
  // One strong reference and no weak one (the strong ones together hold one weak): nobody
  // else can reach the object or take a new reference to it, so the Python objects under it
  // count as held by this path alone.
  constexpr uint64_t kSoleOwner = tvm::ffi::details::kWeakOne | tvm::ffi::details::kStrongOne;
  return __atomic_load_n(&obj->combined_ref_count, __ATOMIC_ACQUIRE) == kSoleOwner;
}

int VisitObject(const TVMFFIObject* obj, visitproc visit, void* arg, int depth);

int VisitAny(const TVMFFIAny& value, visitproc visit, void* arg, int depth) {
  if (!tvm::ffi::details::IsObjectIndex(value.type_index)) return 0;
  return VisitObject(value.v_obj, visit, arg, depth);
}

int VisitObject(const TVMFFIObject* obj, visitproc visit, void* arg, int depth) {
  if (obj == nullptr || depth > kMaxDepth || !OwnedByParentAlone(obj)) return 0;
  switch (obj->type_index) {
    case kTVMFFIOpaquePyObject:
      Py_VISIT(OpaquePyObjectGet(const_cast<TVMFFIObject*>(obj)));
      return 0;
    case kTVMFFIFunction:
      Py_VISIT(PyCallbackOf(obj));       // NULL (skipped) unless the body is a Python callable
      Py_VISIT(ExternKeepAliveOf(obj));  // NULL unless made by __from_extern_c__ & co.
      return 0;
    case kTVMFFIArray:
    case kTVMFFIList: {  // a List keeps the Array cell layout
      const TVMFFISeqCell* cell = TVMFFIArrayGetCell(const_cast<TVMFFIObject*>(obj));
      for (int64_t i = 0; i < cell->size; ++i) {
        if (int ret = VisitAny(cell->data[i], visit, arg, depth + 1)) return ret;
      }
      return 0;
    }
    case kTVMFFIMap:
    case kTVMFFIDict: {  // DictObj is a MapObj
      const auto* map = static_cast<const tvm::ffi::MapObj*>(
          tvm::ffi::details::ObjectUnsafe::FromHeader(const_cast<TVMFFIObject*>(obj)));
      for (const auto& [key, value] : *map) {
        if (int ret = VisitAny(*key.raw(), visit, arg, depth + 1)) return ret;
        if (int ret = VisitAny(*value.raw(), visit, arg, depth + 1)) return ret;
      }
      return 0;
    }
    default: {
      const TVMFFIAny* slots;
      int64_t n;
      if (!DynObjectSlots(obj, &slots, &n)) return 0;
      for (int64_t i = 0; i < n; ++i) {
        if (int ret = VisitAny(slots[i], visit, arg, depth + 1)) return ret;
      }
      return 0;
    }
  }
}

}  // namespace

int TraverseHandle(const TVMFFIObject* handle, visitproc visit, void* arg) {
  return VisitObject(handle, visit, arg, 0);
}

}  // namespace tvm_ffi_py
