// Module: a named collection of functions (a loaded shared library, or a backend's own kind).
#ifndef TVM_FFI_MODULE_H_
#define TVM_FFI_MODULE_H_

#include <tvm_ffi/array.h>
#include <tvm_ffi/function.h>

#include <algorithm>
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
  /*!
   * Looks in this module, then (with query_imports) in its imports, depth first. Each module
   * is searched once, so imports that reach a module twice (or a cycle) end.
   */
  Optional<Function> GetFunction(const std::string& name, bool query_imports = true) const {
    Optional<Function> f = get()->GetFunction(name);
    if (f.has_value() || !query_imports) return f;
    std::vector<const Object*> seen{get()};
    return FindInImports(name, &seen);
  }
  /*! True when `other` is this module or is reached through this module's imports. */
  bool Reaches(const Module& other) const {
    std::vector<const Object*> seen;
    std::vector<const ModuleObj*> todo{get()};
    while (!todo.empty()) {
      const ModuleObj* m = todo.back();
      todo.pop_back();
      if (m == other.get()) return true;
      if (std::find(seen.begin(), seen.end(), m) != seen.end()) continue;
      seen.push_back(m);
      for (const ObjectRef& imp : m->imports)
        todo.push_back(static_cast<const ModuleObj*>(imp.get()));
    }
    return false;
  }
  using ContainerType = ModuleObj;

 private:
  Optional<Function> FindInImports(const std::string& name,
                                   std::vector<const Object*>* seen) const {
    for (const ObjectRef& imp : get()->imports) {
      if (std::find(seen->begin(), seen->end(), imp.get()) != seen->end()) continue;
      seen->push_back(imp.get());
      Module m(ObjectRefAccess::GetPtr(imp));
      Optional<Function> f = m->GetFunction(name);
      if (!f.has_value()) f = m.FindInImports(name, seen);
      if (f.has_value()) return f;
    }
    return std::nullopt;
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_MODULE_H_
