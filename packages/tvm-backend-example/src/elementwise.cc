// Elementwise float32 kernels: example.add (c = a + b) and example.relu (y = max(x, 0)).
#include <algorithm>

#include "argument_checks.h"

namespace tvm_backend_example {
namespace {

void CheckSameShape(const char* fn, const char* arg, const Tensor& t, const char* ref_arg,
                    const Tensor& ref) {
  bool same = t.ndim() == ref.ndim();
  for (int i = 0; same && i < t.ndim(); ++i) same = t.size(i) == ref.size(i);
  if (!same) {
    TVM_FFI_THROW(ValueError) << fn << ": argument '" << arg << "' must have the shape of '"
                              << ref_arg << "' " << ShapeStr(ref) << ", got " << ShapeStr(t);
  }
}

void Add(Tensor a, Tensor b, Tensor c) {
  const char* fn = "example.add";
  CheckHostFloat32(fn, "a", a, -1);
  CheckHostFloat32(fn, "b", b, -1);
  CheckHostFloat32(fn, "c", c, -1);
  CheckSameShape(fn, "b", b, "a", a);
  CheckSameShape(fn, "c", c, "a", a);
  const float* pa = static_cast<const float*>(a.data_ptr());
  const float* pb = static_cast<const float*>(b.data_ptr());
  float* pc = static_cast<float*>(c.data_ptr());
  for (int64_t i = 0, n = a.numel(); i < n; ++i) pc[i] = pa[i] + pb[i];
}

void Relu(Tensor x, Tensor y) {
  const char* fn = "example.relu";
  CheckHostFloat32(fn, "x", x, -1);
  CheckHostFloat32(fn, "y", y, -1);
  CheckSameShape(fn, "y", y, "x", x);
  const float* px = static_cast<const float*>(x.data_ptr());
  float* py = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0, n = x.numel(); i < n; ++i) py[i] = std::max(px[i], 0.0f);
}

TVM_FFI_STATIC_INIT_BLOCK({
  tvm::ffi::reflection::GlobalDef().def("example.add", Add).def("example.relu", Relu);
});

}  // namespace
}  // namespace tvm_backend_example
