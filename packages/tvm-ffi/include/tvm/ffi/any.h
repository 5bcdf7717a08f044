// apache-tvm-ffi's include path for Any and AnyView.
#ifndef TVM_FFI_COMPAT_TVM_FFI_ANY_H_
#define TVM_FFI_COMPAT_TVM_FFI_ANY_H_

#include <tvm_ffi/any.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_ANY_H_
