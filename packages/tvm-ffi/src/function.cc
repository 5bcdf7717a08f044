// Function creation and calls from C, and the process-wide registry of global functions.
#include <tvm_ffi/ffi.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tvm {
namespace ffi {
namespace {

class GlobalRegistry {
 public:
  static GlobalRegistry* Global() {
    static GlobalRegistry* registry = new GlobalRegistry();  // outlives static teardown
    return registry;
  }
  void Set(const std::string& name, Function f, bool override, const std::string* metadata) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(name);
    if (it != table_.end() && !override) {
      TVM_FFI_THROW(KeyError) << "Global function `" << name
                              << "` is already registered; pass override=True to replace it";
    }
    table_[name] = std::move(f);
    if (metadata != nullptr) {
      metadata_[name] = *metadata;
    } else {
      metadata_.erase(name);
    }
  }
  bool GetMetadata(const std::string& name, std::string* out) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = metadata_.find(name);
    if (it == metadata_.end()) return false;
    *out = it->second;
    return true;
  }
  Optional<Function> Get(const std::string& name) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(name);
    if (it == table_.end()) return std::nullopt;
    return it->second;
  }
  bool Remove(const std::string& name) {
    std::lock_guard<std::mutex> lock(mu_);
    metadata_.erase(name);
    return table_.erase(name) != 0;
  }
  std::vector<std::string> Names() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::string> names;
    names.reserve(table_.size());
    for (const auto& kv : table_) names.push_back(kv.first);
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, Function> table_;
  std::unordered_map<std::string, std::string> metadata_;  // JSON objects, by function name
};

}  // namespace
}  // namespace ffi
}  // namespace tvm

using namespace tvm::ffi;  // NOLINT

int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call, void (*deleter)(void* self),
                         TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  Function f = Function::FromCSafeCall(self, safe_call, deleter);
  *out = details::ObjectUnsafe::MoveToHeader(
      ObjectPtr<Object>(ObjectRefAccess::MovePtr(std::move(f))));
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                       TVMFFIAny* result) {
  TVMFFIFunctionCell* cell = TVMFFIFunctionGetCell(func);
  return cell->safe_call(cell->self, args, num_args, result);
}

namespace {
void SetGlobalChecked(const char* api, const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                      int override, const TVMFFIByteArray* metadata) {
  auto* header = static_cast<TVMFFIObject*>(f);
  if (header == nullptr || header->type_index != kTVMFFIFunction) {
    TVM_FFI_THROW(TypeError) << api << ": argument `f` must be a Function";
  }
  std::string meta;
  if (metadata != nullptr) meta = details::ByteArrayToString(metadata);
  GlobalRegistry::Global()->Set(details::ByteArrayToString(name),
                                Function(details::ObjectUnsafe::FromBorrowedHeader<Object>(header)),
                                override != 0, metadata != nullptr ? &meta : nullptr);
}
}  // namespace

int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f, int override) {
  TVM_FFI_SAFE_CALL_BEGIN();
  SetGlobalChecked("TVMFFIFunctionSetGlobal", name, f, override, nullptr);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIFunctionSetGlobalWithMetadata(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                        int override, const TVMFFIByteArray* metadata) {
  TVM_FFI_SAFE_CALL_BEGIN();
  SetGlobalChecked("TVMFFIFunctionSetGlobalWithMetadata", name, f, override, metadata);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIFunctionGetGlobalMetadata(const TVMFFIByteArray* name, TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::string metadata;
  if (GlobalRegistry::Global()->GetMetadata(details::ByteArrayToString(name), &metadata)) {
    Any(String(metadata)).MoveToTVMFFIAny(out);
  }
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  Optional<Function> f = GlobalRegistry::Global()->Get(details::ByteArrayToString(name));
  *out = f.has_value()
             ? details::ObjectUnsafe::MoveToHeader(ObjectRefAccess::MovePtr(std::move(*f)))
             : nullptr;
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIFunctionRemoveGlobal(const TVMFFIByteArray* name, int* removed) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *removed = GlobalRegistry::Global()->Remove(details::ByteArrayToString(name)) ? 1 : 0;
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIFunctionListGlobalNames(TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::vector<std::string> names = GlobalRegistry::Global()->Names();
  Array<String> arr(names.begin(), names.end());
  *out = details::ObjectUnsafe::MoveToHeader(ObjectRefAccess::MovePtr(std::move(arr)));
  TVM_FFI_SAFE_CALL_END();
}
