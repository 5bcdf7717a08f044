// apache-tvm-ffi's include path for Function, TypedFunction and TVM_FFI_DLL_EXPORT_TYPED_FUNC.
#ifndef TVM_FFI_COMPAT_TVM_FFI_FUNCTION_H_
#define TVM_FFI_COMPAT_TVM_FFI_FUNCTION_H_

#include <tvm_ffi/function.h>
#include <tvm_ffi/tensor_view.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_FUNCTION_H_
