// The example device: host memory tagged with DLPack's extension device type.
// example.empty allocates a tensor there; example.copy copies between it and the CPU.
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "argument_checks.h"

namespace tvm_backend_example {
namespace {

constexpr size_t kAlignment = 64;

// What the DLPack deleter frees: the data and the shape the DLTensor points to.
struct ExampleAllocation {
  DLManagedTensorVersioned managed;
  std::vector<int64_t> shape;
  void* data;
};

void FreeAllocation(DLManagedTensorVersioned* self) {
  auto* alloc = static_cast<ExampleAllocation*>(self->manager_ctx);
  std::free(alloc->data);
  delete alloc;
}

Tensor Empty(tvm::ffi::Shape shape, DLDataType dtype, int64_t device_id) {
  const char* fn = "example.empty";
  if (device_id != 0) {
    TVM_FFI_THROW(ValueError) << fn << ": argument 'device_id' must be 0 (one example device), got "
                              << device_id;
  }
  if (dtype.lanes == 0 || dtype.bits == 0 || dtype.bits % 8 != 0) {
    TVM_FFI_THROW(ValueError) << fn << ": argument 'dtype' must have a whole number of bytes";
  }
  auto* alloc = new ExampleAllocation();
  alloc->shape.assign(shape.begin(), shape.end());
  size_t bytes = tvm::ffi::details::DataTypeBytes(dtype);
  for (int64_t d : alloc->shape) {
    if (d < 0) {
      delete alloc;
      TVM_FFI_THROW(ValueError) << fn << ": argument 'shape' must hold sizes >= 0, got " << d;
    }
    bytes *= static_cast<size_t>(d);
  }
  size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  alloc->data = std::aligned_alloc(kAlignment, rounded ? rounded : kAlignment);
  if (alloc->data == nullptr) {
    delete alloc;
    throw std::bad_alloc();
  }
  DLManagedTensorVersioned& m = alloc->managed;
  m.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  m.manager_ctx = alloc;
  m.deleter = FreeAllocation;
  m.flags = 0;
  m.dl_tensor.data = alloc->data;
  m.dl_tensor.device = {static_cast<DLDeviceType>(kExampleDeviceType), 0};
  m.dl_tensor.ndim = static_cast<int32_t>(alloc->shape.size());
  m.dl_tensor.dtype = dtype;
  m.dl_tensor.shape = alloc->shape.data();
  m.dl_tensor.strides = nullptr;
  m.dl_tensor.byte_offset = 0;
  return Tensor::FromDLPackVersioned(&m);
}

void CheckHostContiguous(const char* arg, const Tensor& t) {
  int device_type = t.device().device_type;
  if (device_type != kDLCPU && device_type != kExampleDeviceType) {
    TVM_FFI_THROW(ValueError) << "example.copy: argument '" << arg
                              << "' must live on the cpu or example device, got device type "
                              << device_type;
  }
  if (t.numel() > 0 && !t.IsContiguous()) {
    TVM_FFI_THROW(ValueError) << "example.copy: argument '" << arg << "' must be C-contiguous";
  }
}

void Copy(Tensor dst, Tensor src) {
  CheckHostContiguous("dst", dst);
  CheckHostContiguous("src", src);
  if (!tvm::ffi::details::SameDataType(dst.dtype(), src.dtype()) || dst.numel() != src.numel()) {
    TVM_FFI_THROW(ValueError) << "example.copy: argument 'src' " << ShapeStr(src)
                              << " must match 'dst' " << ShapeStr(dst) << " in size and dtype";
  }
  size_t bytes = tvm::ffi::details::DataTypeBytes(dst.dtype()) * static_cast<size_t>(dst.numel());
  if (bytes) std::memmove(dst.data_ptr(), src.data_ptr(), bytes);
}

TVM_FFI_STATIC_INIT_BLOCK({
  tvm::ffi::reflection::GlobalDef().def("example.empty", Empty).def("example.copy", Copy);
});

}  // namespace
}  // namespace tvm_backend_example
