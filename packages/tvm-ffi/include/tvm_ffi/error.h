// Error objects (kind, message, backtrace) and TVM_FFI_THROW, which captures a backtrace.
#ifndef TVM_FFI_ERROR_H_
#define TVM_FFI_ERROR_H_

#include <tvm_ffi/any.h>

#include <exception>
#if defined(__GLIBCXX__)
#include <cxxabi.h>
#endif
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tvm {
namespace ffi {

/*! The object behind Error. The cell (c_api.h) points into the std::string members. */
class ErrorObj : public Object {
 public:
  TVMFFIErrorCell cell;
  std::string kind;
  std::string message;
  std::string backtrace;
  /*! Something a language binding attaches (e.g. the original Python exception). */
  Any payload;

  ErrorObj(std::string k, std::string m, std::string bt)
      : kind(std::move(k)), message(std::move(m)), backtrace(std::move(bt)) {
    cell.update_backtrace = UpdateBacktrace;
    SyncCell();
  }
  void SyncCell() {
    cell.kind = {kind.data(), kind.size()};
    cell.message = {message.data(), message.size()};
    cell.backtrace = {backtrace.data(), backtrace.size()};
  }
  static void UpdateBacktrace(TVMFFIObjectHandle self, const TVMFFIByteArray* bt, int32_t mode) {
    auto* obj = static_cast<ErrorObj*>(reinterpret_cast<Object*>(self));
    std::string text(bt->data, bt->size);
    if (mode == kTVMFFIBacktraceUpdateModeAppend) {
      obj->backtrace = text + obj->backtrace;
    } else {
      obj->backtrace = std::move(text);
    }
    obj->SyncCell();
  }

  TVM_FFI_DECLARE_STATIC_OBJECT_INFO("ffi.Error", ErrorObj, Object, kTVMFFIError);
};

/*! An FFI error as a C++ exception. */
class Error : public ObjectRef, public std::exception {
 public:
  Error(std::string kind, std::string message, std::string backtrace)
      : ObjectRef(
            make_object<ErrorObj>(std::move(kind), std::move(message), std::move(backtrace))) {}
  explicit Error(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}

  const std::string& kind() const { return get()->kind; }
  const std::string& message() const { return get()->message; }
  const std::string& backtrace() const { return get()->backtrace; }
  /*! "Traceback (most recent call last):\n<frames>Kind: message", as Python prints it. */
  std::string TracebackMostRecentCallLast() const {
    return "Traceback (most recent call last):\n" + backtrace() + kind() + ": " + message();
  }
  const char* what() const noexcept override {
    what_ = kind() + ": " + message();
    return what_.c_str();
  }
  const ErrorObj* get() const { return static_cast<const ErrorObj*>(data_.get()); }
  ErrorObj* get_mutable() const { return static_cast<ErrorObj*>(data_.get()); }

  using ContainerType = ErrorObj;

 private:
  mutable std::string what_;
};

namespace details {

/*! Backtrace text of the current native stack with file:line:func as its innermost frame. */
inline std::string Backtrace(const char* file, int line, const char* func) {
  TVMFFIAny out;
  InitNone(&out);
  if (TVMFFIBacktrace(file, line, func, &out) != 0) return std::string();
  std::string_view view;
  std::string text = GetStringView(&out, false, &view) ? std::string(view) : std::string();
  if (IsObjectIndex(out.type_index)) Object::DecRefHeader(out.v_obj);
  return text;
}

/*! Collects the message of TVM_FFI_THROW and throws when the statement ends. */
class ErrorBuilder {
 public:
  ErrorBuilder(const char* kind, const char* file, int line, const char* func)
      : kind_(kind), backtrace_(Backtrace(file, line, func)) {}
  ErrorBuilder(const ErrorBuilder&) = delete;
  std::ostringstream& stream() { return stream_; }
  [[noreturn]] ~ErrorBuilder() noexcept(false) { throw Error(kind_, stream_.str(), backtrace_); }

 private:
  std::string kind_;
  std::string backtrace_;
  std::ostringstream stream_;
};

/*!
 * Throws an FFI error of a kind (ValueError, TypeError, ...) with a streamed message:
 *   TVM_FFI_THROW(ValueError) << "bad shape " << shape;
 */
#define TVM_FFI_THROW(ErrorKind) \
  ::tvm::ffi::details::ErrorBuilder(#ErrorKind, __FILE__, __LINE__, __func__).stream()

/*! The raised error of this thread as an Error (after a call returned nonzero). */
inline Error MoveFromRaised() {
  TVMFFIObjectHandle handle = nullptr;
  TVMFFIErrorMoveFromRaised(&handle);
  if (handle == nullptr) {
    return Error("InternalError", "a call failed without raising an error", "");
  }
  return Error(ObjectUnsafe::FromOwnedHeader<Object>(static_cast<TVMFFIObject*>(handle)));
}

inline void SetRaised(const Error& err) {
  TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(err.get()));
}

/*! Stores a C++ exception as this thread's raised error; returns the code to give back. */
inline int SetRaisedFromException(std::exception_ptr ex) {
  try {
    std::rethrow_exception(ex);
  } catch (const Error& err) {
    SetRaised(err);
  } catch (const std::bad_alloc& err) {
    SetRaised(Error("MemoryError", err.what(), ""));
  } catch (const std::out_of_range& err) {
    SetRaised(Error("IndexError", err.what(), ""));
  } catch (const std::invalid_argument& err) {
    SetRaised(Error("ValueError", err.what(), ""));
  } catch (const std::exception& err) {
    SetRaised(Error("RuntimeError", err.what(), ""));
  } catch (...) {
    SetRaised(Error("RuntimeError", "unknown C++ exception", ""));
  }
  return -1;
}

[[noreturn]] inline void ThrowCastError(const TVMFFIAny* value, const std::string& target) {
  TVM_FFI_THROW(TypeError) << "Cannot convert from type `" << AnyTypeName(value) << "` to `"
                           << target << "`";
  throw;  // unreachable: the builder above throws
}

template <typename T>
[[noreturn]] void ThrowCastErrorFor(const TVMFFIAny* value) {
  if constexpr (HasIntRange<T>::value) {
    if (IsIntOutOfRange<T>(value)) {
      TVM_FFI_THROW(OverflowError)
          << "Cannot convert int " << value->v_int64 << " to " << TypeTraits<T>::RangeStr();
    }
  }
  ThrowCastError(value, TypeTraits<T>::TypeStr());
}

}  // namespace details

/*!
 * Thrown after an environment call such as TVMFFIEnvCheckSignals returned nonzero: the error
 * it raised, taken back so it travels as any Error does (apache-tvm-ffi's name).
 */
class EnvErrorAlreadySet : public Error {
 public:
  EnvErrorAlreadySet() : Error(details::MoveFromRaised()) {}
};

// Messages read as apache-tvm-ffi's: "Check failed: (cond) is false: <streamed text>".
#define TVM_FFI_CHECK(cond, ErrorKind)                \
  if (TVM_FFI_UNLIKELY(!(cond)))                      \
  TVM_FFI_THROW(ErrorKind) << "Check failed: (" #cond \
                              ") is "                 \
                              "false: "
#define TVM_FFI_ICHECK(cond) TVM_FFI_CHECK(cond, InternalError)

/*
 * A thread ended by pthread_exit or cancellation unwinds with abi::__forced_unwind, which
 * must be rethrown: swallowing it aborts the process.
 */
#if defined(__GLIBCXX__)
#define TVM_FFI_SAFE_CALL_RETHROW_FORCED_UNWIND_ \
  catch (::abi::__forced_unwind&) {              \
    throw;                                       \
  }
#else
#define TVM_FFI_SAFE_CALL_RETHROW_FORCED_UNWIND_
#endif

/*! Wraps the body of an extern "C" function: converts C++ exceptions to a raised error. */
#define TVM_FFI_SAFE_CALL_BEGIN() try {
#define TVM_FFI_SAFE_CALL_END()                                                   \
  return 0;                                                                       \
  }                                                                               \
  TVM_FFI_SAFE_CALL_RETHROW_FORCED_UNWIND_                                        \
  catch (...) {                                                                   \
    return ::tvm::ffi::details::SetRaisedFromException(std::current_exception()); \
  }

}  // namespace ffi
}  // namespace tvm

// The comparison checks (TVM_FFI_CHECK_EQ, TVM_FFI_ICHECK_LT, ...) build on the above.
#include <tvm_ffi/check.h>

#endif  // TVM_FFI_ERROR_H_
