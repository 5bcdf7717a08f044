// Any (owning) and AnyView (borrowing): the C++ faces of TVMFFIAny, with TypeTraits conversions.
#ifndef TVM_FFI_ANY_H_
#define TVM_FFI_ANY_H_

#include <tvm_ffi/object.h>

#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

class Any;
class AnyView;

/*!
 * How a C++ type T crosses as an Any. An enabled specialization provides:
 *   CopyToAnyView(const T&, TVMFFIAny*)   borrowed view (no count change)
 *   MoveToAny(T, TVMFFIAny*)               owned value
 *   TryCastFromAnyView(const TVMFFIAny*)   std::optional<T>, with the usual conversions
 *   TypeStr()                              name used in error messages
 */
template <typename T, typename = void>
struct TypeTraits {
  static constexpr bool enabled = false;
};

template <typename T>
using TypeTraitsNoCR = TypeTraits<std::remove_const_t<std::remove_reference_t<T>>>;

namespace details {
/*! `{"type":"<key>"}`: a leaf type schema (defined below, beside TypeSchemaOf). */
inline std::string TypeSchemaLeaf(const std::string& key);
}  // namespace details

namespace details {
template <typename T>
struct HasTypeTraits : std::bool_constant<TypeTraitsNoCR<T>::enabled> {};
/*! True for C++ values that convert to Any; Any and AnyView themselves are excluded first so
 *  that their own traits are not instantiated while they are still being defined. */
template <typename T>
constexpr bool kIsAnyConvertible =
    std::conjunction_v<std::negation<std::is_same<std::decay_t<T>, Any>>,
                       std::negation<std::is_same<std::decay_t<T>, AnyView>>, HasTypeTraits<T>>;
}  // namespace details

namespace details {
inline bool IsObjectIndex(int32_t tindex) { return tindex >= kTVMFFIStaticObjectBegin; }
inline void InitNone(TVMFFIAny* v) {
  v->type_index = kTVMFFINone;
  v->zero_padding = 0;
  v->v_int64 = 0;
}
/*! The bytes of a str (want_bytes=false) or bytes value in any representation, or false. */
inline bool GetStringView(const TVMFFIAny* v, bool want_bytes, std::string_view* out) {
  switch (v->type_index) {
    case kTVMFFISmallStr:
      if (want_bytes) return false;
      *out = std::string_view(v->v_bytes, v->small_str_len);
      return true;
    case kTVMFFISmallBytes:
      if (!want_bytes) return false;
      *out = std::string_view(v->v_bytes, v->small_str_len);
      return true;
    case kTVMFFIRawStr:
      if (want_bytes) return false;
      *out = std::string_view(v->v_c_str);
      return true;
    case kTVMFFIByteArrayPtr: {
      if (!want_bytes) return false;
      const auto* arr = static_cast<const TVMFFIByteArray*>(v->v_ptr);
      *out = std::string_view(arr->data, arr->size);
      return true;
    }
    case kTVMFFIStr:
    case kTVMFFIBytes: {
      if (want_bytes != (v->type_index == kTVMFFIBytes)) return false;
      const TVMFFIByteArray* cell = TVMFFIStringGetCell(v->v_obj);
      *out = std::string_view(cell->data, cell->size);
      return true;
    }
    default:
      return false;
  }
}
/*! Name of the kind an Any holds, for error messages ("int", "str", "ffi.Array", ...). */
inline std::string AnyTypeName(const TVMFFIAny* v) {
  switch (v->type_index) {
    case kTVMFFINone:
      return "None";
    case kTVMFFIInt:
      return "int";
    case kTVMFFIBool:
      return "bool";
    case kTVMFFIFloat:
      return "float";
    case kTVMFFIOpaquePtr:
      return "void*";
    case kTVMFFIDataType:
      return "dtype";
    case kTVMFFIDevice:
      return "Device";
    case kTVMFFIDLTensorPtr:
      return "DLTensor*";
    case kTVMFFIRawStr:
    case kTVMFFISmallStr:
    case kTVMFFIStr:
      return "str";
    case kTVMFFIByteArrayPtr:
    case kTVMFFISmallBytes:
    case kTVMFFIBytes:
      return "bytes";
    default:
      break;
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(v->type_index);
  if (info == nullptr) return "<unknown type index " + std::to_string(v->type_index) + ">";
  return std::string(info->type_key.data, info->type_key.size);
}
/*! Turns a borrowed view into an owned value (borrowed strings become owned strings). */
inline void CopyViewToOwned(const TVMFFIAny* view, TVMFFIAny* out) {
  if (view->type_index == kTVMFFIRawStr) {
    TVMFFIByteArray bytes{view->v_c_str, std::strlen(view->v_c_str)};
    InitNone(out);
    TVMFFIStringFromByteArray(&bytes, out);
    return;
  }
  if (view->type_index == kTVMFFIByteArrayPtr) {
    InitNone(out);
    TVMFFIBytesFromByteArray(static_cast<const TVMFFIByteArray*>(view->v_ptr), out);
    return;
  }
  *out = *view;
  if (IsObjectIndex(out->type_index)) Object::IncRefHeader(out->v_obj);
}
[[noreturn]] inline void ThrowCastError(const TVMFFIAny* value, const std::string& target);
/*! The cast of value to T failed: OverflowError for an int outside T's range, else TypeError. */
template <typename T>
[[noreturn]] void ThrowCastErrorFor(const TVMFFIAny* value);
}  // namespace details

namespace details {
template <typename T>
auto AnyAs(const TVMFFIAny* v) {
  if constexpr (std::is_base_of_v<Object, T>) {
    if (!IsObjectIndex(v->type_index)) return static_cast<const T*>(nullptr);
    const Object* obj = ObjectUnsafe::FromHeader(v->v_obj);
    return obj->IsInstance<T>() ? static_cast<const T*>(obj) : nullptr;
  } else {
    return TypeTraits<T>::TryCastFromAnyView(v);
  }
}
}  // namespace details

/*! A borrowed value: valid while what it points at lives. */
class AnyView {
 public:
  AnyView() { details::InitNone(&data_); }
  AnyView(const AnyView&) = default;
  AnyView& operator=(const AnyView&) = default;
  AnyView(const Any& other);  // NOLINT
  template <typename T, typename = std::enable_if_t<details::kIsAnyConvertible<T>>>
  AnyView(const T& value) {  // NOLINT
    details::InitNone(&data_);
    TypeTraitsNoCR<T>::CopyToAnyView(value, &data_);
  }
  AnyView(const char* value) {  // NOLINT
    details::InitNone(&data_);
    data_.type_index = kTVMFFIRawStr;
    data_.v_c_str = value;
  }

  int32_t type_index() const { return data_.type_index; }
  std::string GetTypeKey() const { return details::AnyTypeName(&data_); }
  bool is_none() const { return data_.type_index == kTVMFFINone; }

  /*! The value as T, or nullopt when it cannot be converted. */
  template <typename T>
  std::optional<T> try_cast() const {
    return TypeTraits<T>::TryCastFromAnyView(&data_);
  }
  /*! apache-tvm-ffi's as<T>(): a `const T*` (or nullptr) for an object class T, else try_cast. */
  template <typename T>
  auto as() const {
    return details::AnyAs<T>(&data_);
  }
  /*! The value as T; TypeError when it cannot be converted. */
  template <typename T>
  T cast() const {
    std::optional<T> out = TypeTraits<T>::TryCastFromAnyView(&data_);
    if (!out.has_value()) details::ThrowCastErrorFor<T>(&data_);
    return *std::move(out);
  }
  template <typename T>
  operator T() const {  // NOLINT
    return cast<T>();
  }

  const TVMFFIAny* raw() const { return &data_; }
  TVMFFIAny* raw_mutable() { return &data_; }

 protected:
  TVMFFIAny data_;
  friend class Any;
};

/*! An owned value: holds a strong reference when it carries an object. */
class Any {
 public:
  Any() { details::InitNone(&data_); }
  Any(const Any& other) : data_(other.data_) {
    if (details::IsObjectIndex(data_.type_index)) Object::IncRefHeader(data_.v_obj);
  }
  Any(Any&& other) noexcept : data_(other.data_) { details::InitNone(&other.data_); }
  Any(const AnyView& view) { details::CopyViewToOwned(&view.data_, &data_); }  // NOLINT
  template <typename T, typename = std::enable_if_t<details::kIsAnyConvertible<T>>>
  Any(T value) {  // NOLINT
    details::InitNone(&data_);
    TypeTraitsNoCR<T>::MoveToAny(std::move(value), &data_);
  }
  Any(const char* value) : Any(AnyView(value)) {}  // NOLINT
  ~Any() { reset(); }
  Any& operator=(Any other) noexcept {
    std::swap(data_, other.data_);
    return *this;
  }
  void reset() {
    if (details::IsObjectIndex(data_.type_index)) Object::DecRefHeader(data_.v_obj);
    details::InitNone(&data_);
  }

  int32_t type_index() const { return data_.type_index; }
  std::string GetTypeKey() const { return details::AnyTypeName(&data_); }
  bool is_none() const { return data_.type_index == kTVMFFINone; }
  template <typename T>
  std::optional<T> try_cast() const {
    return TypeTraits<T>::TryCastFromAnyView(&data_);
  }
  template <typename T>
  T cast() const {
    return AnyView(*this).cast<T>();
  }
  template <typename T>
  auto as() const {
    return details::AnyAs<T>(&data_);
  }
  template <typename T>
  operator T() const {  // NOLINT
    return cast<T>();
  }

  /*! Hands the owned value over to C; this Any becomes None. */
  void MoveToTVMFFIAny(TVMFFIAny* out) {
    *out = data_;
    details::InitNone(&data_);
  }
  /*! Takes ownership of a C value. */
  static Any FromTVMFFIAny(TVMFFIAny* in) {
    Any out;
    out.data_ = *in;
    details::InitNone(in);
    return out;
  }
  const TVMFFIAny* raw() const { return &data_; }
  TVMFFIAny* raw_mutable() { return &data_; }

 private:
  TVMFFIAny data_;
  friend class AnyView;
};

inline AnyView::AnyView(const Any& other) : data_(other.data_) {}

static_assert(sizeof(Any) == sizeof(TVMFFIAny), "Any must match TVMFFIAny");
static_assert(sizeof(AnyView) == sizeof(TVMFFIAny), "AnyView must match TVMFFIAny");

// ---------------------------------------------------------------------------------------
// Traits for the POD kinds.
// ---------------------------------------------------------------------------------------
/*! Shared shape of the traits of values held inline (no reference counting). */
template <typename T>
struct PODTraitsBase {
  static constexpr bool enabled = true;
  static void MoveToAny(T value, TVMFFIAny* out) { TypeTraits<T>::CopyToAnyView(value, out); }
};

template <typename Int>
struct TypeTraits<Int, std::enable_if_t<std::is_integral_v<Int> && !std::is_same_v<Int, bool>>>
    : PODTraitsBase<Int> {
  static void CopyToAnyView(Int value, TVMFFIAny* out) {
    out->type_index = kTVMFFIInt;
    out->v_int64 = static_cast<int64_t>(value);
  }
  static std::optional<Int> TryCastFromAnyView(const TVMFFIAny* v) {
    if ((v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool) && InRange(v->v_int64)) {
      return static_cast<Int>(v->v_int64);
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return "int"; }
  /*! Whether an int64 fits: a narrow or unsigned Int must never truncate silently. */
  static bool InRange(int64_t x) {
    if constexpr (std::is_signed_v<Int>) {
      return x >= static_cast<int64_t>(std::numeric_limits<Int>::min()) &&
             x <= static_cast<int64_t>(std::numeric_limits<Int>::max());
    } else {
      return x >= 0 && static_cast<uint64_t>(x) <= std::numeric_limits<Int>::max();
    }
  }
  /*! Names Int and its range in errors, e.g. "an int32 in [-2147483648, 2147483647]". */
  static std::string RangeStr() {
    std::string name =
        std::string(std::is_signed_v<Int> ? "an int" : "a uint") + std::to_string(8 * sizeof(Int));
    return name + " in [" + std::to_string(+std::numeric_limits<Int>::min()) + ", " +
           std::to_string(+std::numeric_limits<Int>::max()) + "]";
  }
};

namespace details {
/*! Whether T is an integer type whose casts check a range (every one but bool). */
template <typename T, typename = void>
struct HasIntRange : std::false_type {};
template <typename T>
struct HasIntRange<T, std::void_t<decltype(TypeTraits<T>::RangeStr())>> : std::true_type {};
/*! Whether the cast of value to T failed only because the int is outside T's range. */
template <typename T>
bool IsIntOutOfRange(const TVMFFIAny* value) {
  if constexpr (HasIntRange<T>::value) {
    return value->type_index == kTVMFFIInt || value->type_index == kTVMFFIBool;
  } else {
    return false;
  }
}
}  // namespace details

template <>
struct TypeTraits<bool> : PODTraitsBase<bool> {
  static void CopyToAnyView(bool value, TVMFFIAny* out) {
    out->type_index = kTVMFFIBool;
    out->v_int64 = value ? 1 : 0;
  }
  static std::optional<bool> TryCastFromAnyView(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIBool || v->type_index == kTVMFFIInt) return v->v_int64 != 0;
    return std::nullopt;
  }
  static std::string TypeStr() { return "bool"; }
};

template <typename Float>
struct TypeTraits<Float, std::enable_if_t<std::is_floating_point_v<Float>>> : PODTraitsBase<Float> {
  static void CopyToAnyView(Float value, TVMFFIAny* out) {
    out->type_index = kTVMFFIFloat;
    out->v_float64 = static_cast<double>(value);
  }
  static std::optional<Float> TryCastFromAnyView(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIFloat) return static_cast<Float>(v->v_float64);
    if (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool) {
      return static_cast<Float>(v->v_int64);
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return "float"; }
};

template <>
struct TypeTraits<std::nullptr_t> : PODTraitsBase<std::nullptr_t> {
  static void CopyToAnyView(std::nullptr_t, TVMFFIAny* out) { details::InitNone(out); }
  static std::optional<std::nullptr_t> TryCastFromAnyView(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFINone) return nullptr;
    return std::nullopt;
  }
  static std::string TypeStr() { return "None"; }
};

template <>
struct TypeTraits<void*> : PODTraitsBase<void*> {
  static void CopyToAnyView(void* value, TVMFFIAny* out) {
    if (value == nullptr) return details::InitNone(out);
    out->type_index = kTVMFFIOpaquePtr;
    out->v_ptr = value;
  }
  static std::optional<void*> TryCastFromAnyView(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIOpaquePtr) return v->v_ptr;
    if (v->type_index == kTVMFFINone) return static_cast<void*>(nullptr);
    return std::nullopt;
  }
  static std::string TypeStr() { return "void*"; }
};

template <>
struct TypeTraits<DLDevice> : PODTraitsBase<DLDevice> {
  static void CopyToAnyView(DLDevice value, TVMFFIAny* out) {
    out->type_index = kTVMFFIDevice;
    out->v_int64 = 0;
    out->v_device = value;
  }
  static std::optional<DLDevice> TryCastFromAnyView(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIDevice) return v->v_device;
    return std::nullopt;
  }
  static std::string TypeStr() { return "Device"; }
};

namespace details {
/*! Parses a dtype string held by a str value; false when it is not a str or not a dtype. */
inline bool TryParseDataTypeFromAny(const TVMFFIAny* v, DLDataType* out) {
  std::string_view view;
  if (!GetStringView(v, false, &view)) return false;
  TVMFFIByteArray bytes{view.data(), view.size()};
  if (TVMFFIDataTypeFromString(&bytes, out) == 0) return true;
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  if (err) TVMFFIObjectDecRef(err);
  return false;
}
}  // namespace details

template <>
struct TypeTraits<DLDataType> : PODTraitsBase<DLDataType> {
  static void CopyToAnyView(DLDataType value, TVMFFIAny* out) {
    out->type_index = kTVMFFIDataType;
    out->v_int64 = 0;
    out->v_dtype = value;
  }
  static std::optional<DLDataType> TryCastFromAnyView(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIDataType) return v->v_dtype;
    DLDataType parsed;
    if (details::TryParseDataTypeFromAny(v, &parsed)) return parsed;
    return std::nullopt;
  }
  static std::string TypeStr() { return "dtype"; }
  static std::string TypeSchema() { return details::TypeSchemaLeaf("DataType"); }
};

template <>
struct TypeTraits<DLTensor*> : PODTraitsBase<DLTensor*> {
  static void CopyToAnyView(DLTensor* value, TVMFFIAny* out) {
    out->type_index = kTVMFFIDLTensorPtr;
    out->v_ptr = value;
  }
  static std::optional<DLTensor*> TryCastFromAnyView(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIDLTensorPtr) return static_cast<DLTensor*>(v->v_ptr);
    if (v->type_index == kTVMFFITensor) return TVMFFITensorGetDLTensorPtr(v->v_obj);
    return std::nullopt;
  }
  static std::string TypeStr() { return "DLTensor*"; }
};

template <>
struct TypeTraits<Any> {
  static constexpr bool enabled = true;
  static std::optional<Any> TryCastFromAnyView(const TVMFFIAny* v) {
    return std::optional<Any>(std::in_place, *reinterpret_cast<const AnyView*>(v));
  }
  static std::string TypeStr() { return "Any"; }
};

template <>
struct TypeTraits<AnyView> {
  static constexpr bool enabled = true;
  static std::optional<AnyView> TryCastFromAnyView(const TVMFFIAny* v) {
    return std::optional<AnyView>(std::in_place, *reinterpret_cast<const AnyView*>(v));
  }
  static std::string TypeStr() { return "Any"; }
};

// ---------------------------------------------------------------------------------------
// Traits for every ObjectRef subclass: checked by runtime type index.
// ---------------------------------------------------------------------------------------
template <typename Ref>
struct ObjectRefTraitsBase {
  static constexpr bool enabled = true;
  using ContainerType = typename Ref::ContainerType;
  static void CopyToAnyView(const Ref& ref, TVMFFIAny* out) {
    const Object* obj = ref.get();
    if (obj == nullptr) return details::InitNone(out);
    out->type_index = obj->type_index();
    out->v_obj = details::ObjectUnsafe::GetHeader(obj);
  }
  static void MoveToAny(Ref ref, TVMFFIAny* out) {
    if (!ref.defined()) return details::InitNone(out);
    ObjectPtr<Object> ptr = ObjectRefAccess::MovePtr(std::move(ref));
    out->type_index = ptr->type_index();
    out->v_obj = details::ObjectUnsafe::MoveToHeader(std::move(ptr));
  }
  static bool CheckAnyView(const TVMFFIAny* v) {
    if (!details::IsObjectIndex(v->type_index)) return false;
    if (std::is_same_v<ContainerType, Object>) return true;
    int32_t target = ContainerType::RuntimeTypeIndex();
    return v->type_index == target ||
           (!ContainerType::_type_final && details::IsSubtype(v->type_index, target));
  }
  static std::optional<Ref> TryCastFromAnyView(const TVMFFIAny* v) {
    if (!CheckAnyView(v)) return std::nullopt;
    return ObjectRefAccess::FromPtr<Ref>(
        details::ObjectUnsafe::FromBorrowedHeader<Object>(v->v_obj));
  }
  static std::string TypeStr() { return ContainerType::_type_key; }
};

template <typename Ref>
struct TypeTraits<Ref,
                  std::enable_if_t<std::is_base_of_v<ObjectRef, Ref> && !Ref::_custom_type_traits>>
    : ObjectRefTraitsBase<Ref> {};

namespace details {
template <typename T, typename = void>
struct HasTypeSchema : std::false_type {};
template <typename T>
struct HasTypeSchema<T, std::void_t<decltype(TypeTraits<T>::TypeSchema())>> : std::true_type {};
template <typename T, typename = void>
struct HasTypeStr : std::false_type {};
template <typename T>
struct HasTypeStr<T, std::void_t<decltype(TypeTraits<T>::TypeStr())>> : std::true_type {};

// Type keys are identifiers and dots, but quote them safely anyway.
inline std::string TypeSchemaLeaf(const std::string& key) {
  std::string out = "{\"type\":\"";
  for (char c : key) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"}";
}

/*!
 * The type schema of T as upstream's JSON (the stub generator reads it): {"type":"int"},
 * {"type":"ffi.Array","args":[{"type":"int"}]}. A TypeTraits with `TypeSchema()` gives its
 * own; otherwise the schema is the leaf named by TypeStr() (POD names, object type keys).
 */
template <typename T>
std::string TypeSchemaOf() {
  using U = std::remove_cv_t<std::remove_reference_t<T>>;
  if constexpr (std::is_void_v<U>) {
    return TypeSchemaLeaf("None");
  } else if constexpr (HasTypeSchema<U>::value) {
    return TypeTraits<U>::TypeSchema();
  } else if constexpr (HasTypeStr<U>::value) {
    return TypeSchemaLeaf(TypeTraits<U>::TypeStr());
  } else {
    return TypeSchemaLeaf("Any");
  }
}

/*! `{"type":"<origin>","args":[<schema of Args>...]}`. */
template <typename... Args>
std::string TypeSchemaGeneric(const std::string& origin) {
  std::string out = TypeSchemaLeaf(origin);
  out.pop_back();
  out += ",\"args\":[";
  [[maybe_unused]] bool first = true;
  ((out += (first ? "" : ","), out += TypeSchemaOf<Args>(), first = false), ...);
  return out + "]}";
}

/*!
 * A typed function's schema: {"type":"ffi.Function","named_args":{"return":[R],"params":[...]}};
 * `first_param`, when given, is the schema of a leading parameter (an instance method's self).
 */
template <typename R, typename... Args>
std::string FunctionTypeSchema(const std::string& first_param = "") {
  std::string out = "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[" + TypeSchemaOf<R>() +
                    "],\"params\":[" + first_param;
  [[maybe_unused]] bool first = first_param.empty();
  ((out += (first ? "" : ","), out += TypeSchemaOf<Args>(), first = false), ...);
  return out + "]}}";
}

/*! `s` as a JSON string literal (metadata holds schemas as strings, as upstream's does). */
inline std::string JsonQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[(c >> 4) & 0xF];
      out += hex[c & 0xF];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/*! The metadata JSON object registered beside a function, field or method. */
inline std::string TypeSchemaMetadata(const std::string& schema) {
  return "{\"type_schema\":" + JsonQuote(schema) + "}";
}
}  // namespace details

}  // namespace ffi
}  // namespace tvm

// Error is defined on top of Any; the cast errors above need it.
#include <tvm_ffi/error.h>

#endif  // TVM_FFI_ANY_H_
