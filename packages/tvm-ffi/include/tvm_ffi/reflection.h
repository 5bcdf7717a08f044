// Reflection: registers an object type's fields and methods so other languages can see them.
#ifndef TVM_FFI_REFLECTION_H_
#define TVM_FFI_REFLECTION_H_

#include <tvm_ffi/function.h>

#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace details {
/*! The index of a registered type key (TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP); KeyError if none. */
inline int32_t LookupTypeIndex(const char* type_key) {
  TVMFFIByteArray key{type_key, std::char_traits<char>::length(type_key)};
  int32_t index = -1;
  if (TVMFFITypeKeyToIndex(&key, &index) != 0) throw MoveFromRaised();
  return index;
}
}  // namespace details
namespace reflection {

namespace details {
template <typename FieldType>
int FieldGetter(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  Any value(*static_cast<FieldType*>(field));
  value.MoveToTVMFFIAny(result);
  TVM_FFI_SAFE_CALL_END();
}
template <typename FieldType>
int FieldSetter(void* field, const TVMFFIAny* value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *static_cast<FieldType*>(field) = reinterpret_cast<const AnyView*>(value)->cast<FieldType>();
  TVM_FFI_SAFE_CALL_END();
}
/*!
 * What structural equality, hashing and serialization may read straight from memory:
 * an Any (kTVMFFIFieldStaticTypeAny), an object reference (kTVMFFIObject: a nullable
 * pointer), a POD type index, or -2 (anything else: read through the getter).
 */
template <typename F>
constexpr int32_t FieldStaticTypeIndex() {
  if constexpr (std::is_same_v<F, Any>) {
    return kTVMFFIFieldStaticTypeAny;
  } else if constexpr (std::is_base_of_v<ObjectRef, F> && sizeof(F) == sizeof(void*)) {
    return kTVMFFIObject;
  } else if constexpr (std::is_same_v<F, bool>) {
    return kTVMFFIBool;
  } else if constexpr (std::is_integral_v<F>) {
    return kTVMFFIInt;
  } else if constexpr (std::is_floating_point_v<F>) {
    return kTVMFFIFloat;
  } else {
    return -2;
  }
}
template <typename T, typename = void>
struct SEqHashKindOf {
  static constexpr int32_t value = -1;  // not declared: leave the type's metadata alone
};
template <typename T>
struct SEqHashKindOf<T, std::void_t<decltype(T::_type_s_eq_hash_kind)>> {
  static constexpr int32_t value = static_cast<int32_t>(T::_type_s_eq_hash_kind);
};
template <typename T, typename F>
int64_t FieldOffset(F T::* field) {
  // Offsets are measured from the object header (the Object base subobject).
  alignas(T) static char probe[sizeof(T)];
  T* obj = reinterpret_cast<T*>(probe);
  return reinterpret_cast<char*>(&(obj->*field)) -
         reinterpret_cast<char*>(static_cast<Object*>(obj));
}
template <typename T>
const T* SelfAs(const ObjectRef& self, const char* method) {
  const T* obj = self.as<T>();
  if (obj == nullptr) {
    TVM_FFI_THROW(TypeError) << "Method `" << method << "` of `" << T::_type_key << "` called on `"
                             << self.GetTypeKey() << "`";
  }
  return obj;
}
}  // namespace details

/*!
 * A constructor for ObjectDef::def: `.def(init<int64_t, int64_t>())` registers
 * `__ffi_init__` building T from those arguments. Without one, a default-constructible T gets
 * an `__ffi_init__` made from its fields (positional, or by name after tvm_ffi.core.KWARGS);
 * `ObjectDef<T>(init(false))` turns that off, and `init(false)` after a field leaves the field
 * out of it.
 */
template <typename... Args>
struct init {
  explicit init(bool enabled = true) : enabled(enabled) {}
  bool enabled;
};
init(bool) -> init<>;

/*!
 * Field traits of the generated `__ffi_init__`: default_value(v) lets a call leave the field
 * out (it is then set to v), kw_only(true) takes it only by name.
 */
class default_value {
 public:
  explicit default_value(Any value) : value_(std::move(value)) {}
  const Any& value() const { return value_; }

 private:
  Any value_;
};
using DefaultValue = default_value;
class kw_only {
 public:
  explicit kw_only(bool only) : only_(only) {}
  void Apply(TVMFFIFieldInfo* info) const {
    if (only_) info->flags |= kTVMFFIFieldFlagBitMaskKwOnly;
  }

 private:
  bool only_;
};

/*! A field trait: def_ro("span", &T::span, AttachFieldFlag::SEqHashIgnore()). */
struct AttachFieldFlag {
  int64_t flag;
  static AttachFieldFlag SEqHashIgnore() { return {kTVMFFIFieldFlagBitMaskSEqHashIgnore}; }
  static AttachFieldFlag SEqHashDef() { return {kTVMFFIFieldFlagBitMaskSEqHashDef}; }
};

/*!
 * Field traits as apache-tvm-ffi spells them: def_ro("note", &T::note, repr(false)) leaves the
 * field out of repr; compare(false) out of the field-wise == and ordering (and so of the hash,
 * which must agree with ==); hash(false) out of the field-wise hash only.
 */
class repr {
 public:
  explicit repr(bool show) : show_(show) {}
  void Apply(TVMFFIFieldInfo* info) const {
    if (!show_) info->flags |= kTVMFFIFieldFlagBitMaskReprOff;
  }

 private:
  bool show_;
};
class compare {
 public:
  explicit compare(bool include) : include_(include) {}
  void Apply(TVMFFIFieldInfo* info) const {
    if (!include_) info->flags |= kTVMFFIFieldFlagBitMaskCompareOff;
  }

 private:
  bool include_;
};
class hash {
 public:
  explicit hash(bool include) : include_(include) {}
  void Apply(TVMFFIFieldInfo* info) const {
    if (!include_) info->flags |= kTVMFFIFieldFlagBitMaskHashOff;
  }

 private:
  bool include_;
};

/*!
 * ObjectDef<T>().def_ro("x", &T::x).def("f", &T::f) registers T's fields and methods.
 * A class may declare `static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind` to take part
 * in structural_equal / structural_hash. A copyable T gets `__ffi_shallow_copy__` (copy.copy),
 * a default-constructible one `__ffi_new__` (deserialization fills its fields in).
 */
template <typename T>
class ObjectDef {
 public:
  ObjectDef() : type_index_(T::RuntimeTypeIndex()) {
    if constexpr (details::SEqHashKindOf<T>::value >= 0) {
      TVMFFITypeMetadata meta{{nullptr, 0}, details::SEqHashKindOf<T>::value};
      if (TVMFFITypeRegisterMetadata(type_index_, &meta) != 0)
        throw ::tvm::ffi::details::MoveFromRaised();
    }
    if constexpr (std::is_copy_constructible_v<T>) {
      def_static("__ffi_shallow_copy__", [](ObjectRef self) {
        return ObjectRef(make_object<T>(*details::SelfAs<T>(self, "__ffi_shallow_copy__")));
      });
    }
    if constexpr (std::is_default_constructible_v<T>) {
      def_static("__ffi_new__", []() { return ObjectRef(make_object<T>()); });
    }
  }
  explicit ObjectDef(init<> ctor) : ObjectDef() { auto_init_ = ctor.enabled; }
  ObjectDef(const ObjectDef&) = delete;
  ObjectDef& operator=(const ObjectDef&) = delete;
  /*! A default-constructible T with no constructor given gets one made from its fields. */
  ~ObjectDef() noexcept(false) {
    if constexpr (std::is_default_constructible_v<T>) {
      if (auto_init_ && !has_init_) {
        if (TVMFFITypeRegisterAutoInit(type_index_) != 0)
          throw ::tvm::ffi::details::MoveFromRaised();
      }
    }
  }

  template <typename... Args>
  ObjectDef& def(init<Args...> ctor, const char* doc = "") {
    if (!ctor.enabled) return *this;
    return def_static(
        "__ffi_init__",
        [](Args... args) { return ObjectRef(make_object<T>(std::forward<Args>(args)...)); }, doc);
  }

  /*! Traits after the field: a doc string, AttachFieldFlag, repr, compare, hash, in any order. */
  template <typename F, typename... Traits>
  ObjectDef& def_ro(const char* name, F T::* field, Traits... traits) {
    return AddField(name, field, false, traits...);
  }
  template <typename F, typename... Traits>
  ObjectDef& def_rw(const char* name, F T::* field, Traits... traits) {
    return AddField(name, field, true, traits...);
  }
  /*! An instance method: a const member function; argument 0 is the object. */
  template <typename R, typename... Args>
  ObjectDef& def(const char* name, R (T::*method)(Args...) const, const char* doc = "") {
    std::string full = std::string(T::_type_key) + "." + name;
    std::string method_name = name;
    Function f = Function::FromTyped(
        [method, method_name](ObjectRef self, Args... args) -> R {
          return (details::SelfAs<T>(self, method_name.c_str())->*method)(
              std::forward<Args>(args)...);
        },
        full);
    // The object comes first, typed as T (upstream's schema of an instance method).
    std::string schema = ::tvm::ffi::details::FunctionTypeSchema<R, Args...>(
        ::tvm::ffi::details::TypeSchemaLeaf(T::_type_key));
    return AddMethod(name, doc, std::move(f), false, schema);
  }
  /*! A static method (a plain callable), e.g. the constructor `__ffi_init__`. */
  template <typename TCallable>
  ObjectDef& def_static(const char* name, TCallable callable, const char* doc = "") {
    std::string full = std::string(T::_type_key) + "." + name;
    return AddMethod(name, doc, Function::FromTyped(std::move(callable), full), true,
                     ::tvm::ffi::details::TypeSchemaOfCallable<TCallable>());
  }

 private:
  static void ApplyTrait(TVMFFIFieldInfo* info, const char* doc) {
    info->doc = {doc, std::char_traits<char>::length(doc)};
  }
  static void ApplyTrait(TVMFFIFieldInfo* info, AttachFieldFlag flag) { info->flags |= flag.flag; }
  static void ApplyTrait(TVMFFIFieldInfo* info, const repr& trait) { trait.Apply(info); }
  static void ApplyTrait(TVMFFIFieldInfo* info, const compare& trait) { trait.Apply(info); }
  static void ApplyTrait(TVMFFIFieldInfo* info, const hash& trait) { trait.Apply(info); }
  static void ApplyTrait(TVMFFIFieldInfo* info, const kw_only& trait) { trait.Apply(info); }
  static void ApplyTrait(TVMFFIFieldInfo* info, const init<>& trait) {
    if (!trait.enabled) info->flags |= kTVMFFIFieldFlagBitMaskInitOff;
  }
  static void ApplyTrait(TVMFFIFieldInfo* info, const default_value&) {
    info->flags |= kTVMFFIFieldFlagBitMaskHasDefault;
  }
  // Traits that act once the field is registered: a default is kept by the library.
  template <typename Trait>
  void AfterField(const char*, const Trait&) {}
  void AfterField(const char* name, const default_value& trait) {
    TVMFFIByteArray name_bytes{name, std::char_traits<char>::length(name)};
    if (TVMFFITypeRegisterFieldDefault(type_index_, &name_bytes, trait.value().raw()) != 0)
      throw ::tvm::ffi::details::MoveFromRaised();
  }

  template <typename F, typename... Traits>
  ObjectDef& AddField(const char* name, F T::* field, bool writable, Traits... traits) {
    TVMFFIFieldInfo info;
    info.name = {name, std::char_traits<char>::length(name)};
    info.doc = {"", 0};
    info.flags = writable ? kTVMFFIFieldFlagBitMaskWritable : 0;
    (ApplyTrait(&info, traits), ...);
    info.size = sizeof(F);
    info.offset = details::FieldOffset(field);
    info.getter = details::FieldGetter<F>;
    // Read-only fields keep a setter too: copies and deserialization fill them in; Python
    // assignment checks the Writable flag.
    if constexpr (std::is_copy_assignable_v<F>) {
      info.setter = details::FieldSetter<F>;
    } else {
      info.setter = nullptr;
    }
    info.field_static_type_index = details::FieldStaticTypeIndex<F>();
    if (TVMFFITypeRegisterField(type_index_, &info) != 0)
      throw ::tvm::ffi::details::MoveFromRaised();
    RegisterMemberSchema(kTVMFFIMemberField, name, ::tvm::ffi::details::TypeSchemaOf<F>());
    (AfterField(name, traits), ...);
    return *this;
  }
  /*! Records a member's type schema as its metadata (what TypeField/TypeMethod.metadata show). */
  void RegisterMemberSchema(int32_t kind, const char* name, const std::string& schema) {
    std::string meta = ::tvm::ffi::details::TypeSchemaMetadata(schema);
    TVMFFIByteArray name_bytes{name, std::char_traits<char>::length(name)};
    TVMFFIByteArray meta_bytes{meta.data(), meta.size()};
    if (TVMFFITypeRegisterMemberMetadata(type_index_, kind, &name_bytes, &meta_bytes) != 0)
      throw ::tvm::ffi::details::MoveFromRaised();
  }
  ObjectDef& AddMethod(const char* name, const char* doc, Function f, bool is_static,
                       const std::string& schema) {
    if (std::char_traits<char>::compare(name, "__ffi_init__", 13) == 0) has_init_ = true;
    TVMFFIMethodInfo info;
    info.name = {name, std::char_traits<char>::length(name)};
    info.doc = {doc, std::char_traits<char>::length(doc)};
    info.flags = is_static ? kTVMFFIMethodFlagBitMaskStatic : 0;
    AnyView view(f);
    info.method = *view.raw();
    if (TVMFFITypeRegisterMethod(type_index_, &info) != 0)
      throw ::tvm::ffi::details::MoveFromRaised();
    RegisterMemberSchema(kTVMFFIMemberMethod, name, schema);
    return *this;
  }
  int32_t type_index_;
  bool auto_init_ = true;
  bool has_init_ = false;
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_H_
