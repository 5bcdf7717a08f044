// The usual include path of the DLPack header: ours has the same structs.
#ifndef TVM_FFI_COMPAT_DLPACK_DLPACK_H_
#define TVM_FFI_COMPAT_DLPACK_DLPACK_H_

#include <tvm_ffi/dlpack.h>

#endif  // TVM_FFI_COMPAT_DLPACK_DLPACK_H_
