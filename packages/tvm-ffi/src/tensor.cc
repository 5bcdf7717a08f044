// Tensors: adopting DLPack tensors (versioned and legacy), exporting them, and CPU allocation.
#include <tvm_ffi/ffi.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tvm {
namespace ffi {
namespace {

constexpr size_t kAllocAlignment = 64;

void CheckAdoptable(const DLTensor& t, int32_t require_alignment, int32_t require_contiguous,
                    const char* func) {
  if (t.ndim < 0) TVM_FFI_THROW(ValueError) << func << ": tensor has negative ndim " << t.ndim;
  if (require_alignment > 0 &&
      reinterpret_cast<uintptr_t>(static_cast<char*>(t.data) + t.byte_offset) % require_alignment !=
          0) {
    TVM_FFI_THROW(ValueError) << func << ": tensor data is not aligned to " << require_alignment
                              << " bytes";
  }
  if (require_contiguous && t.strides != nullptr) {
    int64_t expected = 1;
    for (int i = t.ndim - 1; i >= 0; --i) {
      if (t.shape[i] != 1 && t.strides[i] != expected) {
        TVM_FFI_THROW(ValueError) << func << ": tensor is not contiguous";
      }
      expected *= t.shape[i];
    }
  }
}

/*! A tensor always carries strides (row-major when the producer gave none), so
 * Tensor::strides() can hand out a view without computing anything. */
void FillStrides(TensorObj* obj) {
  if (obj->dl_tensor.strides != nullptr) return;
  obj->strides_storage = details::ContiguousStrides(obj->dl_tensor.shape, obj->dl_tensor.ndim);
  obj->dl_tensor.strides = obj->strides_storage.data();
}

/*! DLPack keeps the producer's shape and strides alive until its deleter runs: share them. */
ObjectPtr<TensorObj> MakeTensorFrom(const DLTensor& src) {
  ObjectPtr<TensorObj> obj = make_object<TensorObj>();
  obj->dl_tensor = src;
  FillStrides(obj.get());
  return obj;
}

template <typename Managed>
int AdoptDLPack(Managed* from, int32_t require_alignment, int32_t require_contiguous,
                TVMFFIObjectHandle* out, const char* func) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (from == nullptr) TVM_FFI_THROW(ValueError) << func << ": `from` is NULL";
  CheckAdoptable(from->dl_tensor, require_alignment, require_contiguous, func);
  ObjectPtr<TensorObj> obj = MakeTensorFrom(from->dl_tensor);
  obj->manager_ctx = from;
  obj->manager_deleter = [](void* ctx) {
    auto* managed = static_cast<Managed*>(ctx);
    if (managed->deleter) managed->deleter(managed);
  };
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) obj->dlpack_flags = from->flags;
  *out = details::ObjectUnsafe::MoveToHeader(std::move(obj));
  TVM_FFI_SAFE_CALL_END();
}

template <typename Managed>
int ExportDLPack(TVMFFIObjectHandle from, Managed** out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  auto* header = static_cast<TVMFFIObject*>(from);
  if (header == nullptr || header->type_index != kTVMFFITensor) {
    TVM_FFI_THROW(TypeError) << "TVMFFITensorToDLPack: `from` must be a Tensor";
  }
  auto* tensor = static_cast<TensorObj*>(details::ObjectUnsafe::FromHeader(header));
  // A legacy capsule has no flags: a consumer would take a read-only tensor as writable.
  if (!std::is_same_v<Managed, DLManagedTensorVersioned> &&
      (tensor->dlpack_flags & DLPACK_FLAG_BITMASK_READ_ONLY)) {
    TVM_FFI_THROW(BufferError) << "TVMFFITensorToDLPack: the tensor is read-only, which a legacy "
                               << "(unversioned) DLPack capsule cannot signal; export it versioned "
                               << "(__dlpack__(max_version=(1, 0)))";
  }
  Managed* managed = new Managed();
  managed->dl_tensor = tensor->dl_tensor;
  managed->manager_ctx = header;
  Object::IncRefHeader(header);
  managed->deleter = [](Managed* self) {
    Object::DecRefHeader(static_cast<TVMFFIObject*>(self->manager_ctx));
    delete self;
  };
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    managed->version.major = DLPACK_MAJOR_VERSION;
    managed->version.minor = DLPACK_MINOR_VERSION;
    managed->flags = tensor->dlpack_flags & DLPACK_FLAG_BITMASK_READ_ONLY;
  }
  *out = managed;
  TVM_FFI_SAFE_CALL_END();
}

Tensor TensorEmpty(Shape shape, DLDataType dtype, DLDevice device) {
  if (device.device_type != kDLCPU) {
    TVM_FFI_THROW(ValueError) << "ffi.TensorEmpty: argument `device` must be a CPU device; "
                                 "other devices allocate through their runtime";
  }
  int64_t numel = 1;
  for (int64_t d : shape) {
    if (d < 0)
      TVM_FFI_THROW(ValueError) << "ffi.TensorEmpty: argument `shape` has negative dim " << d;
    // A product that overflows would allocate a tiny buffer behind a huge shape.
    if (d != 0 && numel > INT64_MAX / d) {
      TVM_FFI_THROW(MemoryError)
          << "ffi.TensorEmpty: argument `shape` has too many elements to allocate";
    }
    numel *= d;
  }
  size_t item = details::DataTypeBytes(dtype);
  if (item != 0 && static_cast<size_t>(numel) > (SIZE_MAX - kAllocAlignment) / item) {
    TVM_FFI_THROW(MemoryError)
        << "ffi.TensorEmpty: argument `shape` has too many bytes to allocate";
  }
  size_t nbytes = static_cast<size_t>(numel) * item;
  size_t rounded = (nbytes + kAllocAlignment - 1) / kAllocAlignment * kAllocAlignment;
  void* data = std::aligned_alloc(kAllocAlignment, rounded == 0 ? kAllocAlignment : rounded);
  if (data == nullptr)
    TVM_FFI_THROW(MemoryError) << "ffi.TensorEmpty: cannot allocate " << nbytes << " bytes";
  ObjectPtr<TensorObj> obj = make_object<TensorObj>();
  obj->shape_storage = shape.ToVector();
  obj->dl_tensor.data = data;
  obj->dl_tensor.device = device;
  obj->dl_tensor.ndim = static_cast<int32_t>(shape.size());
  obj->dl_tensor.dtype = dtype;
  obj->dl_tensor.shape = obj->shape_storage.data();
  obj->dl_tensor.strides = nullptr;
  obj->dl_tensor.byte_offset = 0;
  FillStrides(obj.get());
  obj->manager_ctx = data;
  obj->manager_deleter = std::free;
  return Tensor(ObjectPtr<Object>(std::move(obj)));
}

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef()
      .def("ffi.TensorEmpty", TensorEmpty)
      .def("ffi.TensorShape", [](Tensor t) { return Shape(t.shape()); })
      .def("ffi.TensorIsContiguous", [](Tensor t) { return t.IsContiguous(); })
      .def("ffi.TensorDataPtr", [](Tensor t) { return t.data_ptr(); });
});

}  // namespace
}  // namespace ffi
}  // namespace tvm

using namespace tvm::ffi;  // NOLINT

int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                           int32_t require_contiguous, TVMFFIObjectHandle* out) {
  return AdoptDLPack(from, require_alignment, require_contiguous, out, "TVMFFITensorFromDLPack");
}

int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from, int32_t require_alignment,
                                    int32_t require_contiguous, TVMFFIObjectHandle* out) {
  if (from != nullptr && from->version.major != DLPACK_MAJOR_VERSION) {
    TVMFFIErrorSetRaisedFromCStr(
        "ValueError", "TVMFFITensorFromDLPackVersioned: unsupported DLPack major version");
    return -1;
  }
  return AdoptDLPack(from, require_alignment, require_contiguous, out,
                     "TVMFFITensorFromDLPackVersioned");
}

int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out) {
  return ExportDLPack(from, out);
}

int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from, DLManagedTensorVersioned** out) {
  return ExportDLPack(from, out);
}
