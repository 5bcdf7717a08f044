// apache-tvm-ffi's include path for everything of the C++ layer.
#ifndef TVM_FFI_COMPAT_TVM_FFI_TVM_FFI_H_
#define TVM_FFI_COMPAT_TVM_FFI_TVM_FFI_H_

#include <tvm_ffi/dtype.h>
#include <tvm_ffi/ffi.h>
#include <tvm_ffi/tensor_view.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_TVM_FFI_H_
