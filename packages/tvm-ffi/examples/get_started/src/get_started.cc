// The get_started plugin: add_one over a float32 vector and a typed scalar function, exported for
// load_module.
#include <tvm_ffi/ffi.h>

#include <cstdint>
#include <string>

namespace get_started {

using tvm::ffi::Tensor;

std::string DtypeName(DLDataType dtype) {
  tvm::ffi::Any text;
  if (TVMFFIDataTypeToString(&dtype, text.raw_mutable()) != 0) {
    throw tvm::ffi::details::MoveFromRaised();
  }
  return text.cast<std::string>();
}

// Kernels read raw memory: anything but a host float32 vector must be refused before the loop.
void CheckFloat32Vector(const char* arg, const Tensor& t) {
  if (t.device().device_type != kDLCPU) {
    TVM_FFI_THROW(ValueError) << "add_one: argument `" << arg
                              << "` must be on the cpu device, got device type "
                              << t.device().device_type;
  }
  DLDataType dtype = t.dtype();
  if (dtype.code != kDLFloat || dtype.bits != 32 || dtype.lanes != 1) {
    TVM_FFI_THROW(ValueError) << "add_one: argument `" << arg << "` must have dtype float32, got "
                              << DtypeName(dtype);
  }
  if (t.ndim() != 1) {
    TVM_FFI_THROW(ValueError) << "add_one: argument `" << arg
                              << "` must be 1-dimensional, got ndim " << t.ndim();
  }
}

// y[i] = x[i] + 1. The caller owns y: writing into it means no allocation and no copy back.
void AddOne(Tensor x, Tensor y) {
  CheckFloat32Vector("x", x);
  CheckFloat32Vector("y", y);
  if (x.size(0) != y.size(0)) {
    TVM_FFI_THROW(ValueError) << "add_one: argument `y` must have the length of `x` (" << x.size(0)
                              << "), got " << y.size(0);
  }
  // Strides are in elements; a producer may give none for a contiguous tensor.
  int64_t x_stride = x->strides ? x->strides[0] : 1;
  int64_t y_stride = y->strides ? y->strides[0] : 1;
  const float* in = static_cast<const float*>(x.data_ptr());
  float* out = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0, n = x.size(0); i < n; ++i) {
    out[i * y_stride] = in[i * x_stride] + 1.0f;
  }
}

// A typed scalar function: arguments and result are converted by the FFI (int <-> int64_t).
int64_t Fibonacci(int64_t n) {
  if (n < 0 || n > 92) {
    TVM_FFI_THROW(ValueError) << "fibonacci: argument `n` must be in [0, 92], got " << n;
  }
  int64_t a = 0, b = 1;
  for (int64_t i = 0; i < n; ++i) {
    int64_t next = a + b;
    a = b;
    b = next;
  }
  return a;
}

}  // namespace get_started

// Each becomes the symbol __tvm_ffi_<name>: tvm_ffi.load_module(path)["<name>"] finds it.
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, get_started::AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(fibonacci, get_started::Fibonacci);
