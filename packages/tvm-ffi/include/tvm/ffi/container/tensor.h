// apache-tvm-ffi's include path for Tensor and TensorView.
#ifndef TVM_FFI_COMPAT_TVM_FFI_CONTAINER_TENSOR_H_
#define TVM_FFI_COMPAT_TVM_FFI_CONTAINER_TENSOR_H_

#include <tvm_ffi/tensor.h>
#include <tvm_ffi/tensor_view.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_CONTAINER_TENSOR_H_
