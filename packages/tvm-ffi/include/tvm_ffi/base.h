// Common macros and small utilities shared by the tvm-ffi C++ headers.
#ifndef TVM_FFI_BASE_H_
#define TVM_FFI_BASE_H_

#include <tvm_ffi/c_api.h>

#include <cstdint>
#include <string>

#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_INLINE inline __attribute__((always_inline))
#define TVM_FFI_FUNC_SIG __PRETTY_FUNCTION__
#define TVM_FFI_LIKELY(x) __builtin_expect(!!(x), 1)
#define TVM_FFI_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define TVM_FFI_INLINE inline
#define TVM_FFI_FUNC_SIG __func__
#define TVM_FFI_LIKELY(x) (x)
#define TVM_FFI_UNLIKELY(x) (x)
#endif

#define TVM_FFI_STR_CONCAT_(a, b) a##b
#define TVM_FFI_STR_CONCAT(a, b) TVM_FFI_STR_CONCAT_(a, b)

/*!
 * Runs a block of code once when the library that holds it is loaded, e.g. to register
 * global functions. Both spellings work, so plugins written for apache-tvm-ffi compile:
 *   TVM_FFI_STATIC_INIT_BLOCK() { ... }      (apache-tvm-ffi's form)
 *   TVM_FFI_STATIC_INIT_BLOCK({ ... });      (the body as the argument)
 * The body becomes a static function run by a static initializer: the argument form just
 * places its braces after the function's head.
 */
#define TVM_FFI_STATIC_INIT_BLOCK(...)                                                       \
  TVM_FFI_STATIC_INIT_BLOCK_DEF_(TVM_FFI_STR_CONCAT(__tvm_ffi_static_init_fn_, __COUNTER__)) \
  __VA_ARGS__
#define TVM_FFI_STATIC_INIT_BLOCK_DEF_(FnName)                                        \
  static void FnName();                                                               \
  [[maybe_unused]] static const int TVM_FFI_STR_CONCAT(FnName, _reg) = (FnName(), 0); \
  static void FnName()

namespace tvm {
namespace ffi {
namespace details {

inline TVMFFIByteArray MakeByteArray(const std::string& s) { return {s.data(), s.size()}; }
inline std::string ByteArrayToString(const TVMFFIByteArray* bytes) {
  return std::string(bytes->data, bytes->size);
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_BASE_H_
