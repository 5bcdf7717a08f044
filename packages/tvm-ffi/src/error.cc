// Errors: the thread-local raised error, creation from C, and native backtrace capture.
#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <tvm_ffi/ffi.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "source_lines.h"

namespace tvm {
namespace ffi {
namespace {

thread_local TVMFFIObject* raised_error = nullptr;

std::string Demangle(const char* name) {
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) return name;
  std::string result(out);
  std::free(out);
  return result;
}

bool StartsWith(const std::string& s, const char* prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

/*! Frames that tell a reader nothing: our dispatch, the standard library, libc, the interpreter. */
bool IsNoiseFrame(const std::string& symbol, const char* library) {
  static const char* kPrefixes[] = {"tvm::ffi::details::",
                                    "tvm::ffi::Function::",
                                    "std::",
                                    "__gnu_cxx::",
                                    "__libc_start",
                                    "_start",
                                    "TVMFFIFunctionCall",
                                    "TVMFFIBacktrace",
                                    "_Py",
                                    "Py",
                                    "method_vectorcall",
                                    "cfunction_",
                                    "void std::",
                                    "decltype(",
                                    "__invoke"};
  for (const char* p : kPrefixes) {
    if (StartsWith(symbol, p)) return true;
  }
  if (symbol.find("PackedFunctionObj") != std::string::npos) return true;
  // Template functions demangle with their return type first ("void tvm::ffi::details::...").
  if (symbol.find(" tvm::ffi::details::") != std::string::npos) return true;
  // The generated export trampolines of TVM_FFI_DLL_EXPORT_TYPED_FUNC.
  if (StartsWith(symbol, "__tvm_ffi_")) return true;
  if (symbol.find("{lambda(tvm::ffi::PackedArgs") != std::string::npos) return true;
  if (library && (std::strstr(library, "libpython") || std::strstr(library, "/libc.so") ||
                  std::strstr(library, "libstdc++"))) {
    return true;
  }
  return false;
}

/*! Frames of the language binding mark where the caller's own traceback takes over. */
bool IsBindingFrame(const std::string& symbol) {
  return symbol.find("tvm_ffi_py::") != std::string::npos;
}

int TracebackLimit() {
  const char* env = std::getenv("TVM_TRACEBACK_LIMIT");
  if (env == nullptr || *env == '\0') return 64;
  int limit = std::atoi(env);
  return limit < 0 ? 0 : limit;
}

std::string FormatFrame(const std::string& file, int line, const std::string& func) {
  return "  File \"" + file + "\", line " + std::to_string(line) + ", in " + func + "\n";
}

}  // namespace
}  // namespace ffi
}  // namespace tvm

using namespace tvm::ffi;  // NOLINT

int TVMFFIBacktrace(const char* file, int line, const char* func, TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  int limit = TracebackLimit();
  std::vector<std::string> frames;  // innermost first
  if (limit > 0) {
    frames.push_back(FormatFrame(file ? file : "<unknown>", line, func ? func : "<unknown>"));
  }
  void* addresses[128];
  int depth = backtrace(addresses, 128);
  bool skipped_thrower = false;
  // Frame 0 is this function.
  for (int i = 1; i < depth && static_cast<int>(frames.size()) < limit; ++i) {
    Dl_info info;
    // Look up the call instruction, not the return address that follows it.
    void* pc = static_cast<char*>(addresses[i]) - 1;
    if (dladdr(pc, &info) == 0 || info.dli_sname == nullptr) continue;
    std::string symbol = Demangle(info.dli_sname);
    if (IsBindingFrame(symbol)) break;
    if (IsNoiseFrame(symbol, info.dli_fname)) continue;
    // The innermost named frame is the thrower, already shown with its exact line.
    if (!skipped_thrower && func && symbol.find(func) != std::string::npos) {
      skipped_thrower = true;
      continue;
    }
    skipped_thrower = true;
    std::string file = info.dli_fname ? info.dli_fname : "<unknown>";
    int lineno = 0;
    details::LookupSourceLine(pc, &file, &lineno);
    frames.push_back(FormatFrame(file, lineno, symbol));
  }
  std::string text;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) text += *it;
  details::MoveStringToAny(text, false, out);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                      const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  Error err(std::string(kind->data, kind->size), std::string(message->data, message->size),
            backtrace ? std::string(backtrace->data, backtrace->size) : std::string());
  *out = details::ObjectUnsafe::MoveToHeader(ObjectRefAccess::MovePtr(std::move(err)));
  TVM_FFI_SAFE_CALL_END();
}

void TVMFFIErrorSetRaised(TVMFFIObjectHandle err) {
  auto* header = static_cast<TVMFFIObject*>(err);
  if (header) Object::IncRefHeader(header);
  TVMFFIObject* old = raised_error;
  raised_error = header;
  if (old) Object::DecRefHeader(old);
}

void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message) {
  try {
    Error err(kind ? kind : "RuntimeError", message ? message : "", "");
    details::SetRaised(err);
  } catch (...) {
    // Out of memory while reporting an error: nothing better can be done.
  }
}

void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* out) {
  *out = raised_error;
  raised_error = nullptr;
}
