// Check macros in apache-tvm-ffi's spelling: TVM_FFI_CHECK_EQ(x, y, Kind), TVM_FFI_ICHECK_LT(x, y),
// ...
#ifndef TVM_FFI_CHECK_H_
#define TVM_FFI_CHECK_H_

#include <tvm_ffi/error.h>

#include <optional>
#include <sstream>
#include <string>

namespace tvm {
namespace ffi {
namespace details {

/*! " (x vs. y)" when a comparison fails, nullopt when it holds. A function, not a macro,
 * so each operand is evaluated once and sign-compare warnings stay in one place. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#define TVM_FFI_DEFINE_CHECK_FUNC_(Name, Op)                             \
  template <typename X, typename Y>                                      \
  std::optional<std::string> CheckFailed##Name(const X& x, const Y& y) { \
    if (x Op y) return std::nullopt;                                     \
    std::ostringstream os;                                               \
    os << " (" << x << " vs. " << y << ")";                              \
    return os.str();                                                     \
  }
TVM_FFI_DEFINE_CHECK_FUNC_(_EQ, ==)
TVM_FFI_DEFINE_CHECK_FUNC_(_NE, !=)
TVM_FFI_DEFINE_CHECK_FUNC_(_LT, <)
TVM_FFI_DEFINE_CHECK_FUNC_(_LE, <=)
TVM_FFI_DEFINE_CHECK_FUNC_(_GT, >)
TVM_FFI_DEFINE_CHECK_FUNC_(_GE, >=)
#undef TVM_FFI_DEFINE_CHECK_FUNC_
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#define TVM_FFI_CHECK_BINARY_OP(Name, Op, x, y, ErrorKind)                         \
  if (auto __tvm_ffi_check_msg = ::tvm::ffi::details::CheckFailed##Name((x), (y))) \
  TVM_FFI_THROW(ErrorKind) << "Check failed: " #x " " #Op " " #y << *__tvm_ffi_check_msg << ": "

#define TVM_FFI_CHECK_EQ(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_EQ, ==, x, y, ErrorKind)
#define TVM_FFI_CHECK_NE(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_NE, !=, x, y, ErrorKind)
#define TVM_FFI_CHECK_LT(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_LT, <, x, y, ErrorKind)
#define TVM_FFI_CHECK_LE(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_LE, <=, x, y, ErrorKind)
#define TVM_FFI_CHECK_GT(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_GT, >, x, y, ErrorKind)
#define TVM_FFI_CHECK_GE(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_GE, >=, x, y, ErrorKind)
#define TVM_FFI_CHECK_NOTNULL(x, ErrorKind) \
  ((x) == nullptr ? (TVM_FFI_THROW(ErrorKind) << "Check not null: " #x << ' ', (x)) : (x))

#define TVM_FFI_ICHECK_EQ(x, y) TVM_FFI_CHECK_EQ(x, y, InternalError)
#define TVM_FFI_ICHECK_NE(x, y) TVM_FFI_CHECK_NE(x, y, InternalError)
#define TVM_FFI_ICHECK_LT(x, y) TVM_FFI_CHECK_LT(x, y, InternalError)
#define TVM_FFI_ICHECK_LE(x, y) TVM_FFI_CHECK_LE(x, y, InternalError)
#define TVM_FFI_ICHECK_GT(x, y) TVM_FFI_CHECK_GT(x, y, InternalError)
#define TVM_FFI_ICHECK_GE(x, y) TVM_FFI_CHECK_GE(x, y, InternalError)
#define TVM_FFI_ICHECK_NOTNULL(x) TVM_FFI_CHECK_NOTNULL(x, InternalError)

// Debug checks: like ICHECK, compiled out (operands unevaluated) under NDEBUG.
#ifndef NDEBUG
#define TVM_FFI_DCHECK(x) TVM_FFI_ICHECK(x)
#define TVM_FFI_DCHECK_EQ(x, y) TVM_FFI_ICHECK_EQ(x, y)
#define TVM_FFI_DCHECK_NE(x, y) TVM_FFI_ICHECK_NE(x, y)
#define TVM_FFI_DCHECK_LT(x, y) TVM_FFI_ICHECK_LT(x, y)
#define TVM_FFI_DCHECK_LE(x, y) TVM_FFI_ICHECK_LE(x, y)
#define TVM_FFI_DCHECK_GT(x, y) TVM_FFI_ICHECK_GT(x, y)
#define TVM_FFI_DCHECK_GE(x, y) TVM_FFI_ICHECK_GE(x, y)
#define TVM_FFI_DCHECK_NOTNULL(x) TVM_FFI_ICHECK_NOTNULL(x)
#else
// `while (false)` keeps the operands compiled (so they stay valid code) but never run.
#define TVM_FFI_DCHECK(x) \
  while (false) TVM_FFI_ICHECK(x)
#define TVM_FFI_DCHECK_EQ(x, y) \
  while (false) TVM_FFI_ICHECK_EQ(x, y)
#define TVM_FFI_DCHECK_NE(x, y) \
  while (false) TVM_FFI_ICHECK_NE(x, y)
#define TVM_FFI_DCHECK_LT(x, y) \
  while (false) TVM_FFI_ICHECK_LT(x, y)
#define TVM_FFI_DCHECK_LE(x, y) \
  while (false) TVM_FFI_ICHECK_LE(x, y)
#define TVM_FFI_DCHECK_GT(x, y) \
  while (false) TVM_FFI_ICHECK_GT(x, y)
#define TVM_FFI_DCHECK_GE(x, y) \
  while (false) TVM_FFI_ICHECK_GE(x, y)
#define TVM_FFI_DCHECK_NOTNULL(x) (x)
#endif

#endif  // TVM_FFI_CHECK_H_
