/* Native VM builtins (storage, tensors, shape heap, checks), compiled into each executable's
 * library by relax.vm_link: the interpreter and compiled VM functions call them instead of the
 * Python builtins, whose ctypes DLPack views cost tens of microseconds each. tvm-runtime ships
 * this source and never compiles it, so it stays installable without a C compiler.
 *
 * On a failed check the Python builtin of the same name is called with the same arguments, so
 * errors read exactly as in the Python path. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tvm_ffi/c_api.h>

#define TVMVM_ALIGN 64
#define TVMVM_POOL_SLOTS 64
/* Used only by compiled VM functions: no warning in a library that has none. */
#define TVMVM_HELPER static __attribute__((unused))

static int tvmvm_raise(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

/* The Python builtin `name` on the same arguments (it raises the error a check found). */
static int tvmvm_fallback(const char* name, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIByteArray key = {name, strlen(name)};
  TVMFFIObjectHandle fn = NULL;
  if (TVMFFIFunctionGetGlobal(&key, &fn) != 0) return -1;
  if (fn == NULL) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s: the Python builtin is not registered (import tvm.runtime.vm)",
             name);
    return tvmvm_raise("RuntimeError", msg);
  }
  int rc = TVMFFIFunctionCall(fn, (TVMFFIAny*)args, n, result);
  TVMFFIObjectDecRef(fn);
  return rc;
}

static int tvmvm_int(const TVMFFIAny* v, int64_t* out) {
  if (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool) {
    *out = v->v_int64;
    return 1;
  }
  return 0;
}

static int tvmvm_dtype(const TVMFFIAny* v, DLDataType* out) {
  if (v->type_index == kTVMFFIDataType) {
    *out = v->v_dtype;
    return 1;
  }
  TVMFFIByteArray text = {NULL, 0};
  if (v->type_index == kTVMFFIRawStr) {
    text.data = v->v_c_str;
    text.size = strlen(v->v_c_str);
  } else if (v->type_index == kTVMFFISmallStr) {
    text.data = v->v_bytes;
    text.size = v->small_str_len;
  } else if (v->type_index == kTVMFFIStr) {
    text = *TVMFFIStringGetCell(v->v_obj);
  } else {
    return 0;
  }
  return TVMFFIDataTypeFromString(&text, out) == 0;
}

/* *result: a Tensor owning `managed` (its deleter runs when the tensor dies). */
static int tvmvm_adopt(DLManagedTensorVersioned* managed, TVMFFIAny* result) {
  TVMFFIObjectHandle out = NULL;
  if (TVMFFITensorFromDLPackVersioned(managed, 0, 0, &out) != 0) return -1;
  result->type_index = kTVMFFITensor;
  result->zero_padding = 0;
  result->v_obj = (TVMFFIObject*)out;
  return 0;
}

static int64_t tvmvm_dtype_bytes(DLDataType t) { return ((int64_t)t.bits * t.lanes + 7) / 8; }

/* ---- storage: a 1-d uint8 tensor; the pooled allocator keeps freed buffers by size ------ */

typedef struct {
  DLManagedTensorVersioned managed;
  int64_t shape[1];
  int pooled;
} tvmvm_storage;

static struct {
  void* data;
  size_t nbytes;
} tvmvm_pool[TVMVM_POOL_SLOTS];
static volatile int tvmvm_pool_lock;

static void tvmvm_lock(void) {
  while (__sync_lock_test_and_set(&tvmvm_pool_lock, 1)) {
  }
}
static void tvmvm_unlock(void) { __sync_lock_release(&tvmvm_pool_lock); }

static void* tvmvm_pool_take(size_t nbytes) {
  void* found = NULL;
  tvmvm_lock();
  for (int i = 0; i < TVMVM_POOL_SLOTS; ++i) {
    if (tvmvm_pool[i].data != NULL && tvmvm_pool[i].nbytes == nbytes) {
      found = tvmvm_pool[i].data;
      tvmvm_pool[i].data = NULL;
      break;
    }
  }
  tvmvm_unlock();
  return found;
}

static void tvmvm_pool_give(void* data, size_t nbytes) {
  tvmvm_lock();
  for (int i = 0; i < TVMVM_POOL_SLOTS; ++i) {
    if (tvmvm_pool[i].data == NULL) {
      tvmvm_pool[i].data = data;
      tvmvm_pool[i].nbytes = nbytes;
      data = NULL;
      break;
    }
  }
  tvmvm_unlock();
  free(data); /* the pool is full: NULL when it was kept */
}

static void tvmvm_storage_deleter(DLManagedTensorVersioned* self) {
  tvmvm_storage* s = (tvmvm_storage*)self;
  size_t rounded = (size_t)s->shape[0];
  if (s->pooled) {
    tvmvm_pool_give(self->dl_tensor.data, rounded);
  } else {
    free(self->dl_tensor.data);
  }
  free(s);
}

static int tvmvm_alloc_storage_impl(const TVMFFIAny* args, int32_t n, TVMFFIAny* result,
                                    int pooled) {
  int64_t elems = 1, dim;
  DLDataType hint = {kDLUInt, 8, 1};
  if (n < 2) return tvmvm_fallback("vm.builtin.alloc_storage", args, n, result);
  if (tvmvm_int(&args[1], &dim)) {
    elems = dim;
    if (dim < 0) return tvmvm_fallback("vm.builtin.alloc_storage", args, n, result);
  } else if (args[1].type_index == kTVMFFIShape) {
    TVMFFIShapeCell* cell = TVMFFIShapeGetCell(args[1].v_obj);
    for (size_t i = 0; i < cell->size; ++i) {
      if (cell->data[i] < 0 || __builtin_mul_overflow(elems, cell->data[i], &elems)) {
        return tvmvm_fallback("vm.builtin.alloc_storage", args, n, result);
      }
    }
  } else {
    return tvmvm_fallback("vm.builtin.alloc_storage", args, n, result);
  }
  if (n >= 4 && !tvmvm_dtype(&args[3], &hint)) {
    return tvmvm_fallback("vm.builtin.alloc_storage", args, n, result);
  }
  int64_t nbytes;
  if (__builtin_mul_overflow(elems, tvmvm_dtype_bytes(hint), &nbytes) ||
      nbytes > INT64_MAX - TVMVM_ALIGN) {
    return tvmvm_fallback("vm.builtin.alloc_storage", args, n, result);
  }
  size_t rounded = ((size_t)nbytes + TVMVM_ALIGN - 1) / TVMVM_ALIGN * TVMVM_ALIGN;
  if (rounded == 0) rounded = TVMVM_ALIGN;
  void* data = pooled ? tvmvm_pool_take(rounded) : NULL;
  if (data == NULL) data = aligned_alloc(TVMVM_ALIGN, rounded);
  tvmvm_storage* s = (tvmvm_storage*)calloc(1, sizeof(tvmvm_storage));
  if (data == NULL || s == NULL) {
    free(data);
    free(s);
    return tvmvm_raise("MemoryError", "vm.builtin.alloc_storage: out of memory");
  }
  s->shape[0] = (int64_t)rounded;
  s->pooled = pooled;
  s->managed.version.major = DLPACK_MAJOR_VERSION;
  s->managed.version.minor = DLPACK_MINOR_VERSION;
  s->managed.manager_ctx = s;
  s->managed.deleter = tvmvm_storage_deleter;
  DLTensor* t = &s->managed.dl_tensor;
  t->data = data;
  t->device.device_type = kDLCPU;
  t->device.device_id = 0;
  t->ndim = 1;
  t->dtype.code = kDLUInt;
  t->dtype.bits = 8;
  t->dtype.lanes = 1;
  t->shape = s->shape;
  if (tvmvm_adopt(&s->managed, result) != 0) {
    free(data);
    free(s);
    return -1;
  }
  return 0;
}

/* vm.builtin.alloc_storage(vm, buffer_shape, device_index, dtype_hint, mem_scope) */
TVM_FFI_DLL_EXPORT int __tvm_ffi_tvm_vm_alloc_storage(void* self, const TVMFFIAny* args, int32_t n,
                                                      TVMFFIAny* result) {
  (void)self;
  return tvmvm_alloc_storage_impl(args, n, result, 0);
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_tvm_vm_alloc_storage_pooled(void* self, const TVMFFIAny* args,
                                                             int32_t n, TVMFFIAny* result) {
  (void)self;
  return tvmvm_alloc_storage_impl(args, n, result, 1);
}

/* ---- tensors viewing a storage ---------------------------------------------------------- */

typedef struct {
  DLManagedTensorVersioned managed;
  TVMFFIObjectHandle storage; /* a strong reference: the view keeps the storage alive */
  int64_t shape[];
} tvmvm_view;

static void tvmvm_view_deleter(DLManagedTensorVersioned* self) {
  tvmvm_view* v = (tvmvm_view*)self;
  TVMFFIObjectDecRef(v->storage);
  free(v);
}

/* A tensor of `dims` and `dtype` over `data` that keeps `owner` (a Tensor) alive. */
static int tvmvm_make_view(TVMFFIObjectHandle owner, void* data, const int64_t* dims, int32_t ndim,
                           DLDataType dtype, DLDevice device, TVMFFIAny* result) {
  tvmvm_view* v = (tvmvm_view*)malloc(sizeof(tvmvm_view) + sizeof(int64_t) * (ndim ? ndim : 1));
  if (v == NULL) return tvmvm_raise("MemoryError", "vm.builtin.alloc_tensor: out of memory");
  memset(&v->managed, 0, sizeof v->managed);
  memcpy(v->shape, dims, sizeof(int64_t) * ndim);
  v->storage = owner;
  v->managed.version.major = DLPACK_MAJOR_VERSION;
  v->managed.version.minor = DLPACK_MINOR_VERSION;
  v->managed.manager_ctx = v;
  v->managed.deleter = tvmvm_view_deleter;
  DLTensor* t = &v->managed.dl_tensor;
  t->data = data;
  t->device = device;
  t->ndim = ndim;
  t->dtype = dtype;
  t->shape = v->shape;
  TVMFFIObjectIncRef(owner);
  if (tvmvm_adopt(&v->managed, result) != 0) {
    TVMFFIObjectDecRef(owner);
    free(v);
    return -1;
  }
  return 0;
}

/* vm.builtin.alloc_tensor(storage, offset, shape, dtype[, device_index]) */
TVM_FFI_DLL_EXPORT int __tvm_ffi_tvm_vm_alloc_tensor(void* self, const TVMFFIAny* args, int32_t n,
                                                     TVMFFIAny* result) {
  (void)self;
  int64_t offset;
  DLDataType dtype;
  if (n < 4 || args[0].type_index != kTVMFFITensor || !tvmvm_int(&args[1], &offset) ||
      args[2].type_index != kTVMFFIShape || !tvmvm_dtype(&args[3], &dtype)) {
    /* A Python Storage, or arguments of other kinds: the Python builtin takes (or refuses) them */
    return tvmvm_fallback("vm.builtin.alloc_tensor", args, n, result);
  }
  DLTensor* st = TVMFFITensorGetDLTensorPtr(args[0].v_obj);
  TVMFFIShapeCell* shape = TVMFFIShapeGetCell(args[2].v_obj);
  int64_t need = tvmvm_dtype_bytes(dtype);
  for (size_t i = 0; i < shape->size; ++i) {
    /* A negative dim, or a size past int64 (a wrapped product would pass the bounds check
     * below and hand a kernel a tensor far larger than its storage): Python's error. */
    if (shape->data[i] < 0 || __builtin_mul_overflow(need, shape->data[i], &need)) {
      return tvmvm_fallback("vm.builtin.alloc_tensor", args, n, result);
    }
  }
  int64_t have = st->ndim == 1 ? st->shape[0] * tvmvm_dtype_bytes(st->dtype) : -1;
  if (offset < 0 || need > have || offset > have - need) {
    char msg[256];
    snprintf(msg, sizeof msg,
             "vm.builtin.alloc_tensor: a tensor of %lld bytes at offset %lld does not fit the "
             "storage of %lld bytes",
             (long long)need, (long long)offset, (long long)have);
    return tvmvm_raise("ValueError", msg);
  }
  return tvmvm_make_view(args[0].v_obj, (char*)st->data + st->byte_offset + offset, shape->data,
                         (int32_t)shape->size, dtype, st->device, result);
}

/* ---- the shape heap --------------------------------------------------------------------- */

/* The shape heap and its tensor in one allocation: every VM call makes one, so it costs one
 * malloc and one Tensor instead of a storage, a view and their two Tensors. */
typedef struct {
  DLManagedTensorVersioned managed;
  int64_t shape[1];
  int64_t data[];
} tvmvm_shape_heap;

static void tvmvm_shape_heap_deleter(DLManagedTensorVersioned* self) { free(self->manager_ctx); }

/* vm.builtin.alloc_shape_heap(vm, size): an int64 tensor of `size` items. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_tvm_vm_alloc_shape_heap(void* self, const TVMFFIAny* args,
                                                         int32_t n, TVMFFIAny* result) {
  (void)self;
  int64_t size;
  if (n != 2 || !tvmvm_int(&args[1], &size) || size < 0 || size > (1 << 24)) {
    return tvmvm_fallback("vm.builtin.alloc_shape_heap", args, n, result);
  }
  tvmvm_shape_heap* h =
      (tvmvm_shape_heap*)calloc(1, sizeof(tvmvm_shape_heap) + sizeof(int64_t) * (size_t)size);
  if (h == NULL) return tvmvm_raise("MemoryError", "vm.builtin.alloc_shape_heap: out of memory");
  h->shape[0] = size;
  h->managed.version.major = DLPACK_MAJOR_VERSION;
  h->managed.version.minor = DLPACK_MINOR_VERSION;
  h->managed.manager_ctx = h;
  h->managed.deleter = tvmvm_shape_heap_deleter;
  DLTensor* t = &h->managed.dl_tensor;
  t->data = h->data;
  t->device.device_type = kDLCPU;
  t->ndim = 1;
  t->dtype.code = kDLInt;
  t->dtype.bits = 64;
  t->dtype.lanes = 1;
  t->shape = h->shape;
  if (tvmvm_adopt(&h->managed, result) != 0) {
    free(h);
    return -1;
  }
  return 0;
}

/* The heap's items and *size their count; NULL when it is no CPU 1-d int64 tensor. */
static int64_t* tvmvm_heap(const TVMFFIAny* heap, int64_t* size) {
  if (heap->type_index != kTVMFFITensor) return NULL;
  DLTensor* t = TVMFFITensorGetDLTensorPtr(heap->v_obj);
  if (t->ndim != 1 || t->dtype.code != kDLInt || t->dtype.bits != 64 || t->dtype.lanes != 1 ||
      t->device.device_type != kDLCPU) {
    return NULL;
  }
  *size = t->shape[0];
  return (int64_t*)((char*)t->data + t->byte_offset);
}

/* vm.builtin.match_shape(value, heap, size, (code, value) * size[, err_ctx]) */
TVM_FFI_DLL_EXPORT int __tvm_ffi_tvm_vm_match_shape(void* self, const TVMFFIAny* args, int32_t n,
                                                    TVMFFIAny* result) {
  (void)self;
  int64_t size;
  const int64_t* dims = NULL;
  size_t ndim = 0;
  if (n >= 3 && tvmvm_int(&args[2], &size) && n >= 3 + 2 * size) {
    if (args[0].type_index == kTVMFFITensor) {
      DLTensor* t = TVMFFITensorGetDLTensorPtr(args[0].v_obj);
      dims = t->shape;
      ndim = (size_t)t->ndim;
    } else if (args[0].type_index == kTVMFFIShape) {
      TVMFFIShapeCell* cell = TVMFFIShapeGetCell(args[0].v_obj);
      dims = cell->data;
      ndim = cell->size;
    }
  }
  int64_t heap_size = 0;
  int64_t* heap = n >= 2 ? tvmvm_heap(&args[1], &heap_size) : NULL;
  if (dims == NULL || ndim != (size_t)size) goto slow;
  for (int64_t i = 0; i < size; ++i) {
    int64_t code, reg;
    if (!tvmvm_int(&args[3 + 2 * i], &code) || !tvmvm_int(&args[4 + 2 * i], &reg)) goto slow;
    /* A heap slot past the heap (a corrupt executable): the Python builtin's error. */
    if ((code == 1 || code == 3) && (reg < 0 || reg >= heap_size)) goto slow;
    int64_t dim = dims[i];
    switch (code) {
      case 0: /* kAssertEqualToImm */
        if (dim != reg) goto slow;
        break;
      case 1: /* kStoreToHeap */
        if (heap == NULL) goto slow;
        heap[reg] = dim;
        break;
      case 2: /* kNoOp */
        break;
      case 3: /* kAssertEqualToLoad */
        if (heap == NULL || heap[reg] != dim) goto slow;
        break;
      default:
        goto slow;
    }
  }
  return 0;
slow:
  return tvmvm_fallback("vm.builtin.match_shape", args, n, result);
}

static TVMFFIObjectHandle tvmvm_shape_ctor;

/* vm.builtin.make_shape(heap, size, (code, value) * size) */
TVM_FFI_DLL_EXPORT int __tvm_ffi_tvm_vm_make_shape(void* self, const TVMFFIAny* args, int32_t n,
                                                   TVMFFIAny* result) {
  (void)self;
  int64_t size;
  TVMFFIAny dims[16];
  if (n < 2 || !tvmvm_int(&args[1], &size) || size > 16 || n != 2 + 2 * size) goto slow;
  int64_t heap_size = 0;
  int64_t* heap = tvmvm_heap(&args[0], &heap_size);
  for (int64_t i = 0; i < size; ++i) {
    int64_t code, value;
    if (!tvmvm_int(&args[2 + 2 * i], &code) || !tvmvm_int(&args[3 + 2 * i], &value)) goto slow;
    dims[i].type_index = kTVMFFIInt;
    dims[i].zero_padding = 0;
    if (code == 0) {
      dims[i].v_int64 = value;
    } else if (code == 1 && heap != NULL && value >= 0 && value < heap_size) {
      dims[i].v_int64 = heap[value];
    } else {
      goto slow;
    }
  }
  if (tvmvm_shape_ctor == NULL) {
    TVMFFIByteArray key = {"ffi.Shape", 9};
    if (TVMFFIFunctionGetGlobal(&key, &tvmvm_shape_ctor) != 0 || tvmvm_shape_ctor == NULL) {
      return tvmvm_raise("RuntimeError", "vm.builtin.make_shape: ffi.Shape is not registered");
    }
  }
  return TVMFFIFunctionCall(tvmvm_shape_ctor, dims, (int32_t)size, result);
slow:
  return tvmvm_fallback("vm.builtin.make_shape", args, n, result);
}

/* ---- struct info checks ----------------------------------------------------------------- */

/* vm.builtin.check_tensor_info(arg, ndim[, dtype][, err_ctx]) */
TVM_FFI_DLL_EXPORT int __tvm_ffi_tvm_vm_check_tensor_info(void* self, const TVMFFIAny* args,
                                                          int32_t n, TVMFFIAny* result) {
  (void)self;
  int64_t ndim;
  if (n < 2 || args[0].type_index != kTVMFFITensor || !tvmvm_int(&args[1], &ndim)) goto slow;
  DLTensor* t = TVMFFITensorGetDLTensorPtr(args[0].v_obj);
  if (ndim != -1 && t->ndim != ndim) goto slow;
  if (n >= 4) { /* (dtype, err_ctx); with 3 arguments the third is the error context */
    if (args[2].type_index != kTVMFFIDataType) goto slow; /* "" / None: Python decides */
    DLDataType want = args[2].v_dtype;
    int any = want.bits == 0 && want.code == kDLOpaqueHandle; /* void: any dtype */
    if (!any && (want.code != t->dtype.code || want.bits != t->dtype.bits ||
                 want.lanes != t->dtype.lanes)) {
      goto slow;
    }
  }
  return 0;
slow:
  return tvmvm_fallback("vm.builtin.check_tensor_info", args, n, result);
}

/* vm.builtin.null_value() */
TVM_FFI_DLL_EXPORT int __tvm_ffi_tvm_vm_null_value(void* self, const TVMFFIAny* args, int32_t n,
                                                   TVMFFIAny* result) {
  (void)self;
  (void)args;
  (void)n;
  result->type_index = kTVMFFINone;
  result->v_int64 = 0;
  return 0;
}

/* ---- helpers of the compiled VM functions (relax.vm_compiled emits calls to these) ------ */

TVMVM_HELPER void tvmvm_release(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(v->v_obj);
  v->type_index = kTVMFFINone;
  v->zero_padding = 0;
  v->v_int64 = 0;
}

TVMVM_HELPER void tvmvm_release_all(TVMFFIAny* regs, int n) {
  for (int i = 0; i < n; ++i) tvmvm_release(&regs[i]);
}

/* *dst = src, a new reference. */
TVMVM_HELPER void tvmvm_copy(TVMFFIAny* dst, const TVMFFIAny* src) {
  if (src->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectIncRef(src->v_obj);
  tvmvm_release(dst);
  *dst = *src;
}

/* *dst = *src, which it takes over (src is left None). */
TVMVM_HELPER void tvmvm_move(TVMFFIAny* dst, TVMFFIAny* src) {
  tvmvm_release(dst);
  *dst = *src;
  src->type_index = kTVMFFINone;
  src->v_int64 = 0;
}

TVMVM_HELPER TVMFFIAny tvmvm_imm(int64_t v) {
  TVMFFIAny a;
  a.type_index = kTVMFFIInt;
  a.zero_padding = 0;
  a.v_int64 = v;
  return a;
}

TVMVM_HELPER TVMFFIAny tvmvm_obj(TVMFFIObjectHandle obj, int32_t type_index) {
  TVMFFIAny a;
  a.type_index = type_index;
  a.zero_padding = 0;
  a.v_obj = (TVMFFIObject*)obj;
  return a;
}

/* The global function `name`, looked up once into *cache. */
TVMVM_HELPER int tvmvm_global(const char* name, TVMFFIObjectHandle* cache) {
  if (*cache != NULL) return 0;
  TVMFFIByteArray key = {name, strlen(name)};
  if (TVMFFIFunctionGetGlobal(&key, cache) != 0) return -1;
  if (*cache == NULL) {
    char msg[300];
    snprintf(msg, sizeof msg,
             "VirtualMachine: function '%s' is neither in the executable's library nor a "
             "registered global function",
             name);
    return tvmvm_raise("AttributeError", msg);
  }
  return 0;
}

/* A Function object over a safe-call symbol of this library, made once into *cache. */
TVMVM_HELPER int tvmvm_symbol_function(TVMFFISafeCallType fn, TVMFFIObjectHandle* cache) {
  if (*cache != NULL) return 0;
  return TVMFFIFunctionCreate(NULL, fn, NULL, cache);
}

/* A compiled VM function as a value (what make_closure binds, or a Relax function passed to
 * another): a Function that calls fn with the caller's vm, pooled flag and constants (the
 * arguments every compiled function takes first) before its own arguments. */
typedef struct {
  TVMFFISafeCallType fn;
  TVMFFIAny prefix[3];
} tvmvm_bound_t;

TVMVM_HELPER int tvmvm_bound_call(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  tvmvm_bound_t* b = (tvmvm_bound_t*)self;
  TVMFFIAny small[16];
  TVMFFIAny* all = n + 3 <= 16 ? small : (TVMFFIAny*)malloc(sizeof(TVMFFIAny) * (n + 3));
  if (all == NULL) return tvmvm_raise("MemoryError", "VirtualMachine: out of memory");
  memcpy(all, b->prefix, sizeof b->prefix);
  if (n > 0) memcpy(all + 3, args, sizeof(TVMFFIAny) * n);
  int rc = b->fn(NULL, all, n + 3, result);
  if (all != small) free(all);
  return rc;
}

TVMVM_HELPER void tvmvm_bound_free(void* self) {
  tvmvm_bound_t* b = (tvmvm_bound_t*)self;
  for (int i = 0; i < 3; ++i) tvmvm_release(&b->prefix[i]);
  free(b);
}

/* *out (owned, kTVMFFIFunction): fn bound to prefix[0..2] (new references are kept). */
TVMVM_HELPER int tvmvm_bound_function(TVMFFISafeCallType fn, const TVMFFIAny* prefix,
                                      TVMFFIAny* out) {
  tvmvm_bound_t* b = (tvmvm_bound_t*)calloc(1, sizeof(tvmvm_bound_t));
  if (b == NULL) return tvmvm_raise("MemoryError", "VirtualMachine: out of memory");
  b->fn = fn;
  for (int i = 0; i < 3; ++i) tvmvm_copy(&b->prefix[i], &prefix[i]);
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionCreate(b, tvmvm_bound_call, tvmvm_bound_free, &f) != 0) {
    tvmvm_bound_free(b);
    return -1;
  }
  tvmvm_release(out);
  *out = tvmvm_obj(f, kTVMFFIFunction);
  return 0;
}

/* The truth of an If condition: an int/bool, else what vm.builtin.read_if_cond says. */
TVMVM_HELPER int tvmvm_truth(const TVMFFIAny* cond, int* out) {
  if (cond->type_index == kTVMFFIInt || cond->type_index == kTVMFFIBool) {
    *out = cond->v_int64 != 0;
    return 0;
  }
  TVMFFIAny flag = {0};
  if (tvmvm_fallback("vm.builtin.read_if_cond", cond, 1, &flag) != 0) return -1;
  *out = flag.v_int64 != 0;
  tvmvm_release(&flag);
  return 0;
}
