// Source lines for backtraces: libdw is opened at run time, so tvm-ffi never depends on it.
#include "source_lines.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace tvm {
namespace ffi {
namespace details {
namespace {

// The few libdw (libdwfl) entry points used, declared by their documented signatures.
struct Dwfl;
struct Dwfl_Module;
struct Dwfl_Line;
using Dwarf_Addr = uint64_t;
using Dwarf_Word = uint64_t;
using FindElf = int (*)(Dwfl_Module*, void**, const char*, Dwarf_Addr, char**, void**);
using FindDebuginfo = int (*)(Dwfl_Module*, void**, const char*, Dwarf_Addr, const char*,
                              const char*, uint32_t, char**);
struct Dwfl_Callbacks {
  FindElf find_elf;
  FindDebuginfo find_debuginfo;
  void* section_address;
  char** debuginfo_path;
};

struct LibDw {
  Dwfl* (*begin)(const Dwfl_Callbacks*) = nullptr;
  int (*proc_report)(Dwfl*, pid_t) = nullptr;
  int (*report_begin)(Dwfl*) = nullptr;
  int (*report_end)(Dwfl*, void*, void*) = nullptr;
  Dwfl_Line* (*getsrc)(Dwfl*, Dwarf_Addr) = nullptr;
  const char* (*lineinfo)(Dwfl_Line*, Dwarf_Addr*, int*, int*, Dwarf_Word*, Dwarf_Word*) = nullptr;
  Dwfl_Module* (*addrmodule)(Dwfl*, Dwarf_Addr) = nullptr;
  Dwfl_Callbacks callbacks{};
  Dwfl* session = nullptr;
  bool ok = false;

  LibDw() {
    const char* env = std::getenv("TVM_FFI_BACKTRACE_LINES");
    if (env != nullptr && std::strcmp(env, "0") == 0) return;
    void* lib = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return;
    begin = reinterpret_cast<decltype(begin)>(dlsym(lib, "dwfl_begin"));
    proc_report = reinterpret_cast<decltype(proc_report)>(dlsym(lib, "dwfl_linux_proc_report"));
    report_begin = reinterpret_cast<decltype(report_begin)>(dlsym(lib, "dwfl_report_begin"));
    report_end = reinterpret_cast<decltype(report_end)>(dlsym(lib, "dwfl_report_end"));
    getsrc = reinterpret_cast<decltype(getsrc)>(dlsym(lib, "dwfl_getsrc"));
    lineinfo = reinterpret_cast<decltype(lineinfo)>(dlsym(lib, "dwfl_lineinfo"));
    addrmodule = reinterpret_cast<decltype(addrmodule)>(dlsym(lib, "dwfl_addrmodule"));
    callbacks.find_elf = reinterpret_cast<FindElf>(dlsym(lib, "dwfl_linux_proc_find_elf"));
    callbacks.find_debuginfo =
        reinterpret_cast<FindDebuginfo>(dlsym(lib, "dwfl_standard_find_debuginfo"));
    ok = begin && proc_report && report_begin && report_end && getsrc && lineinfo && addrmodule &&
         callbacks.find_elf && callbacks.find_debuginfo;
    if (ok) session = begin(&callbacks);
    ok = ok && session != nullptr && Report();
  }

  /*! (Re)reads the process's mappings: libraries loaded since the last report appear. */
  bool Report() {
    report_begin(session);
    int failed = proc_report(session, getpid());
    return report_end(session, nullptr, nullptr) == 0 && failed == 0;
  }
};

std::mutex mu;

LibDw* Get() {
  static LibDw* libdw = new LibDw();  // kept for the process: it caches parsed line tables
  return libdw;
}

}  // namespace

bool LookupSourceLine(void* pc, std::string* file, int* line) {
  std::lock_guard<std::mutex> lock(mu);
  LibDw* dw = Get();
  if (!dw->ok) return false;
  Dwarf_Addr addr = reinterpret_cast<Dwarf_Addr>(pc);
  if (dw->addrmodule(dw->session, addr) == nullptr && !dw->Report()) return false;
  Dwfl_Line* src = dw->getsrc(dw->session, addr);
  if (src == nullptr) return false;
  int lineno = 0;
  const char* name = dw->lineinfo(src, nullptr, &lineno, nullptr, nullptr, nullptr);
  if (name == nullptr || lineno <= 0) return false;
  *file = name;
  *line = lineno;
  return true;
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm
