// apache-tvm-ffi's include path for Shape and ShapeView.
#ifndef TVM_FFI_COMPAT_TVM_FFI_CONTAINER_SHAPE_H_
#define TVM_FFI_COMPAT_TVM_FFI_CONTAINER_SHAPE_H_

#include <tvm_ffi/shape.h>
#include <tvm_ffi/tensor_view.h>

#endif  // TVM_FFI_COMPAT_TVM_FFI_CONTAINER_SHAPE_H_
