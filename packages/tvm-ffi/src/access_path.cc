// Registers AccessPath / AccessStep and the functions that build paths (tvm_ffi.access_path).
#include "access_path.h"

namespace tvm {
namespace ffi {
namespace reflection {

ObjectRef AccessPathRoot() { return ObjectRef(make_object<AccessPathObj>()); }

ObjectRef AccessPathExtend(const ObjectRef& path, AccessKind kind, Any key) {
  const auto* parent = path.as<AccessPathObj>();
  if (parent == nullptr) {
    TVM_FFI_THROW(TypeError) << "AccessPath extend: expected an AccessPath, got `"
                             << path.GetTypeKey() << "`";
  }
  ObjectRef step(make_object<AccessStepObj>(static_cast<int64_t>(kind), std::move(key)));
  return ObjectRef(make_object<AccessPathObj>(path, std::move(step), parent->depth + 1));
}

namespace {
TVM_FFI_STATIC_INIT_BLOCK({
  // Made only by AccessPathRoot / AccessPathExtend: no constructor from the fields.
  ObjectDef<AccessStepObj>(init(false))
      .def_ro("kind", &AccessStepObj::kind, "the AccessKind of the step")
      .def_ro("key", &AccessStepObj::key, "the attribute name, index or map key");
  ObjectDef<AccessPathObj>(init(false))
      .def_ro("parent", &AccessPathObj::parent, "the path without its last step (None at the root)")
      .def_ro("step", &AccessPathObj::step, "the last step (None at the root)")
      .def_ro("depth", &AccessPathObj::depth, "the number of steps");
  GlobalDef()
      .def("ffi.reflection.AccessPathRoot", []() { return AccessPathRoot(); })
      .def("ffi.reflection.AccessPathExtend", [](ObjectRef path, int64_t kind, Any key) {
        if (kind < 0 || kind > static_cast<int64_t>(AccessKind::kMapItemMissing)) {
          TVM_FFI_THROW(ValueError)
              << "AccessPath extend: argument `kind` must be an AccessKind (0..5), got " << kind;
        }
        return AccessPathExtend(path, static_cast<AccessKind>(kind), std::move(key));
      });
});
}  // namespace

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
