// apache-tvm-ffi's include path for make_object.
#ifndef TVM_FFI_COMPAT_TVM_FFI_MEMORY_H_
#define TVM_FFI_COMPAT_TVM_FFI_MEMORY_H_

#include <tvm_ffi/object.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_MEMORY_H_
