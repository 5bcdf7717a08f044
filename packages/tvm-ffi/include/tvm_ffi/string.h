// String and Bytes: immutable byte strings; short ones travel inline in an Any.
#ifndef TVM_FFI_STRING_H_
#define TVM_FFI_STRING_H_

#include <tvm_ffi/any.h>

#include <cstring>
#include <ostream>
#include <string>
#include <string_view>

namespace tvm {
namespace ffi {

/*! Header + TVMFFIByteArray cell + the bytes themselves (NUL-terminated), in one block. */
class BytesObjBase : public Object {
 public:
  TVMFFIByteArray cell;
  const char* data() const { return cell.data; }
  size_t size() const { return cell.size; }
  std::string_view view() const { return {cell.data, cell.size}; }
};

class StringObj : public BytesObjBase {
 public:
  TVM_FFI_DECLARE_STATIC_OBJECT_INFO("ffi.String", StringObj, Object, kTVMFFIStr);
};

class BytesObj : public BytesObjBase {
 public:
  TVM_FFI_DECLARE_STATIC_OBJECT_INFO("ffi.Bytes", BytesObj, Object, kTVMFFIBytes);
};

namespace details {
template <typename T>
ObjectPtr<T> MakeBytesObj(const char* data, size_t size) {
  ObjectPtr<T> obj = make_inplace_array_object<T, char>(size + 1);
  char* dest = reinterpret_cast<char*>(obj.get()) + sizeof(T);
  if (size) std::memcpy(dest, data, size);
  dest[size] = '\0';
  obj->cell.data = dest;
  obj->cell.size = size;
  return obj;
}
}  // namespace details

/*! An immutable UTF-8 string object. */
class String : public ObjectRef {
 public:
  String() : String(std::string_view()) {}
  String(const char* s) : String(std::string_view(s)) {}         // NOLINT
  String(const std::string& s) : String(std::string_view(s)) {}  // NOLINT
  String(std::string_view s)                                     // NOLINT
      : ObjectRef(details::MakeBytesObj<StringObj>(s.data(), s.size())) {}
  explicit String(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}

  const char* data() const { return get()->data(); }
  const char* c_str() const { return get()->data(); }
  size_t size() const { return get()->size(); }
  size_t length() const { return size(); }
  bool empty() const { return size() == 0; }
  std::string_view view() const { return get()->view(); }
  operator std::string() const { return std::string(view()); }  // NOLINT
  operator std::string_view() const { return view(); }          // NOLINT
  bool operator==(const String& o) const { return view() == o.view(); }
  bool operator!=(const String& o) const { return view() != o.view(); }
  bool operator==(std::string_view o) const { return view() == o; }
  bool operator==(const char* o) const { return view() == std::string_view(o); }
  bool operator!=(const char* o) const { return view() != std::string_view(o); }
  bool operator<(const String& o) const { return view() < o.view(); }
  String operator+(const String& o) const {
    return String(std::string(view()) + std::string(o.view()));
  }
  const StringObj* get() const { return static_cast<const StringObj*>(data_.get()); }
  const StringObj* operator->() const { return get(); }

  using ContainerType = StringObj;
  static constexpr bool _custom_type_traits = true;
};

/*! An immutable byte string object. */
class Bytes : public ObjectRef {
 public:
  Bytes() : Bytes(std::string_view()) {}
  Bytes(std::string_view s)
      : ObjectRef(details::MakeBytesObj<BytesObj>(s.data(), s.size())) {}  // NOLINT
  Bytes(const char* data, size_t size) : Bytes(std::string_view(data, size)) {}
  explicit Bytes(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  const char* data() const { return get()->data(); }
  size_t size() const { return get()->size(); }
  std::string_view view() const { return get()->view(); }
  operator std::string() const { return std::string(view()); }  // NOLINT
  bool operator==(const Bytes& o) const { return view() == o.view(); }
  const BytesObj* get() const { return static_cast<const BytesObj*>(data_.get()); }

  using ContainerType = BytesObj;
  static constexpr bool _custom_type_traits = true;
};

namespace details {
/*! Writes an owned str/bytes value: inline when it fits in 7 bytes. */
inline void MoveStringToAny(std::string_view s, bool is_bytes, TVMFFIAny* out) {
  if (s.size() <= 7) {
    out->type_index = is_bytes ? kTVMFFISmallBytes : kTVMFFISmallStr;
    out->small_str_len = static_cast<uint32_t>(s.size());
    out->v_int64 = 0;
    if (s.size()) std::memcpy(out->v_bytes, s.data(), s.size());
    return;
  }
  ObjectPtr<Object> obj = is_bytes ? ObjectPtr<Object>(MakeBytesObj<BytesObj>(s.data(), s.size()))
                                   : ObjectPtr<Object>(MakeBytesObj<StringObj>(s.data(), s.size()));
  out->type_index = is_bytes ? kTVMFFIBytes : kTVMFFIStr;
  out->v_obj = ObjectUnsafe::MoveToHeader(std::move(obj));
}

template <typename Ref, bool kIsBytes>
struct StringLikeTraits {
  static constexpr bool enabled = true;
  static void CopyToAnyView(const Ref& s, TVMFFIAny* out) {
    out->type_index = kIsBytes ? kTVMFFIBytes : kTVMFFIStr;
    out->v_obj = ObjectUnsafe::GetHeader(s.get());
  }
  static void MoveToAny(Ref s, TVMFFIAny* out) {
    out->type_index = kIsBytes ? kTVMFFIBytes : kTVMFFIStr;
    out->v_obj = ObjectUnsafe::MoveToHeader(ObjectRefAccess::MovePtr(std::move(s)));
  }
  static std::optional<Ref> TryCastFromAnyView(const TVMFFIAny* v) {
    if (v->type_index == (kIsBytes ? kTVMFFIBytes : kTVMFFIStr)) {
      return ObjectRefAccess::FromPtr<Ref>(ObjectUnsafe::FromBorrowedHeader<Object>(v->v_obj));
    }
    std::string_view view;
    if (GetStringView(v, kIsBytes, &view)) return Ref(view);
    return std::nullopt;
  }
  static std::string TypeStr() { return kIsBytes ? "bytes" : "str"; }
  static std::string TypeSchema() { return TypeSchemaLeaf(kIsBytes ? "ffi.Bytes" : "ffi.String"); }
};
}  // namespace details

template <>
struct TypeTraits<String> : details::StringLikeTraits<String, false> {};
template <>
struct TypeTraits<Bytes> : details::StringLikeTraits<Bytes, true> {};

template <>
struct TypeTraits<std::string> {
  static constexpr bool enabled = true;
  static void CopyToAnyView(const std::string& s, TVMFFIAny* out) {
    out->type_index = kTVMFFIRawStr;
    out->v_c_str = s.c_str();
  }
  static void MoveToAny(const std::string& s, TVMFFIAny* out) {
    details::MoveStringToAny(s, false, out);
  }
  static std::optional<std::string> TryCastFromAnyView(const TVMFFIAny* v) {
    std::string_view view;
    if (details::GetStringView(v, false, &view)) return std::string(view);
    return std::nullopt;
  }
  static std::string TypeStr() { return "str"; }
  static std::string TypeSchema() { return details::TypeSchemaLeaf("ffi.String"); }
};

inline std::ostream& operator<<(std::ostream& os, const String& s) { return os << s.view(); }

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_STRING_H_
