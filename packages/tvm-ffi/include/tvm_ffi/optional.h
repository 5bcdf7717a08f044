// Optional<T>: a value or None, crossing as T or None.
#ifndef TVM_FFI_OPTIONAL_H_
#define TVM_FFI_OPTIONAL_H_

#include <tvm_ffi/any.h>

#include <optional>

namespace tvm {
namespace ffi {

template <typename T>
using Optional = std::optional<T>;

template <typename T>
struct TypeTraits<std::optional<T>> {
  static constexpr bool enabled = TypeTraits<T>::enabled;
  static void CopyToAnyView(const std::optional<T>& value, TVMFFIAny* out) {
    if (!value.has_value()) return details::InitNone(out);
    TypeTraits<T>::CopyToAnyView(*value, out);
  }
  static void MoveToAny(std::optional<T> value, TVMFFIAny* out) {
    if (!value.has_value()) return details::InitNone(out);
    TypeTraits<T>::MoveToAny(*std::move(value), out);
  }
  static std::optional<std::optional<T>> TryCastFromAnyView(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFINone) return std::optional<T>();
    std::optional<T> inner = TypeTraits<T>::TryCastFromAnyView(v);
    if (!inner.has_value()) return std::nullopt;
    return inner;
  }
  static std::string TypeStr() { return "Optional[" + TypeTraits<T>::TypeStr() + "]"; }
  static std::string TypeSchema() { return details::TypeSchemaGeneric<T>("Optional"); }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_OPTIONAL_H_
