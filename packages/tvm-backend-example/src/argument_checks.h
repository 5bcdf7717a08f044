// Argument checks shared by the example kernels; every error names the function and argument.
#ifndef TVM_BACKEND_EXAMPLE_ARGUMENT_CHECKS_H_
#define TVM_BACKEND_EXAMPLE_ARGUMENT_CHECKS_H_

#include <tvm_ffi/ffi.h>

#include <string>

namespace tvm_backend_example {

using tvm::ffi::Tensor;

// The example device keeps its memory on the host, tagged with DLPack's extension device type,
// so kernels accept tensors of either the CPU or the example device.
constexpr int kExampleDeviceType = kDLExtDev;

inline std::string ShapeStr(const Tensor& t) {
  std::string s = "(";
  for (int i = 0; i < t.ndim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + (t.ndim() == 1 ? ",)" : ")");
}

inline std::string DtypeStr(DLDataType dt) {
  static const char* kNames[] = {"int", "uint", "float", "handle", "bfloat", "complex", "bool"};
  std::string s = dt.code < 7 ? kNames[dt.code] : "code" + std::to_string(dt.code) + "_";
  s += std::to_string(dt.bits);
  return dt.lanes == 1 ? s : s + "x" + std::to_string(dt.lanes);
}

// A float32, C-contiguous tensor in host memory; ndim < 0 accepts any rank.
inline void CheckHostFloat32(const char* func, const char* arg, const Tensor& t, int ndim) {
  if (!t.defined()) {
    TVM_FFI_THROW(ValueError) << func << ": argument '" << arg << "' must be a tensor, got None";
  }
  int device_type = t.device().device_type;
  if (device_type != kDLCPU && device_type != kExampleDeviceType) {
    TVM_FFI_THROW(ValueError) << func << ": argument '" << arg
                              << "' must live on the cpu or example device, got device type "
                              << device_type;
  }
  DLDataType dt = t.dtype();
  if (dt.code != kDLFloat || dt.bits != 32 || dt.lanes != 1) {
    TVM_FFI_THROW(ValueError) << func << ": argument '" << arg << "' must have dtype float32, got "
                              << DtypeStr(dt);
  }
  if (ndim >= 0 && t.ndim() != ndim) {
    TVM_FFI_THROW(ValueError) << func << ": argument '" << arg << "' must be " << ndim
                              << "-dimensional, got shape " << ShapeStr(t);
  }
  // Empty tensors hold no data, whatever strides their producer reports.
  if (t.numel() > 0 && !t.IsContiguous()) {
    TVM_FFI_THROW(ValueError) << func << ": argument '" << arg << "' must be C-contiguous";
  }
}

inline void CheckDistinct(const char* func, const char* out_arg, const Tensor& out,
                          const char* in_arg, const Tensor& in) {
  if (out.data_ptr() == in.data_ptr() && out.numel() > 0) {
    TVM_FFI_THROW(ValueError) << func << ": argument '" << out_arg
                              << "' must not share memory with '" << in_arg << "'";
  }
}

}  // namespace tvm_backend_example

#endif  // TVM_BACKEND_EXAMPLE_ARGUMENT_CHECKS_H_
