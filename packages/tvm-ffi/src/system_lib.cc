// The system library module: functions registered by TVMFFIEnvModRegisterSystemLibSymbol.
#include <tvm_ffi/ffi.h>

#include <mutex>
#include <string>
#include <unordered_map>

namespace tvm {
namespace ffi {
namespace {

struct SymbolTable {
  std::mutex mu;
  std::unordered_map<std::string, void*> symbols;
  std::unordered_map<std::string, Module> modules;  // one module per symbol prefix

  static SymbolTable* Global() {
    static SymbolTable* table = new SymbolTable();  // never destroyed: used at static teardown
    return table;
  }

  void* Find(const std::string& name) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = symbols.find(name);
    return it == symbols.end() ? nullptr : it->second;
  }
};

/*! A function that is the registered symbol itself: calling it calls the symbol. */
class SymbolFunctionObj : public FunctionObj {
 public:
  explicit SymbolFunctionObj(TVMFFISafeCallType symbol) {
    cell.safe_call = symbol;
    cell.self = nullptr;
  }
};

class SystemLibModuleObj : public ModuleObj {
 public:
  explicit SystemLibModuleObj(std::string prefix) : prefix_(std::move(prefix)) {}
  std::string kind() const final { return "system_lib"; }
  Optional<Function> GetFunction(const std::string& name) final {
    // The prefixed name first, then the bare one (upstream's lookup order).
    void* sym = SymbolTable::Global()->Find(TVM_FFI_SYMBOL_PREFIX + prefix_ + name);
    if (sym == nullptr) sym = SymbolTable::Global()->Find(TVM_FFI_SYMBOL_PREFIX + name);
    if (sym == nullptr) return std::nullopt;
    return Function(make_object<SymbolFunctionObj>(reinterpret_cast<TVMFFISafeCallType>(sym)));
  }

 private:
  std::string prefix_;
};

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef().def("ffi.SystemLib", [](String prefix) {
    SymbolTable* table = SymbolTable::Global();
    std::string key(prefix.data(), prefix.size());
    std::lock_guard<std::mutex> lock(table->mu);
    auto it = table->modules.find(key);
    if (it == table->modules.end()) {
      it = table->modules.emplace(key, Module(make_object<SystemLibModuleObj>(key))).first;
    }
    return it->second;
  });
});

}  // namespace
}  // namespace ffi
}  // namespace tvm

int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (name == nullptr || symbol == nullptr) {
    TVM_FFI_THROW(ValueError)
        << "TVMFFIEnvModRegisterSystemLibSymbol: name and symbol must not be NULL";
  }
  auto* table = tvm::ffi::SymbolTable::Global();
  std::lock_guard<std::mutex> lock(table->mu);
  table->symbols[name] = symbol;
  TVM_FFI_SAFE_CALL_END();
}
