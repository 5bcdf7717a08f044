// apache-tvm-ffi's include path for DLDevice.
#ifndef TVM_FFI_COMPAT_TVM_FFI_DEVICE_H_
#define TVM_FFI_COMPAT_TVM_FFI_DEVICE_H_

#include <tvm_ffi/any.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_DEVICE_H_
