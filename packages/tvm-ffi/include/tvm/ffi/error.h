// apache-tvm-ffi's include path for Error, TVM_FFI_THROW and the check macros.
#ifndef TVM_FFI_COMPAT_TVM_FFI_ERROR_H_
#define TVM_FFI_COMPAT_TVM_FFI_ERROR_H_

#include <tvm_ffi/error.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_ERROR_H_
