// The auto-generated __ffi_init__ of reflected types (fields bound by position or, after the
// KWARGS sentinel, by name), the sentinel itself and the registry of field defaults.
#include <tvm_ffi/ffi.h>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace {

// apache-tvm-ffi's tvm_ffi.core.KWARGS: a plain object whose identity marks where keyword
// arguments start in a call; it lives (and stays referenced) for the whole process.
const ObjectRef& KwargsObject() {
  static const ObjectRef* kwargs = new ObjectRef(make_object<Object>());
  return *kwargs;
}

std::string_view AsView(const TVMFFIByteArray& bytes) { return {bytes.data, bytes.size}; }

// Defaults given by reflection::default_value, per type index and field name. Plugins register
// them from their static initializers, so the table is guarded.
class FieldDefaults {
 public:
  static FieldDefaults* Global() {
    static FieldDefaults* table = new FieldDefaults();
    return table;
  }
  void Set(int32_t type_index, std::string name, Any value) {
    std::lock_guard<std::mutex> lock(mutex_);
    table_[type_index][std::move(name)] = std::move(value);
  }
  std::optional<Any> Get(int32_t type_index, std::string_view name) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto type_it = table_.find(type_index);
    if (type_it == table_.end()) return std::nullopt;
    auto it = type_it->second.find(std::string(name));
    if (it == type_it->second.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<int32_t, std::unordered_map<std::string, Any>> table_;
};

const TVMFFITypeInfo* TypeInfoOrThrow(int32_t type_index, const char* who) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) {
    TVM_FFI_THROW(ValueError) << who << ": argument `type_index` names no registered type, got "
                              << type_index;
  }
  return info;
}

// What the init binds: every field of the type and its ancestors (ancestors first), the ones
// taking positional arguments (required before defaulted, as the Python signature shows them).
struct InitPlan {
  struct Entry {
    const TVMFFIFieldInfo* field;
    int32_t owner_index;  // the type that declared the field (its defaults are keyed by it)
    bool init;
    bool has_default;
  };
  std::string type_key;
  Function creator;
  std::vector<Entry> fields;
  std::vector<size_t> positional;
  std::unordered_map<std::string_view, size_t> by_name;
};

std::unique_ptr<InitPlan> MakePlan(const TVMFFITypeInfo* info) {
  auto plan = std::make_unique<InitPlan>();
  plan->type_key = std::string(AsView(info->type_key));
  for (int32_t i = 0; i < info->num_methods; ++i) {
    if (AsView(info->methods[i].name) == "__ffi_new__") {
      plan->creator = reinterpret_cast<const AnyView*>(&info->methods[i].method)->cast<Function>();
    }
  }
  if (!plan->creator.defined()) {
    TVM_FFI_THROW(TypeError)
        << plan->type_key << ".__ffi_init__(): the type has no default constructor (__ffi_new__)";
  }
  std::vector<size_t> defaulted;
  auto add_fields = [&](const TVMFFITypeInfo* owner) {
    for (int32_t i = 0; i < owner->num_fields; ++i) {
      const TVMFFIFieldInfo* field = &owner->fields[i];
      bool init = (field->flags & kTVMFFIFieldFlagBitMaskInitOff) == 0;
      bool has_default = (field->flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0;
      size_t pos = plan->fields.size();
      plan->fields.push_back({field, owner->type_index, init, has_default});
      if (!init) continue;
      plan->by_name[AsView(field->name)] = pos;
      if ((field->flags & kTVMFFIFieldFlagBitMaskKwOnly) != 0) continue;
      (has_default ? defaulted : plan->positional).push_back(pos);
    }
  };
  for (int32_t depth = 0; depth < info->type_depth; ++depth)
    add_fields(info->type_ancestors[depth]);
  add_fields(info);
  plan->positional.insert(plan->positional.end(), defaulted.begin(), defaulted.end());
  return plan;
}

void SetField(const InitPlan& plan, const InitPlan::Entry& entry, Object* obj,
              const TVMFFIAny* value) {
  std::string_view name = AsView(entry.field->name);
  if (entry.field->setter == nullptr) {
    TVM_FFI_THROW(TypeError) << plan.type_key << ".__ffi_init__() field '" << name
                             << "' cannot be assigned (its C++ type is not copy-assignable)";
  }
  void* addr = reinterpret_cast<char*>(obj) + entry.field->offset;
  if (entry.field->setter(addr, value) != 0) {
    Error err = details::MoveFromRaised();
    // Name the field, as apache-tvm-ffi's generated __init__ does.
    throw Error(
        err.kind(),
        plan.type_key + ".__ffi_init__() field '" + std::string(name) + "':\n  " + err.message(),
        err.backtrace());
  }
}

void RunInit(const InitPlan& plan, PackedArgs args, Any* rv) {
  ObjectRef obj = plan.creator().cast<ObjectRef>();
  Object* raw_obj = const_cast<Object*>(obj.get());
  const TVMFFIObject* sentinel = details::ObjectUnsafe::GetHeader(KwargsObject().get());
  int32_t kwargs_at = args.size();
  for (int32_t i = 0; i < args.size(); ++i) {
    const TVMFFIAny* raw = args[i].raw();
    if (raw->type_index >= kTVMFFIStaticObjectBegin && raw->v_obj == sentinel) {
      kwargs_at = i;
      break;
    }
  }
  if (static_cast<size_t>(kwargs_at) > plan.positional.size()) {
    TVM_FFI_THROW(TypeError) << plan.type_key << ".__ffi_init__() takes at most "
                             << plan.positional.size() << " positional argument(s), but "
                             << kwargs_at << " were given";
  }
  std::vector<bool> given(plan.fields.size(), false);
  for (int32_t i = 0; i < kwargs_at; ++i) {
    size_t pos = plan.positional[i];
    SetField(plan, plan.fields[pos], raw_obj, args[i].raw());
    given[pos] = true;
  }
  if (kwargs_at < args.size()) {
    if ((args.size() - kwargs_at - 1) % 2 != 0) {
      TVM_FFI_THROW(TypeError) << plan.type_key
                               << ".__ffi_init__() KWARGS requires an even number of key-value "
                                  "arguments";
    }
    for (int32_t i = kwargs_at + 1; i < args.size(); i += 2) {
      std::optional<String> key = args[i].try_cast<String>();
      if (!key.has_value()) {
        TVM_FFI_THROW(TypeError) << plan.type_key
                                 << ".__ffi_init__() keyword names must be str, got "
                                 << args[i].GetTypeKey();
      }
      auto it = plan.by_name.find(std::string_view(key->data(), key->size()));
      if (it == plan.by_name.end()) {
        TVM_FFI_THROW(TypeError) << plan.type_key
                                 << ".__ffi_init__() got an unexpected keyword argument '"
                                 << std::string(*key) << "'";
      }
      if (given[it->second]) {
        TVM_FFI_THROW(TypeError) << plan.type_key << ".__ffi_init__() got multiple values for "
                                 << "argument '" << std::string(*key) << "'";
      }
      SetField(plan, plan.fields[it->second], raw_obj, args[i + 1].raw());
      given[it->second] = true;
    }
  }
  for (size_t pos = 0; pos < plan.fields.size(); ++pos) {
    const InitPlan::Entry& entry = plan.fields[pos];
    if (given[pos]) continue;
    if (entry.has_default) {
      // A default from reflection::default_value; without one the constructor's value stays.
      std::optional<Any> value =
          FieldDefaults::Global()->Get(entry.owner_index, AsView(entry.field->name));
      if (value.has_value()) SetField(plan, entry, raw_obj, value->raw());
    } else if (entry.init) {
      TVM_FFI_THROW(TypeError) << plan.type_key << ".__ffi_init__() missing required argument: '"
                               << AsView(entry.field->name) << "'";
    }
  }
  *rv = std::move(obj);
}

void RegisterAutoInit(int32_t type_index) {
  const TVMFFITypeInfo* info = TypeInfoOrThrow(type_index, "TVMFFITypeRegisterAutoInit");
  // The plan is made at the first call: a base type's fields may be registered by a static
  // initializer that runs after this type's.
  auto plan = std::make_shared<std::unique_ptr<InitPlan>>();
  auto once = std::make_shared<std::once_flag>();
  Function init = Function::FromPacked([info, plan, once](PackedArgs args, Any* rv) {
    std::call_once(*once, [&] { *plan = MakePlan(info); });
    RunInit(**plan, args, rv);
  });
  const char* name = "__ffi_init__";
  TVMFFIMethodInfo method;
  method.name = {name, std::char_traits<char>::length(name)};
  method.doc = {"", 0};
  method.flags = kTVMFFIMethodFlagBitMaskStatic;
  AnyView view(init);
  method.method = *view.raw();
  if (TVMFFITypeRegisterMethod(type_index, &method) != 0) throw details::MoveFromRaised();
  // {"type_schema": ..., "auto_init": true}: the Python side builds a keyword __init__ from it.
  std::string meta = details::TypeSchemaMetadata(details::TypeSchemaOf<Function>());
  meta.insert(meta.size() - 1, ",\"auto_init\":true");
  TVMFFIByteArray meta_bytes{meta.data(), meta.size()};
  if (TVMFFITypeRegisterMemberMetadata(type_index, kTVMFFIMemberMethod, &method.name,
                                       &meta_bytes) != 0) {
    throw details::MoveFromRaised();
  }
}

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef().def("ffi.GetKwargsObject", []() { return KwargsObject(); });
});

}  // namespace
}  // namespace ffi
}  // namespace tvm

int TVMFFITypeRegisterFieldDefault(int32_t type_index, const TVMFFIByteArray* name,
                                   const TVMFFIAny* value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  using namespace tvm::ffi;  // NOLINT(build/namespaces)
  TypeInfoOrThrow(type_index, "TVMFFITypeRegisterFieldDefault");
  FieldDefaults::Global()->Set(type_index, std::string(AsView(*name)),
                               Any(*reinterpret_cast<const AnyView*>(value)));
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITypeGetFieldDefault(int32_t type_index, const TVMFFIByteArray* name, TVMFFIAny* out,
                              int32_t* found) {
  TVM_FFI_SAFE_CALL_BEGIN();
  using namespace tvm::ffi;  // NOLINT(build/namespaces)
  TypeInfoOrThrow(type_index, "TVMFFITypeGetFieldDefault");
  std::optional<Any> value = FieldDefaults::Global()->Get(type_index, AsView(*name));
  *found = value.has_value() ? 1 : 0;
  if (value.has_value()) value->MoveToTVMFFIAny(out);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITypeRegisterAutoInit(int32_t type_index) {
  TVM_FFI_SAFE_CALL_BEGIN();
  tvm::ffi::RegisterAutoInit(type_index);
  TVM_FFI_SAFE_CALL_END();
}
