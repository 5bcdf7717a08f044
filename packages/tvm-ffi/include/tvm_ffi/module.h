// Module: a named collection of functions (a loaded shared library, or a backend's own kind).
#ifndef TVM_FFI_MODULE_H_
#define TVM_FFI_MODULE_H_

#include <tvm_ffi/array.h>
#include <tvm_ffi/function.h>

#include <string>
#include <vector>

namespace tvm {
namespace ffi {

class Module;

/*! Base of module kinds. Handles point at the Object base, as for every object. */
class ModuleObj : public Object {
 public:
  virtual ~ModuleObj() = default;
  /*! The kind of module, e.g. "library". */
  virtual std::string kind() const = 0;
  /*! The function `name` of this module alone, or nullopt. */
  virtual Optional<Function> GetFunction(const std::string& name) = 0;

  std::string path;
  std::vector<ObjectRef> imports;

  TVM_FFI_DECLARE_STATIC_OBJECT_INFO("ffi.Module", ModuleObj, Object, kTVMFFIModule);
};

class Module : public ObjectRef {
 public:
  Module() = default;
  explicit Module(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  ModuleObj* operator->() const { return static_cast<ModuleObj*>(data_.get()); }
  ModuleObj* get() const { return static_cast<ModuleObj*>(data_.get()); }
  /*! Looks in this module, then (with query_imports) in its imports, depth first. */
  Optional<Function> GetFunction(const std::string& name, bool query_imports = true) const {
    Optional<Function> f = get()->GetFunction(name);
    if (f.has_value() || !query_imports) return f;
    for (const ObjectRef& imp : get()->imports) {
      f = Module(ObjectRefAccess::GetPtr(imp)).GetFunction(name, true);
      if (f.has_value()) return f;
    }
    return std::nullopt;
  }
  using ContainerType = ModuleObj;
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_MODULE_H_
