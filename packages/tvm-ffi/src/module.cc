// Library modules: open a shared library, check its ABI tag, expose its __tvm_ffi_<name> symbols.
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <tvm_ffi/ffi.h>

#include <string>

namespace tvm {
namespace ffi {
namespace {

/*! A function straight from a library symbol; holds its module (the module's path, imports). */
class LibraryFunctionObj : public FunctionObj {
 public:
  LibraryFunctionObj(TVMFFISafeCallType symbol, ObjectPtr<Object> module)
      : module_(std::move(module)) {
    cell.safe_call = symbol;
    cell.self = nullptr;
  }

 private:
  ObjectPtr<Object> module_;
};

std::string RealPath(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

class LibraryModuleObj : public ModuleObj {
 public:
  explicit LibraryModuleObj(const std::string& file) {
    path = file;
    struct stat st;
    if (stat(file.c_str(), &st) != 0) {
      TVM_FFI_THROW(FileNotFoundError) << "load_module: no file at `" << file << "`";
    }
    handle_ = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      const char* why = dlerror();
      TVM_FFI_THROW(OSError) << "load_module: cannot load `" << file
                             << "` as a shared library: " << (why ? why : "unknown reason");
    }
    CheckAbiTag();
  }
  // Never dlclose, as upstream: once a library's static initialisers ran it may have
  // registered global functions, types or fields, and objects it made (arrays, closures)
  // may outlive the module; each keeps pointers to the library's code.
  ~LibraryModuleObj() = default;
  std::string kind() const final { return "library"; }
  Optional<Function> GetFunction(const std::string& name) final {
    void* sym = dlsym(handle_, (TVM_FFI_SYMBOL_PREFIX + name).c_str());
    if (sym == nullptr) return std::nullopt;
    ObjectPtr<Object> self = GetObjectPtr<Object>(this);
    return Function(make_object<LibraryFunctionObj>(reinterpret_cast<TVMFFISafeCallType>(sym),
                                                    std::move(self)));
  }

 private:
  /*! The tag must live in this very library, not in one it links (libtvm_ffi has its own). */
  void CheckAbiTag() {
    void* tag = dlsym(handle_, TVM_FFI_ABI_TAG_SYMBOL);
    Dl_info info;
    bool own = tag != nullptr && dladdr(tag, &info) != 0 && info.dli_fname != nullptr &&
               RealPath(info.dli_fname) == RealPath(path);
    // A rejected library stays loaded as well: its static initialisers have already run.
    if (!own) {
      TVM_FFI_THROW(ValueError) << "load_module: `" << path
                                << "` is not a tvm-ffi library: it does not export the ABI tag `"
                                << TVM_FFI_ABI_TAG_SYMBOL
                                << "` (build it against tvm-ffi's headers, see c_api.h)";
    }
    uint32_t version = *static_cast<const uint32_t*>(tag);
    uint32_t major = version >> 16, minor = version & 0xFFFF;
    if (major != TVM_FFI_ABI_VERSION_MAJOR) {
      TVM_FFI_THROW(RuntimeError) << "load_module: `" << path << "` was built against tvm-ffi ABI "
                                  << major << "." << minor << ", but this tvm-ffi has ABI "
                                  << TVM_FFI_ABI_VERSION_MAJOR << "." << TVM_FFI_ABI_VERSION_MINOR
                                  << "; rebuild the library against this tvm-ffi";
    }
  }
  void* handle_{nullptr};
};

std::string Describe(const Module& m) {
  return "`" + (m->path.empty() ? m->kind() : m->path) + "`";
}

Module LoadFromFile(const std::string& given) {
  // dlopen searches the library path for a bare name; a file name means this file.
  std::string path = given.find('/') == std::string::npos ? "./" + given : given;
  // A backend may register a loader for its own file kind: "ffi.Module.load_from_file.<ext>".
  size_t dot = path.rfind('.');
  if (dot != std::string::npos) {
    Optional<Function> loader =
        Function::GetGlobal("ffi.Module.load_from_file." + path.substr(dot + 1));
    if (loader.has_value()) return (*loader)(path).cast<Module>();
  }
  return Module(make_object<LibraryModuleObj>(path));
}

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef()
      .def("ffi.ModuleLoadFromFile", LoadFromFile)
      .def("ffi.ModuleGetFunction",
           [](Module m, const std::string& name, bool query_imports) {
             return m.GetFunction(name, query_imports);
           })
      .def("ffi.ModuleGetKind", [](Module m) { return m->kind(); })
      .def("ffi.ModuleGetPath", [](Module m) { return m->path; })
      .def("ffi.ModuleGetImports",
           [](Module m) { return Array<ObjectRef>(m->imports.begin(), m->imports.end()); })
      .def("ffi.ModuleImportModule", [](Module m, Module other) {
        if (other.same_as(m))
          TVM_FFI_THROW(ValueError) << "ffi.ModuleImportModule: a module cannot import itself";
        // As upstream: a cycle of imports is refused (lookups would otherwise have no end).
        if (other.Reaches(m)) {
          TVM_FFI_THROW(ValueError)
              << "ffi.ModuleImportModule: module " << Describe(other) << " already imports module "
              << Describe(m)
              << " (directly or through its imports); importing it back would make a cycle";
        }
        m->imports.push_back(other);
      });
});

}  // namespace
}  // namespace ffi
}  // namespace tvm
