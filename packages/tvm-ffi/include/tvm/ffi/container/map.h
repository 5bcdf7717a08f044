// apache-tvm-ffi's include path for Map.
#ifndef TVM_FFI_COMPAT_TVM_FFI_CONTAINER_MAP_H_
#define TVM_FFI_COMPAT_TVM_FFI_CONTAINER_MAP_H_

#include <tvm_ffi/map.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_CONTAINER_MAP_H_
