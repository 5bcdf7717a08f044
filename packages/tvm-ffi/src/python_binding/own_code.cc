// Whether a code address lies in tvm-ffi itself (libtvm_ffi or this module) or in another library.
#include <link.h>

#include <cstdint>
#include <vector>

#include "core.h"

namespace tvm_ffi_py {
namespace {

struct Range {
  uintptr_t begin, end;
};

struct Search {
  uintptr_t anchor;
  Range found{0, 0};
};

/*! dl_iterate_phdr callback: the span of the loaded segments of the object holding the anchor. */
int FindObject(dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<Search*>(data);
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (start < lo) lo = start;
    if (start + ph.p_memsz > hi) hi = start + ph.p_memsz;
  }
  if (search->anchor < lo || search->anchor >= hi) return 0;
  search->found = {lo, hi};
  return 1;
}

Range ObjectHolding(const void* anchor) {
  Search search{reinterpret_cast<uintptr_t>(anchor)};
  dl_iterate_phdr(FindObject, &search);
  return search.found;
}

}  // namespace

bool IsTvmFfiCode(const void* addr) {
  // Found once: tvm-ffi's libraries stay loaded for the life of the process.
  static const std::vector<Range> own = {
      ObjectHolding(reinterpret_cast<const void*>(&TVMFFIFunctionGetGlobal)),
      ObjectHolding(reinterpret_cast<const void*>(&IsTvmFfiCode))};
  auto a = reinterpret_cast<uintptr_t>(addr);
  for (const Range& r : own) {
    if (a >= r.begin && a < r.end) return true;
  }
  return false;
}

}  // namespace tvm_ffi_py
