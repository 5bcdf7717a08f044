// Assertions for the C++ test binaries (CHECK, CHECK_EQ, CHECK_THROWS): failures are counted
// and reported, and the binary exits non-zero.
#ifndef TVM_FFI_TESTS_TEST_ASSERTIONS_H_
#define TVM_FFI_TESTS_TEST_ASSERTIONS_H_

#include <tvm_ffi/error.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace check {
inline int failures = 0;
inline void Fail(const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, what.c_str());
  ++failures;
}
inline int Report(const char* name) {
  if (failures == 0) std::printf("%s: all checks passed\n", name);
  return failures == 0 ? 0 : 1;
}
}  // namespace check

#define CHECK(cond)                                        \
  do {                                                     \
    if (!(cond)) ::check::Fail(__FILE__, __LINE__, #cond); \
  } while (0)

#define CHECK_EQ(a, b)                                                  \
  do {                                                                  \
    if (!((a) == (b))) ::check::Fail(__FILE__, __LINE__, #a " == " #b); \
  } while (0)

/*! stmt must throw a tvm::ffi::Error of want_kind whose message contains want_text. */
#define CHECK_THROWS(stmt, want_kind, want_text)                                                \
  do {                                                                                          \
    bool thrown_ = false;                                                                       \
    try {                                                                                       \
      stmt;                                                                                     \
    } catch (const ::tvm::ffi::Error& err_) {                                                   \
      thrown_ = true;                                                                           \
      if (err_.kind() != (want_kind)) ::check::Fail(__FILE__, __LINE__, "kind " + err_.kind()); \
      if (err_.message().find(want_text) == std::string::npos)                                  \
        ::check::Fail(__FILE__, __LINE__, "message: " + err_.message());                        \
    }                                                                                           \
    if (!thrown_) ::check::Fail(__FILE__, __LINE__, "no error from " #stmt);                    \
  } while (0)

#endif  // TVM_FFI_TESTS_TEST_ASSERTIONS_H_
