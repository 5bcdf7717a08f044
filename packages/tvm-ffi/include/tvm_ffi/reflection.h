// Reflection: registers an object type's fields and methods so other languages can see them.
#ifndef TVM_FFI_REFLECTION_H_
#define TVM_FFI_REFLECTION_H_

#include <tvm_ffi/function.h>

#include <string>
#include <utility>

namespace tvm {
namespace ffi {
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
template <typename T, typename F>
int64_t FieldOffset(F T::*field) {
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
    TVM_FFI_THROW(TypeError) << "Method `" << method << "` of `" << T::_type_key
                             << "` called on `" << self.GetTypeKey() << "`";
  }
  return obj;
}
}  // namespace details

/*!
 * A constructor for ObjectDef::def: `.def(init<int64_t, int64_t>())` registers
 * `__ffi_init__` building T from those arguments. `ObjectDef<T>(init(false))` says T has
 * no constructor from other languages (the default here too).
 */
template <typename... Args>
struct init {
  explicit init(bool enabled = true) : enabled(enabled) {}
  bool enabled;
};

/*! ObjectDef<T>().def_ro("x", &T::x).def("f", &T::f) registers T's fields and methods. */
template <typename T>
class ObjectDef {
 public:
  ObjectDef() : type_index_(T::RuntimeTypeIndex()) {}
  explicit ObjectDef(init<>) : ObjectDef() {}

  template <typename... Args>
  ObjectDef& def(init<Args...> ctor, const char* doc = "") {
    if (!ctor.enabled) return *this;
    return def_static("__ffi_init__", [](Args... args) {
      return ObjectRef(make_object<T>(std::forward<Args>(args)...));
    }, doc);
  }

  template <typename F>
  ObjectDef& def_ro(const char* name, F T::*field, const char* doc = "") {
    return AddField(name, doc, field, false);
  }
  template <typename F>
  ObjectDef& def_rw(const char* name, F T::*field, const char* doc = "") {
    return AddField(name, doc, field, true);
  }
  /*! An instance method: a const member function; argument 0 is the object. */
  template <typename R, typename... Args>
  ObjectDef& def(const char* name, R (T::*method)(Args...) const, const char* doc = "") {
    std::string full = std::string(T::_type_key) + "." + name;
    std::string method_name = name;
    Function f = Function::FromTyped(
        [method, method_name](ObjectRef self, Args... args) -> R {
          return (details::SelfAs<T>(self, method_name.c_str())->*method)(std::forward<Args>(args)...);
        },
        full);
    return AddMethod(name, doc, std::move(f), false);
  }
  /*! A static method (a plain callable), e.g. the constructor `__ffi_init__`. */
  template <typename TCallable>
  ObjectDef& def_static(const char* name, TCallable callable, const char* doc = "") {
    std::string full = std::string(T::_type_key) + "." + name;
    return AddMethod(name, doc, Function::FromTyped(std::move(callable), full), true);
  }

 private:
  template <typename F>
  ObjectDef& AddField(const char* name, const char* doc, F T::*field, bool writable) {
    TVMFFIFieldInfo info;
    info.name = {name, std::char_traits<char>::length(name)};
    info.doc = {doc, std::char_traits<char>::length(doc)};
    info.flags = writable ? kTVMFFIFieldFlagBitMaskWritable : 0;
    info.size = sizeof(F);
    info.offset = details::FieldOffset(field);
    info.getter = details::FieldGetter<F>;
    info.setter = writable ? details::FieldSetter<F> : nullptr;
    info.field_static_type_index = kTVMFFIObject;
    if (TVMFFITypeRegisterField(type_index_, &info) != 0) throw ::tvm::ffi::details::MoveFromRaised();
    return *this;
  }
  ObjectDef& AddMethod(const char* name, const char* doc, Function f, bool is_static) {
    TVMFFIMethodInfo info;
    info.name = {name, std::char_traits<char>::length(name)};
    info.doc = {doc, std::char_traits<char>::length(doc)};
    info.flags = is_static ? kTVMFFIMethodFlagBitMaskStatic : 0;
    AnyView view(f);
    info.method = *view.raw();
    if (TVMFFITypeRegisterMethod(type_index_, &info) != 0) throw ::tvm::ffi::details::MoveFromRaised();
    return *this;
  }
  int32_t type_index_;
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_H_
