/* A tvm-ffi plugin in plain C: only tvm_ffi/c_api.h, no C++ layer, loaded with tvm_ffi.load_module.
 */
#include <stdio.h>
#include <tvm_ffi/c_api.h>

/* Declares which ABI this library speaks; load_module refuses a library of another major. */
TVM_FFI_LIBRARY_ABI_TAG();

/* Both raise through the thread-local error slot and return -1, as the calling convention asks. */
static int raise_error(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

static int expect_num_args(const char* func, int32_t num_args, int32_t expected) {
  char message[128];
  if (num_args == expected) return 0;
  snprintf(message, sizeof(message), "%s: expected %d arguments, got %d", func, (int)expected,
           (int)num_args);
  return raise_error("TypeError", message);
}

/* A NumPy array or torch tensor arrives as a Tensor object; C callers may pass a DLTensor*. */
static const DLTensor* tensor_of(const TVMFFIAny* value) {
  if (value->type_index == kTVMFFITensor) return TVMFFITensorGetDLTensorPtr(value->v_obj);
  if (value->type_index == kTVMFFIDLTensorPtr) return (const DLTensor*)value->v_ptr;
  return NULL;
}

/* vector_sum(x) -> float: the sum of a float32 1-D CPU tensor, with any stride. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_vector_sum(void* self, const TVMFFIAny* args, int32_t num_args,
                                            TVMFFIAny* result) {
  const DLTensor* x;
  const float* data;
  int64_t stride, i;
  double sum = 0.0;
  (void)self;
  if (expect_num_args("vector_sum", num_args, 1) != 0) return -1;
  x = tensor_of(&args[0]);
  if (x == NULL) return raise_error("TypeError", "vector_sum: argument `x` must be a tensor");
  if (x->device.device_type != kDLCPU) {
    return raise_error("ValueError", "vector_sum: argument `x` must be on the cpu device");
  }
  if (x->dtype.code != kDLFloat || x->dtype.bits != 32 || x->dtype.lanes != 1) {
    return raise_error("ValueError", "vector_sum: argument `x` must have dtype float32");
  }
  if (x->ndim != 1) {
    return raise_error("ValueError", "vector_sum: argument `x` must be 1-dimensional");
  }
  data = (const float*)((const char*)x->data + x->byte_offset);
  stride = x->strides != NULL ? x->strides[0] : 1;
  for (i = 0; i < x->shape[0]; ++i) sum += data[i * stride];
  /* *result starts as None; a float is held inline, so nothing needs a reference count. */
  result->type_index = kTVMFFIFloat;
  result->zero_padding = 0;
  result->v_float64 = sum;
  return 0;
}

/* gcd(a, b) -> int: scalars come inline in the Any, tagged kTVMFFIInt (bools are refused). */
TVM_FFI_DLL_EXPORT int __tvm_ffi_gcd(void* self, const TVMFFIAny* args, int32_t num_args,
                                     TVMFFIAny* result) {
  int64_t a, b;
  (void)self;
  if (expect_num_args("gcd", num_args, 2) != 0) return -1;
  if (args[0].type_index != kTVMFFIInt)
    return raise_error("TypeError", "gcd: argument `a` must be an int");
  if (args[1].type_index != kTVMFFIInt)
    return raise_error("TypeError", "gcd: argument `b` must be an int");
  a = args[0].v_int64 < 0 ? -args[0].v_int64 : args[0].v_int64;
  b = args[1].v_int64 < 0 ? -args[1].v_int64 : args[1].v_int64;
  while (b != 0) {
    int64_t r = a % b;
    a = b;
    b = r;
  }
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = a;
  return 0;
}
