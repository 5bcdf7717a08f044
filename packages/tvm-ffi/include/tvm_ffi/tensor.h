// Tensor: a reference-counted DLTensor, exchanged with other frameworks through DLPack.
#ifndef TVM_FFI_TENSOR_H_
#define TVM_FFI_TENSOR_H_

#include <tvm_ffi/any.h>
#include <tvm_ffi/error.h>
#include <tvm_ffi/shape.h>

#include <ostream>
#include <string>
#include <vector>

namespace tvm {
namespace ffi {

/*!
 * Header, then the DLTensor (layout is ABI). The memory belongs to a manager context
 * released by manager_deleter (a DLPack producer's tensor, or our own allocation).
 */
class TensorObj : public Object {
 public:
  DLTensor dl_tensor;
  std::vector<int64_t> shape_storage;
  std::vector<int64_t> strides_storage;
  void* manager_ctx{nullptr};
  void (*manager_deleter)(void* ctx){nullptr};
  uint64_t dlpack_flags{0};

  TensorObj() = default;
  TensorObj(const TensorObj&) = delete;
  ~TensorObj() {
    if (manager_deleter) manager_deleter(manager_ctx);
  }
  TVM_FFI_DECLARE_STATIC_OBJECT_INFO("ffi.Tensor", TensorObj, Object, kTVMFFITensor);
};

namespace details {
inline size_t DataTypeBytes(DLDataType t) {
  return (static_cast<size_t>(t.bits) * t.lanes + 7) / 8;
}
inline bool SameDataType(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}
/*! Dim `idx` (negative counts from the end) of a `what` of ndim dims; IndexError outside. */
inline int64_t NormalizeDim(int64_t idx, int32_t ndim, const char* what) {
  int64_t i = idx >= 0 ? idx : idx + ndim;
  if (i < 0 || i >= ndim) {
    TVM_FFI_THROW(IndexError) << what << ": dimension " << idx
                              << " out of range for a tensor of ndim " << ndim;
  }
  return i;
}
/*! Row-major strides (in elements) of a shape, for producers that give none. */
inline std::vector<int64_t> ContiguousStrides(const int64_t* shape, int32_t ndim) {
  std::vector<int64_t> strides(ndim);
  int64_t s = 1;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}
}  // namespace details

/*! The text form of a dtype ("float32", "int8x4"), for messages. */
inline std::string DLDataTypeToString(DLDataType dtype) {
  TVMFFIAny out;
  details::InitNone(&out);
  if (TVMFFIDataTypeToString(&dtype, &out) != 0) throw details::MoveFromRaised();
  return Any::FromTVMFFIAny(&out).cast<std::string>();
}

inline std::ostream& operator<<(std::ostream& os, DLDataType dtype) {
  return os << DLDataTypeToString(dtype);
}

class Tensor : public ObjectRef {
 public:
  Tensor() = default;
  explicit Tensor(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}

  const DLTensor* operator->() const { return &get()->dl_tensor; }
  DLTensor* GetDLTensorPtr() const { return const_cast<DLTensor*>(&get()->dl_tensor); }
  void* data_ptr() const {
    return static_cast<char*>(get()->dl_tensor.data) + get()->dl_tensor.byte_offset;
  }
  int32_t ndim() const { return get()->dl_tensor.ndim; }
  int32_t dim() const { return ndim(); }
  /*! A view of the dims, valid while this tensor lives (apache-tvm-ffi's ShapeView). */
  ShapeView shape() const { return ShapeView(get()->dl_tensor.shape, get()->dl_tensor.ndim); }
  ShapeView sizes() const { return shape(); }
  /*! Strides in elements. Tensors made by the library always carry them (see tensor.cc);
   * a hand-built TensorObj without them gets row-major ones computed here once. */
  ShapeView strides() const {
    TensorObj* obj = const_cast<TensorObj*>(get());
    if (obj->dl_tensor.strides == nullptr) {
      obj->strides_storage = details::ContiguousStrides(obj->dl_tensor.shape, obj->dl_tensor.ndim);
      obj->dl_tensor.strides = obj->strides_storage.data();
    }
    return ShapeView(obj->dl_tensor.strides, obj->dl_tensor.ndim);
  }
  /*! Dim `idx`; negative counts from the end; IndexError outside. */
  int64_t size(int64_t idx) const {
    return get()->dl_tensor.shape[details::NormalizeDim(idx, ndim(), "Tensor::size")];
  }
  int64_t stride(int64_t idx) const {
    return strides()[details::NormalizeDim(idx, ndim(), "Tensor::stride")];
  }
  uint64_t byte_offset() const { return get()->dl_tensor.byte_offset; }
  DLDataType dtype() const { return get()->dl_tensor.dtype; }
  DLDevice device() const { return get()->dl_tensor.device; }
  int64_t numel() const { return shape().Product(); }
  bool is_contiguous() const { return IsContiguous(); }
  bool IsContiguous() const {
    const DLTensor& t = get()->dl_tensor;
    if (t.strides == nullptr) return true;
    int64_t expected = 1;
    for (int i = t.ndim - 1; i >= 0; --i) {
      if (t.shape[i] != 1 && t.strides[i] != expected) return false;
      expected *= t.shape[i];
    }
    return true;
  }

  /*! Takes a versioned DLPack tensor; its deleter runs when the last reference goes. */
  static Tensor FromDLPackVersioned(DLManagedTensorVersioned* from) {
    TVMFFIObjectHandle out = nullptr;
    if (TVMFFITensorFromDLPackVersioned(from, 0, 0, &out) != 0) throw details::MoveFromRaised();
    return Tensor(details::ObjectUnsafe::FromOwnedHeader<Object>(static_cast<TVMFFIObject*>(out)));
  }
  /*! A new versioned DLPack tensor sharing this tensor's memory. */
  DLManagedTensorVersioned* ToDLPackVersioned() const {
    DLManagedTensorVersioned* out = nullptr;
    if (TVMFFITensorToDLPackVersioned(details::ObjectUnsafe::GetHeader(get()), &out) != 0) {
      throw details::MoveFromRaised();
    }
    return out;
  }

  const TensorObj* get() const { return static_cast<const TensorObj*>(data_.get()); }
  using ContainerType = TensorObj;
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_TENSOR_H_
