// apache-tvm-ffi's include path for String and Bytes.
#ifndef TVM_FFI_COMPAT_TVM_FFI_STRING_H_
#define TVM_FFI_COMPAT_TVM_FFI_STRING_H_

#include <tvm_ffi/string.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_STRING_H_
