// Everything of the tvm-ffi C++ layer in one include.
#ifndef TVM_FFI_FFI_H_
#define TVM_FFI_FFI_H_

#include <tvm_ffi/any.h>
#include <tvm_ffi/array.h>
#include <tvm_ffi/dict.h>
#include <tvm_ffi/dtype.h>
#include <tvm_ffi/error.h>
#include <tvm_ffi/function.h>
#include <tvm_ffi/list.h>
#include <tvm_ffi/map.h>
#include <tvm_ffi/module.h>
#include <tvm_ffi/object.h>
#include <tvm_ffi/optional.h>
#include <tvm_ffi/reflection.h>
#include <tvm_ffi/shape.h>
#include <tvm_ffi/string.h>
#include <tvm_ffi/tensor.h>
#include <tvm_ffi/tensor_view.h>

#endif  // TVM_FFI_FFI_H_
