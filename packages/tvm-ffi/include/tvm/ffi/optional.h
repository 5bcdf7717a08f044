// apache-tvm-ffi's include path for Optional.
#ifndef TVM_FFI_COMPAT_TVM_FFI_OPTIONAL_H_
#define TVM_FFI_COMPAT_TVM_FFI_OPTIONAL_H_

#include <tvm_ffi/optional.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_OPTIONAL_H_
