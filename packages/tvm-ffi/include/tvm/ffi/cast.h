// apache-tvm-ffi's include path for casts between references (Any::cast, ObjectRef::as).
#ifndef TVM_FFI_COMPAT_TVM_FFI_CAST_H_
#define TVM_FFI_COMPAT_TVM_FFI_CAST_H_

#include <tvm_ffi/any.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_CAST_H_
