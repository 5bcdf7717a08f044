// TVM_FFI_THROW kinds, the backtrace text format, update modes and errors created from C.
#include <tvm_ffi/ffi.h>

#include <cstdlib>

#include "test_assertions.h"

using namespace tvm::ffi;  // NOLINT

// Outside the anonymous namespace: -rdynamic exports them, so dladdr can name their frames.
__attribute__((noinline)) void ThrowingHelper() { TVM_FFI_THROW(ValueError) << "bad value " << 42; }
__attribute__((noinline)) void CallsHelper() { ThrowingHelper(); }

namespace {
std::string ToStd(const TVMFFIByteArray& b) { return std::string(b.data, b.size); }
}  // namespace

int main() {
  for (const char* kind : {"ValueError", "TypeError", "IndexError", "KeyError", "RuntimeError"}) {
    try {
      details::ErrorBuilder(kind, __FILE__, __LINE__, __func__).stream() << "m";
    } catch (const Error& err) {
      CHECK_EQ(err.kind(), kind);
      CHECK_EQ(err.message(), "m");
      CHECK_EQ(std::string(err.what()), std::string(kind) + ": m");
    }
  }

  try {
    CallsHelper();
    CHECK(false);
  } catch (const Error& err) {
    CHECK_EQ(err.kind(), "ValueError");
    CHECK_EQ(err.message(), "bad value 42");
    const std::string bt = err.backtrace();
    // One frame a line, `  File "F", line N, in FUNC`, innermost (the throw site) last.
    CHECK(bt.rfind("  File \"", 0) == 0);
    std::string last_line = bt.substr(bt.rfind("  File \"", bt.size() - 2));
    CHECK(last_line.find("test_error.cc\", line ") != std::string::npos);
    CHECK(last_line.find(", in ThrowingHelper\n") != std::string::npos);
    // The caller appears above the thrower (most recent call last).
    size_t caller = bt.find("CallsHelper");
    CHECK(caller != std::string::npos);
    CHECK(caller < bt.rfind("ThrowingHelper"));
    // Frames of the standard library and of the error builder are dropped.
    CHECK(bt.find("std::") == std::string::npos);
    CHECK(bt.find("ErrorBuilder") == std::string::npos);
    std::string full = err.TracebackMostRecentCallLast();
    CHECK(full.rfind("Traceback (most recent call last):\n", 0) == 0);
    CHECK(full.size() >= 24 && full.substr(full.size() - 24) == "ValueError: bad value 42");

    // Update modes: append puts the new (older) frames in front; replace swaps the text.
    TVMFFIObjectHandle h = details::ObjectUnsafe::GetHeader(err.get());
    TVMFFIErrorCell* cell = TVMFFIErrorGetCell(h);
    std::string outer = "  File \"outer.py\", line 1, in <module>\n";
    TVMFFIByteArray outer_bytes{outer.data(), outer.size()};
    cell->update_backtrace(h, &outer_bytes, kTVMFFIBacktraceUpdateModeAppend);
    CHECK(ToStd(cell->backtrace).rfind(outer, 0) == 0);
    CHECK_EQ(ToStd(cell->backtrace), outer + bt);
    cell->update_backtrace(h, &outer_bytes, kTVMFFIBacktraceUpdateModeReplace);
    CHECK_EQ(ToStd(cell->backtrace), outer);
  }

  // TVM_TRACEBACK_LIMIT caps the number of frames.
  setenv("TVM_TRACEBACK_LIMIT", "1", 1);
  try {
    CallsHelper();
  } catch (const Error& err) {
    size_t lines = 0;
    for (char c : err.backtrace()) lines += c == '\n';
    CHECK_EQ(lines, 1u);
    CHECK(err.backtrace().find("ThrowingHelper") != std::string::npos);
  }
  setenv("TVM_TRACEBACK_LIMIT", "0", 1);
  try {
    CallsHelper();
  } catch (const Error& err) {
    CHECK(err.backtrace().empty());
  }
  unsetenv("TVM_TRACEBACK_LIMIT");

  // Errors from C: create, set raised, move back.
  TVMFFIByteArray kind{"TimeoutError", 12}, msg{"too slow", 8},
      bt{"  File \"x.c\", line 3, in f\n", 27};
  TVMFFIObjectHandle created = nullptr;
  CHECK_EQ(TVMFFIErrorCreate(&kind, &msg, &bt, &created), 0);
  TVMFFIErrorSetRaised(created);
  TVMFFIObjectDecRef(created);  // the raised slot holds its own reference
  TVMFFIObjectHandle moved = nullptr;
  TVMFFIErrorMoveFromRaised(&moved);
  CHECK(moved == created);
  CHECK_EQ(ToStd(TVMFFIErrorGetCell(moved)->kind), "TimeoutError");
  CHECK_EQ(ToStd(TVMFFIErrorGetCell(moved)->message), "too slow");
  CHECK_EQ(ToStd(TVMFFIErrorGetCell(moved)->backtrace), ToStd(bt));
  TVMFFIObjectDecRef(moved);
  TVMFFIErrorMoveFromRaised(&moved);
  CHECK(moved == nullptr);  // cleared

  TVMFFIErrorSetRaisedFromCStr("AssertionError", "from generated code");
  Error e = details::MoveFromRaised();
  CHECK_EQ(e.kind(), "AssertionError");
  CHECK_EQ(e.message(), "from generated code");

  // Standard exceptions thrown in a Function body map to kinds.
  Function f = Function::FromPacked([](PackedArgs, Any*) { throw std::out_of_range("oor"); });
  CHECK_THROWS(f(), "IndexError", "oor");
  return check::Report("error");
}
