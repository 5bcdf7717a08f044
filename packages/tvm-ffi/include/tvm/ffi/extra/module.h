// apache-tvm-ffi's include path for Module.
#ifndef TVM_FFI_COMPAT_TVM_FFI_EXTRA_MODULE_H_
#define TVM_FFI_COMPAT_TVM_FFI_EXTRA_MODULE_H_

#include <tvm_ffi/module.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_EXTRA_MODULE_H_
