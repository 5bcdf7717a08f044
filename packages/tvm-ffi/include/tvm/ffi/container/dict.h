// apache-tvm-ffi's include path for Dict.
#ifndef TVM_FFI_COMPAT_TVM_FFI_CONTAINER_DICT_H_
#define TVM_FFI_COMPAT_TVM_FFI_CONTAINER_DICT_H_

#include <tvm_ffi/dict.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_CONTAINER_DICT_H_
