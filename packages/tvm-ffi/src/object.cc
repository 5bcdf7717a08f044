// The type registry (keys, indices, ancestors, fields, methods) and reference counting entry
// points.
#include <tvm_ffi/ffi.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tvm {
namespace ffi {
namespace {

/*!
 * A growable array whose earlier copies are never freed: TVMFFITypeInfo points at the newest,
 * and readers (lock-free lookups, Python field descriptors) may still hold an older one.
 */
template <typename T>
class StableArray {
 public:
  const T* data() const { return copies_.empty() ? nullptr : copies_.back().get(); }
  int32_t size() const { return size_; }
  const T& operator[](int32_t i) const { return data()[i]; }
  void push_back(const T& item) {
    std::unique_ptr<T[]> grown(new T[size_ + 1]);
    std::copy(data(), data() + size_, grown.get());
    grown[size_] = item;
    copies_.push_back(std::move(grown));
    ++size_;
  }

 private:
  std::vector<std::unique_ptr<T[]>> copies_;
  int32_t size_ = 0;
};

struct TypeEntry {
  TVMFFITypeInfo info;
  std::string key;
  std::vector<const TVMFFITypeInfo*> ancestors;
  StableArray<TVMFFIFieldInfo> fields;
  StableArray<TVMFFIMethodInfo> methods;
  std::vector<Any> method_refs;  // keeps method Functions alive
  std::deque<std::string> text;  // storage for field/method names and docs
  TVMFFITypeMetadata metadata{{nullptr, 0}, kTVMFFISEqHashKindUnsupported};
  std::atomic<bool> has_metadata{false};
  // Metadata JSON of fields / methods by name (TVMFFIMemberKind), guarded by the table's lock.
  std::unordered_map<std::string, std::string> member_metadata[2];
};

bool SameName(const TVMFFIByteArray& a, const TVMFFIByteArray& b) {
  return a.size == b.size && std::equal(a.data, a.data + a.size, b.data);
}

/*! Entries are published through atomic slots so lookups by index never take the lock. */
class TypeTable {
 public:
  static constexpr int32_t kMaxTypes = 1 << 14;

  static TypeTable* Global() {
    static TypeTable* table = new TypeTable();  // never destroyed: used during static teardown
    return table;
  }

  int32_t GetOrAlloc(const std::string& key, int32_t static_index, int32_t parent_index) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = key_to_index_.find(key);
    if (it != key_to_index_.end()) return it->second;
    int32_t index = static_index >= 0 ? static_index : next_dynamic_++;
    if (index >= kMaxTypes) {
      TVM_FFI_THROW(RuntimeError) << "Too many object types registered (limit " << kMaxTypes << ")";
    }
    auto entry = std::make_unique<TypeEntry>();
    entry->key = key;
    const TypeEntry* parent = parent_index >= 0 ? slots_[parent_index].load() : nullptr;
    if (parent_index >= 0 && parent == nullptr) {
      TVM_FFI_THROW(RuntimeError) << "Registering type `" << key << "` under unknown parent index "
                                  << parent_index;
    }
    if (parent) {
      entry->ancestors = parent->ancestors;
      entry->ancestors.push_back(&parent->info);
    }
    entry->info.type_index = index;
    entry->info.type_depth = static_cast<int32_t>(entry->ancestors.size());
    entry->info.type_key = {entry->key.data(), entry->key.size()};
    entry->info.type_ancestors = entry->ancestors.data();
    entry->info.num_fields = 0;
    entry->info.num_methods = 0;
    entry->info.fields = nullptr;
    entry->info.methods = nullptr;
    key_to_index_[key] = index;
    slots_[index].store(entry.release());
    return index;
  }

  /*! Every registered type key (the POD kinds too), in type index order. */
  std::vector<std::string> Keys() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::pair<int32_t, std::string>> by_index;
    for (const auto& [key, index] : key_to_index_) by_index.emplace_back(index, key);
    std::sort(by_index.begin(), by_index.end());
    std::vector<std::string> keys;
    for (auto& [index, key] : by_index) keys.push_back(std::move(key));
    return keys;
  }

  bool KeyToIndex(const std::string& key, int32_t* out) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = key_to_index_.find(key);
    if (it == key_to_index_.end()) return false;
    *out = it->second;
    return true;
  }

  TypeEntry* Get(int32_t index) {
    if (index < 0 || index >= kMaxTypes) return nullptr;
    return slots_[index].load(std::memory_order_acquire);
  }

  TypeEntry* GetRequired(int32_t index) {
    TypeEntry* entry = Get(index);
    if (entry == nullptr) TVM_FFI_THROW(KeyError) << "No object type has index " << index;
    return entry;
  }

  const char* Keep(TypeEntry* entry, const TVMFFIByteArray& text) {
    entry->text.emplace_back(text.data, text.size);
    return entry->text.back().c_str();
  }

  /*!
   * Every library built with a type's header registers its fields again at load time: the
   * same field again is a no-op, a field of that name with another layout is refused.
   */
  void AddField(int32_t index, const TVMFFIFieldInfo& info) {
    std::lock_guard<std::mutex> lock(mu_);
    TypeEntry* entry = GetRequired(index);
    for (int32_t i = 0; i < entry->fields.size(); ++i) {
      const TVMFFIFieldInfo& old = entry->fields[i];
      if (!SameName(old.name, info.name)) continue;
      if (old.offset == info.offset && old.size == info.size && old.flags == info.flags &&
          old.field_static_type_index == info.field_static_type_index) {
        return;
      }
      TVM_FFI_THROW(ValueError) << "TVMFFITypeRegisterField: type `" << entry->key
                                << "` already has a field `"
                                << std::string(info.name.data, info.name.size) << "` (offset "
                                << old.offset << ", size " << old.size << ", flags " << old.flags
                                << "); registering it again with offset " << info.offset
                                << ", size " << info.size << ", flags " << info.flags
                                << " is refused (two libraries disagree on the type's layout)";
    }
    TVMFFIFieldInfo copy = info;
    copy.name = {Keep(entry, info.name), info.name.size};
    copy.doc = {Keep(entry, info.doc), info.doc.size};
    entry->fields.push_back(copy);
    entry->info.fields = entry->fields.data();
    entry->info.num_fields = entry->fields.size();
  }

  void SetMetadata(int32_t index, const TVMFFITypeMetadata& metadata) {
    std::lock_guard<std::mutex> lock(mu_);
    TypeEntry* entry = GetRequired(index);
    if (metadata.structural_eq_hash_kind < kTVMFFISEqHashKindUnsupported ||
        metadata.structural_eq_hash_kind > kTVMFFISEqHashKindUniqueInstance) {
      TVM_FFI_THROW(ValueError) << "TVMFFITypeRegisterMetadata: type `" << entry->key
                                << "`: structural_eq_hash_kind must be 0..5, got "
                                << metadata.structural_eq_hash_kind;
    }
    if (metadata.doc.size) entry->metadata.doc = {Keep(entry, metadata.doc), metadata.doc.size};
    entry->metadata.structural_eq_hash_kind = metadata.structural_eq_hash_kind;
    entry->has_metadata.store(true, std::memory_order_release);
  }

  void SetMemberMetadata(int32_t index, int32_t kind, const std::string& name,
                         const std::string& metadata) {
    std::lock_guard<std::mutex> lock(mu_);
    TypeEntry* entry = GetRequired(index);
    if (kind != kTVMFFIMemberField && kind != kTVMFFIMemberMethod) {
      TVM_FFI_THROW(ValueError) << "TVMFFITypeRegisterMemberMetadata: argument `kind` must be "
                                   "kTVMFFIMemberField (0) or kTVMFFIMemberMethod (1), got "
                                << kind;
    }
    bool found = false;
    TVMFFIByteArray key{name.data(), name.size()};
    if (kind == kTVMFFIMemberField) {
      for (int32_t i = 0; i < entry->fields.size() && !found; ++i) {
        found = SameName(entry->fields[i].name, key);
      }
    } else {
      for (int32_t i = 0; i < entry->methods.size() && !found; ++i) {
        found = SameName(entry->methods[i].name, key);
      }
    }
    if (!found) {
      TVM_FFI_THROW(ValueError) << "TVMFFITypeRegisterMemberMetadata: type `" << entry->key
                                << "` has no " << (kind == kTVMFFIMemberField ? "field" : "method")
                                << " `" << name << "` (register it first)";
    }
    entry->member_metadata[kind][name] = metadata;
  }

  /*! The member's metadata, or false when it has none. */
  bool GetMemberMetadata(int32_t index, int32_t kind, const std::string& name, std::string* out) {
    std::lock_guard<std::mutex> lock(mu_);
    TypeEntry* entry = GetRequired(index);
    if (kind != kTVMFFIMemberField && kind != kTVMFFIMemberMethod) return false;
    auto it = entry->member_metadata[kind].find(name);
    if (it == entry->member_metadata[kind].end()) return false;
    *out = it->second;
    return true;
  }

  /*! Like fields: the first registration of a method name stands; a static/instance clash is
   * refused. */
  void AddMethod(int32_t index, const TVMFFIMethodInfo& info) {
    std::lock_guard<std::mutex> lock(mu_);
    TypeEntry* entry = GetRequired(index);
    for (int32_t i = 0; i < entry->methods.size(); ++i) {
      const TVMFFIMethodInfo& old = entry->methods[i];
      if (!SameName(old.name, info.name)) continue;
      if (old.flags == info.flags) return;
      TVM_FFI_THROW(ValueError) << "TVMFFITypeRegisterMethod: type `" << entry->key
                                << "` already has a "
                                << ((old.flags & kTVMFFIMethodFlagBitMaskStatic) ? "static"
                                                                                 : "instance")
                                << " method `" << std::string(info.name.data, info.name.size)
                                << "`; registering it again with other flags is refused";
    }
    TVMFFIMethodInfo copy = info;
    copy.name = {Keep(entry, info.name), info.name.size};
    copy.doc = {Keep(entry, info.doc), info.doc.size};
    entry->method_refs.emplace_back(*reinterpret_cast<const AnyView*>(&info.method));
    copy.method = *entry->method_refs.back().raw();
    entry->methods.push_back(copy);
    entry->info.methods = entry->methods.data();
    entry->info.num_methods = entry->methods.size();
  }

 private:
  TypeTable() {
    for (auto& slot : slots_) slot.store(nullptr);
    const char* pod_names[] = {
        "None",         "int",           "bool",      "float",       "void*",
        "dtype",        "Device",        "DLTensor*", "const char*", "TVMFFIByteArray*",
        "ffi.SmallStr", "ffi.SmallBytes"};
    for (int32_t i = 0; i <= kTVMFFISmallBytes; ++i) GetOrAlloc(pod_names[i], i, -1);
    GetOrAlloc("ffi.Object", kTVMFFIObject, -1);
    const std::pair<const char*, int32_t> builtins[] = {
        {"ffi.String", kTVMFFIStr},    {"ffi.Bytes", kTVMFFIBytes},
        {"ffi.Error", kTVMFFIError},   {"ffi.Function", kTVMFFIFunction},
        {"ffi.Shape", kTVMFFIShape},   {"ffi.Tensor", kTVMFFITensor},
        {"ffi.Array", kTVMFFIArray},   {"ffi.Map", kTVMFFIMap},
        {"ffi.Module", kTVMFFIModule}, {"ffi.OpaquePyObject", kTVMFFIOpaquePyObject},
        {"ffi.List", kTVMFFIList},     {"ffi.Dict", kTVMFFIDict}};
    for (const auto& [key, index] : builtins) GetOrAlloc(key, index, kTVMFFIObject);
  }

  std::mutex mu_;
  std::unordered_map<std::string, int32_t> key_to_index_;
  int32_t next_dynamic_ = kTVMFFIDynObjectBegin;
  std::atomic<TypeEntry*> slots_[kMaxTypes];
};

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef()
      .def("ffi.GetRegisteredTypeKeys",
           []() {
             Array<String> keys;
             for (const std::string& key : TypeTable::Global()->Keys()) keys.push_back(String(key));
             return keys;
           })
      // What tvm_ffi.method uses to add a Python function to a type's reflected methods.
      .def("ffi.TypeRegisterMethod",
           [](int32_t type_index, String name, Function func, bool is_static, String doc) {
             TVMFFIMethodInfo info;
             info.name = {name.data(), name.size()};
             info.doc = {doc.data(), doc.size()};
             info.flags = is_static ? kTVMFFIMethodFlagBitMaskStatic : 0;
             AnyView view(func);
             info.method = *view.raw();
             TypeTable::Global()->AddMethod(type_index, info);
           });
});

}  // namespace
}  // namespace ffi
}  // namespace tvm

using tvm::ffi::TypeTable;

int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key, int32_t static_type_index,
                                  int32_t parent_type_index) {
  try {
    return TypeTable::Global()->GetOrAlloc(tvm::ffi::details::ByteArrayToString(type_key),
                                           static_type_index, parent_type_index);
  } catch (...) {
    tvm::ffi::details::SetRaisedFromException(std::current_exception());
    return -1;
  }
}

int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::string key = tvm::ffi::details::ByteArrayToString(type_key);
  if (!TypeTable::Global()->KeyToIndex(key, out_tindex)) {
    TVM_FFI_THROW(KeyError) << "No object type is registered as `" << key << "`";
  }
  TVM_FFI_SAFE_CALL_END();
}

const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index) {
  auto* entry = TypeTable::Global()->Get(type_index);
  return entry ? &entry->info : nullptr;
}

int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TypeTable::Global()->AddField(type_index, *info);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TypeTable::Global()->AddMethod(type_index, *info);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TypeTable::Global()->SetMetadata(type_index, *metadata);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITypeRegisterMemberMetadata(int32_t type_index, int32_t kind, const TVMFFIByteArray* name,
                                     const TVMFFIByteArray* metadata) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TypeTable::Global()->SetMemberMetadata(type_index, kind,
                                         tvm::ffi::details::ByteArrayToString(name),
                                         tvm::ffi::details::ByteArrayToString(metadata));
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITypeGetMemberMetadata(int32_t type_index, int32_t kind, const TVMFFIByteArray* name,
                                TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::string metadata;
  if (TypeTable::Global()->GetMemberMetadata(
          type_index, kind, tvm::ffi::details::ByteArrayToString(name), &metadata)) {
    tvm::ffi::Any(tvm::ffi::String(metadata)).MoveToTVMFFIAny(out);
  }
  TVM_FFI_SAFE_CALL_END();
}

const TVMFFITypeMetadata* TVMFFIGetTypeMetadata(int32_t type_index) {
  auto* entry = TypeTable::Global()->Get(type_index);
  if (entry == nullptr || !entry->has_metadata.load(std::memory_order_acquire)) return nullptr;
  return &entry->metadata;
}

int TVMFFIObjectIncRef(TVMFFIObjectHandle obj) {
  if (obj) tvm::ffi::Object::IncRefHeader(static_cast<TVMFFIObject*>(obj));
  return 0;
}

int TVMFFIObjectDecRef(TVMFFIObjectHandle obj) {
  if (obj) tvm::ffi::Object::DecRefHeader(static_cast<TVMFFIObject*>(obj));
  return 0;
}

namespace {

/*!
 * Releases nested deeper than this inside deleters on one thread are queued, not run at once:
 * a deleter releases its children, whose deleters release theirs, and a million-deep chain
 * would need a million stack frames. Shallow nests (nearly every free) run exactly as before.
 */
constexpr int kMaxNestedDestroy = 32;

/*!
 * This thread's destruction state. Plain data, so no TLS destructor: the queue is empty
 * whenever no deleter is running, and its buffer is freed when the outermost one drains it.
 */
struct DestroyState {
  int depth;
  size_t size;
  size_t capacity;
  TVMFFIObject** pending;
};
// initial-exec: reached with one %fs-relative load on every free, not a __tls_get_addr call
// (32 bytes of the static TLS that glibc keeps for libraries loaded with dlopen).
__attribute__((tls_model("initial-exec"))) thread_local DestroyState destroy_state{0, 0, 0,
                                                                                   nullptr};

/*! Runs the deleter of an object whose strong count is zero (the rules of c_api.h). */
void RunDeleter(TVMFFIObject* h) {
  using tvm::ffi::details::kWeakOne;
  // No strong reference is left, so no new weak one can appear: weak == 1 means both are done.
  if (__atomic_load_n(&h->combined_ref_count, __ATOMIC_ACQUIRE) == kWeakOne) {
    h->deleter(h, kTVMFFIObjectDeleterFlagBitMaskBoth);
    return;
  }
  h->deleter(h, kTVMFFIObjectDeleterFlagBitMaskStrong);
  uint64_t w = __atomic_fetch_sub(&h->combined_ref_count, kWeakOne, __ATOMIC_ACQ_REL);
  if ((w >> 32) == 1) h->deleter(h, kTVMFFIObjectDeleterFlagBitMaskWeak);
}

/*! Queues h for the outermost destroy of this thread; false when memory ran out. */
bool Defer(DestroyState& state, TVMFFIObject* h) {
  if (state.size == state.capacity) {
    size_t capacity = state.capacity ? state.capacity * 2 : 256;
    void* grown = std::realloc(state.pending, capacity * sizeof(TVMFFIObject*));
    if (grown == nullptr) return false;
    state.pending = static_cast<TVMFFIObject**>(grown);
    state.capacity = capacity;
  }
  state.pending[state.size++] = h;
  return true;
}

}  // namespace

void TVMFFIObjectDestroyUnreferenced(TVMFFIObjectHandle obj) {
  TVMFFIObject* h = static_cast<TVMFFIObject*>(obj);
  DestroyState* state = &destroy_state;
  // Out of memory for the queue: destroy at once (deeper stack, but no leak).
  if (state->depth >= kMaxNestedDestroy && Defer(*state, h)) return;
  ++state->depth;
  RunDeleter(h);
  if (state->depth == 1 && state->pending != nullptr) {
    // The outermost destroy: run what deeper ones queued (each may queue more) until none is left.
    while (state->size != 0) RunDeleter(state->pending[--state->size]);
    std::free(state->pending);
    state->pending = nullptr;
    state->capacity = 0;
  }
  --state->depth;
}

void TVMFFIGetVersion(TVMFFIVersion* out) {
  out->major = TVM_FFI_ABI_VERSION_MAJOR;
  out->minor = TVM_FFI_ABI_VERSION_MINOR;
}
