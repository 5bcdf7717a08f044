// apache-tvm-ffi's include path for ObjectDef, GlobalDef and init (namespace tvm::ffi::reflection).
#ifndef TVM_FFI_COMPAT_TVM_FFI_REFLECTION_REGISTRY_H_
#define TVM_FFI_COMPAT_TVM_FFI_REFLECTION_REGISTRY_H_

#include <tvm_ffi/reflection.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_REFLECTION_REGISTRY_H_
