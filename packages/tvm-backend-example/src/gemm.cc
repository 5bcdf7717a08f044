// example.gemm: C = A @ B for float32 matrices, blocked so the working set stays in cache.
#include <algorithm>
#include <cstring>

#include "argument_checks.h"

namespace tvm_backend_example {
namespace {

constexpr int64_t kBlockM = 64;
constexpr int64_t kBlockK = 128;
constexpr int64_t kBlockN = 256;

void Gemm(Tensor a, Tensor b, Tensor c) {
  const char* fn = "example.gemm";
  CheckHostFloat32(fn, "a", a, 2);
  CheckHostFloat32(fn, "b", b, 2);
  CheckHostFloat32(fn, "c", c, 2);
  int64_t m = a.size(0), k = a.size(1), n = b.size(1);
  if (b.size(0) != k) {
    TVM_FFI_THROW(ValueError) << fn << ": argument 'b' must have " << k << " rows to match 'a' "
                              << ShapeStr(a) << ", got shape " << ShapeStr(b);
  }
  if (c.size(0) != m || c.size(1) != n) {
    TVM_FFI_THROW(ValueError) << fn << ": argument 'c' must have shape (" << m << ", " << n
                              << "), got " << ShapeStr(c);
  }
  CheckDistinct(fn, "c", c, "a", a);
  CheckDistinct(fn, "c", c, "b", b);
  const float* pa = static_cast<const float*>(a.data_ptr());
  const float* pb = static_cast<const float*>(b.data_ptr());
  float* pc = static_cast<float*>(c.data_ptr());
  if (m * n > 0) std::memset(pc, 0, sizeof(float) * m * n);
  for (int64_t i0 = 0; i0 < m; i0 += kBlockM) {
    int64_t i1 = std::min(i0 + kBlockM, m);
    for (int64_t k0 = 0; k0 < k; k0 += kBlockK) {
      int64_t k1 = std::min(k0 + kBlockK, k);
      for (int64_t j0 = 0; j0 < n; j0 += kBlockN) {
        int64_t j1 = std::min(j0 + kBlockN, n);
        for (int64_t i = i0; i < i1; ++i) {
          float* crow = pc + i * n;
          for (int64_t kk = k0; kk < k1; ++kk) {
            const float aik = pa[i * k + kk];
            const float* brow = pb + kk * n;
            // Unit-stride inner loop: the compiler vectorises it.
            for (int64_t j = j0; j < j1; ++j) crow[j] += aik * brow[j];
          }
        }
      }
    }
  }
}

TVM_FFI_STATIC_INIT_BLOCK({ tvm::ffi::reflection::GlobalDef().def("example.gemm", Gemm); });

}  // namespace
}  // namespace tvm_backend_example
