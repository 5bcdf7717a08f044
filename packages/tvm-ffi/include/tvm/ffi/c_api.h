// apache-tvm-ffi's include path for the C ABI: ours (see docs/abi.md for how the two differ).
#ifndef TVM_FFI_COMPAT_TVM_FFI_C_API_H_
#define TVM_FFI_COMPAT_TVM_FFI_C_API_H_

#include <tvm_ffi/c_api.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_C_API_H_
