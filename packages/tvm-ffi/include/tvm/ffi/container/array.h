// apache-tvm-ffi's include path for Array.
#ifndef TVM_FFI_COMPAT_TVM_FFI_CONTAINER_ARRAY_H_
#define TVM_FFI_COMPAT_TVM_FFI_CONTAINER_ARRAY_H_

#include <tvm_ffi/array.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_CONTAINER_ARRAY_H_
