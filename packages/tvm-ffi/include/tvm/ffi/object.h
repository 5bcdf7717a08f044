// apache-tvm-ffi's include path for Object, ObjectRef, ObjectPtr and the type macros.
#ifndef TVM_FFI_COMPAT_TVM_FFI_OBJECT_H_
#define TVM_FFI_COMPAT_TVM_FFI_OBJECT_H_

#include <tvm_ffi/object.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_OBJECT_H_
