// apache-tvm-ffi's include path for List.
#ifndef TVM_FFI_COMPAT_TVM_FFI_CONTAINER_LIST_H_
#define TVM_FFI_COMPAT_TVM_FFI_CONTAINER_LIST_H_

#include <tvm_ffi/list.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_CONTAINER_LIST_H_
