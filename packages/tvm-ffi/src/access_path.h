// AccessPath and AccessStep: where inside a value a structural mismatch (or any visit) is.
#ifndef TVM_FFI_SRC_ACCESS_PATH_H_
#define TVM_FFI_SRC_ACCESS_PATH_H_

#include <tvm_ffi/ffi.h>

namespace tvm {
namespace ffi {
namespace reflection {

/*! The step kinds, numbered as upstream's AccessKind. */
enum class AccessKind : int64_t {
  kAttr = 0,
  kArrayItem = 1,
  kMapItem = 2,
  kAttrMissing = 3,
  kArrayItemMissing = 4,
  kMapItemMissing = 5,
};

class AccessStepObj : public Object {
 public:
  int64_t kind = 0;
  Any key;
  AccessStepObj() = default;
  AccessStepObj(int64_t k, Any v) : kind(k), key(std::move(v)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.reflection.AccessStep", AccessStepObj, Object);
};

/*! A path is its parent path plus one step; the root has neither (and depth 0). */
class AccessPathObj : public Object {
 public:
  // Optional, not a null ObjectRef: the field setter (from_json_graph_str) must take the
  // root's None back.
  Optional<ObjectRef> parent;  // None at the root
  Optional<ObjectRef> step;    // None at the root
  int64_t depth = 0;
  AccessPathObj() = default;
  AccessPathObj(Optional<ObjectRef> p, Optional<ObjectRef> s, int64_t d)
      : parent(std::move(p)), step(std::move(s)), depth(d) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.reflection.AccessPath", AccessPathObj, Object);
};

ObjectRef AccessPathRoot();
ObjectRef AccessPathExtend(const ObjectRef& path, AccessKind kind, Any key);

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_SRC_ACCESS_PATH_H_
