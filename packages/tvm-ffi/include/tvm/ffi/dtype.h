// apache-tvm-ffi's include path for the DLDataType helpers.
#ifndef TVM_FFI_COMPAT_TVM_FFI_DTYPE_H_
#define TVM_FFI_COMPAT_TVM_FFI_DTYPE_H_

#include <tvm_ffi/dtype.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_DTYPE_H_
