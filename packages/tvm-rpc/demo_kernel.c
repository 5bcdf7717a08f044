/* The kernel the tvm-rpc demo and integration test run remotely: y = alpha * x + 1 (float32). */
#include <stdio.h>
#include <tvm_ffi/c_api.h>

TVM_FFI_LIBRARY_ABI_TAG();

static int raise_error(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

/* Row-major without gaps: no strides, or strides that say exactly that (tvm-ffi fills them in). */
static int is_compact(const DLTensor* t) {
  if (t->strides == NULL) return 1;
  int64_t expected = 1;
  for (int i = t->ndim - 1; i >= 0; --i) {
    if (t->shape[i] != 1 && t->strides[i] != expected) return 0;
    expected *= t->shape[i];
  }
  return 1;
}

static const DLTensor* float32_tensor(const TVMFFIAny* value) {
  const DLTensor* t = NULL;
  if (value->type_index == kTVMFFITensor) t = TVMFFITensorGetDLTensorPtr(value->v_obj);
  if (value->type_index == kTVMFFIDLTensorPtr) t = (const DLTensor*)value->v_ptr;
  if (t == NULL || t->device.device_type != kDLCPU || t->dtype.code != kDLFloat ||
      t->dtype.bits != 32 || t->dtype.lanes != 1 || !is_compact(t)) {
    return NULL;
  }
  return t;
}

static int64_t numel(const DLTensor* t) {
  int64_t n = 1;
  for (int i = 0; i < t->ndim; ++i) n *= t->shape[i];
  return n;
}

/* axpy_one(x, y, alpha): y[i] = alpha * x[i] + 1 for compact float32 CPU tensors of one size. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_axpy_one(void* self, const TVMFFIAny* args, int32_t num_args,
                                          TVMFFIAny* result) {
  const DLTensor *x, *y;
  double alpha;
  (void)self;
  (void)result;
  if (num_args != 3)
    return raise_error("TypeError", "axpy_one: expected 3 arguments (x, y, alpha)");
  x = float32_tensor(&args[0]);
  y = float32_tensor(&args[1]);
  if (x == NULL || y == NULL) {
    return raise_error("TypeError", "axpy_one: x and y must be compact float32 CPU tensors");
  }
  if (numel(x) != numel(y)) return raise_error("ValueError", "axpy_one: x and y differ in size");
  if (args[2].type_index == kTVMFFIFloat) {
    alpha = args[2].v_float64;
  } else if (args[2].type_index == kTVMFFIInt) {
    alpha = (double)args[2].v_int64;
  } else {
    return raise_error("TypeError", "axpy_one: alpha must be a number");
  }
  const float* xs = (const float*)((const char*)x->data + x->byte_offset);
  float* ys = (float*)((char*)y->data + y->byte_offset);
  for (int64_t i = 0, n = numel(x); i < n; ++i) ys[i] = (float)(alpha * xs[i] + 1.0);
  return 0;
}
