// apache-tvm-ffi's include path for the environment C API (the stream hooks are in c_api.h).
#ifndef TVM_FFI_COMPAT_TVM_FFI_EXTRA_C_ENV_API_H_
#define TVM_FFI_COMPAT_TVM_FFI_EXTRA_C_ENV_API_H_

#include <tvm_ffi/c_api.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_EXTRA_C_ENV_API_H_
