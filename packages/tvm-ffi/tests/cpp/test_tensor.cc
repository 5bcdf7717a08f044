// Tensor from a DLPack producer and back: shared memory, metadata, and the deleter's timing.
#include <tvm_ffi/ffi.h>

#include "test_assertions.h"

using namespace tvm::ffi;  // NOLINT

namespace {
struct Producer {
  float data[6] = {0, 1, 2, 3, 4, 5};
  int64_t shape[2] = {2, 3};
  int64_t strides[2] = {3, 1};
  DLManagedTensorVersioned managed;
  int deleted = 0;
};

void DeleteProducer(DLManagedTensorVersioned* self) {
  ++static_cast<Producer*>(self->manager_ctx)->deleted;
}

DLManagedTensorVersioned* Export(Producer* p) {
  DLManagedTensorVersioned& m = p->managed;
  m.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  m.manager_ctx = p;
  m.deleter = DeleteProducer;
  m.flags = 0;
  m.dl_tensor.data = p->data;
  m.dl_tensor.device = {kDLCPU, 0};
  m.dl_tensor.ndim = 2;
  m.dl_tensor.dtype = {kDLFloat, 32, 1};
  m.dl_tensor.shape = p->shape;
  m.dl_tensor.strides = p->strides;
  m.dl_tensor.byte_offset = 0;
  return &m;
}
}  // namespace

int main() {
  Producer producer;
  {
    Tensor t = Tensor::FromDLPackVersioned(Export(&producer));
    CHECK_EQ(t.ndim(), 2);
    CHECK_EQ(t.size(0), 2);
    CHECK_EQ(t.size(1), 3);
    CHECK_EQ(t.numel(), 6);
    CHECK(t.IsContiguous());
    CHECK(t.dtype().code == kDLFloat && t.dtype().bits == 32);
    CHECK_EQ(t.device().device_type, kDLCPU);
    CHECK(t.data_ptr() == producer.data);
    CHECK_EQ(t.shape().ToVector(), (std::vector<int64_t>{2, 3}));
    // Through an Any and as a DLTensor*.
    Any any = t;
    CHECK_EQ(any.type_index(), kTVMFFITensor);
    DLTensor* dl = any.cast<DLTensor*>();
    static_cast<float*>(dl->data)[4] = 40.0f;
    CHECK_EQ(producer.data[4], 40.0f);

    // Export again: shares memory and keeps the tensor alive until its deleter runs.
    DLManagedTensorVersioned* out = t.ToDLPackVersioned();
    CHECK(out->dl_tensor.data == producer.data);
    CHECK_EQ(out->dl_tensor.shape[1], 3);
    CHECK_EQ(out->dl_tensor.strides[0], 3);
    CHECK_EQ(out->version.major, 1u);
    any.reset();
    t = Tensor();
    CHECK_EQ(producer.deleted, 0);  // the export still holds it
    out->deleter(out);
    CHECK_EQ(producer.deleted, 1);
  }
  CHECK_EQ(producer.deleted, 1);

  // Transposed strides survive the round trip; IsContiguous says no.
  Producer transposed;
  DLManagedTensorVersioned* m = Export(&transposed);
  transposed.shape[0] = 3;
  transposed.shape[1] = 2;
  transposed.strides[0] = 1;
  transposed.strides[1] = 3;
  {
    Tensor t = Tensor::FromDLPackVersioned(m);
    CHECK(!t.IsContiguous());
    CHECK_EQ(t->strides[0], 1);
    CHECK_EQ(t->strides[1], 3);
  }
  CHECK_EQ(transposed.deleted, 1);

  // The global allocator gives aligned CPU tensors.
  Tensor empty = Function::GetGlobalRequired("ffi.TensorEmpty")(
                     Shape{4, 4}, DLDataType{kDLFloat, 32, 1}, DLDevice{kDLCPU, 0})
                     .cast<Tensor>();
  CHECK_EQ(empty.numel(), 16);
  CHECK_EQ(reinterpret_cast<uintptr_t>(empty.data_ptr()) % 64, 0u);
  return check::Report("tensor");
}
