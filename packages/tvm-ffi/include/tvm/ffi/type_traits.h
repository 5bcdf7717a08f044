// apache-tvm-ffi's include path for TypeTraits.
#ifndef TVM_FFI_COMPAT_TVM_FFI_TYPE_TRAITS_H_
#define TVM_FFI_COMPAT_TVM_FFI_TYPE_TRAITS_H_

#include <tvm_ffi/any.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_TYPE_TRAITS_H_
