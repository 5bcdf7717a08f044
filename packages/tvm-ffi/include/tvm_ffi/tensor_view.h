// TensorView and ShapeView: non-owning views of a DLTensor and of its dims, as apache-tvm-ffi names them.
#ifndef TVM_FFI_TENSOR_VIEW_H_
#define TVM_FFI_TENSOR_VIEW_H_

#include <tvm_ffi/dtype.h>
#include <tvm_ffi/tensor.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tvm {
namespace ffi {

/*! A borrowed run of int64 dims (a shape or strides); valid while its owner lives. */
class ShapeView {
 public:
  ShapeView() = default;
  ShapeView(const int64_t* data, size_t size) : data_(data), size_(size) {}
  ShapeView(const Shape& shape) : data_(shape.data()), size_(shape.size()) {}  // NOLINT
  ShapeView(const std::vector<int64_t>& dims) : data_(dims.data()), size_(dims.size()) {}  // NOLINT
  const int64_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int64_t operator[](size_t i) const { return data_[i]; }
  int64_t at(size_t i) const {
    if (i >= size_) TVM_FFI_THROW(IndexError) << "ShapeView index " << i << " out of range for size " << size_;
    return data_[i];
  }
  const int64_t* begin() const { return data_; }
  const int64_t* end() const { return data_ + size_; }
  int64_t front() const { return at(0); }
  int64_t back() const { return at(size_ - 1); }
  int64_t Product() const {
    int64_t p = 1;
    for (size_t i = 0; i < size_; ++i) p *= data_[i];
    return p;
  }
  operator Shape() const { return Shape(data_, size_); }  // NOLINT

 private:
  const int64_t* data_{nullptr};
  size_t size_{0};
};

inline std::ostream& operator<<(std::ostream& os, ShapeView shape) {
  os << '[';
  for (size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
  return os << ']';
}

namespace details {
/*! Dim `idx` (negative counts from the end) of a `what` of ndim dims; IndexError outside. */
inline int64_t NormalizeDim(int64_t idx, int32_t ndim, const char* what) {
  int64_t i = idx >= 0 ? idx : idx + ndim;
  if (i < 0 || i >= ndim) {
    TVM_FFI_THROW(IndexError) << what << ": dimension " << idx << " out of range for a tensor of ndim "
                              << ndim;
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

/*!
 * A non-owning view of a tensor: what kernels take as arguments. Copies the DLTensor
 * header; the shape, strides and data stay the caller's and must outlive the view.
 */
class TensorView {
 public:
  TensorView(const Tensor& tensor) : TensorView(tensor.GetDLTensorPtr()) {}  // NOLINT
  TensorView(const DLTensor* tensor) : tensor_(*tensor) {  // NOLINT
    if (tensor_.strides == nullptr) {
      strides_storage_ = details::ContiguousStrides(tensor_.shape, tensor_.ndim);
    }
  }
  // A view of a temporary Tensor would dangle as soon as the statement ends.
  TensorView(Tensor&& tensor) = delete;  // NOLINT
  TensorView(const TensorView&) = default;
  TensorView(TensorView&&) = default;
  TensorView& operator=(const TensorView&) = default;
  TensorView& operator=(TensorView&&) = default;

  void* data_ptr() const { return static_cast<char*>(tensor_.data) + tensor_.byte_offset; }
  DLDevice device() const { return tensor_.device; }
  int32_t ndim() const { return tensor_.ndim; }
  int32_t dim() const { return ndim(); }
  DLDataType dtype() const { return tensor_.dtype; }
  ShapeView shape() const { return ShapeView(tensor_.shape, tensor_.ndim); }
  ShapeView sizes() const { return shape(); }
  /*! Strides in elements; computed row-major when the producer gave none. */
  ShapeView strides() const {
    if (tensor_.strides != nullptr) return ShapeView(tensor_.strides, tensor_.ndim);
    return ShapeView(strides_storage_);
  }
  int64_t size(int64_t idx) const {
    return tensor_.shape[details::NormalizeDim(idx, tensor_.ndim, "TensorView::size")];
  }
  int64_t stride(int64_t idx) const {
    return strides()[details::NormalizeDim(idx, tensor_.ndim, "TensorView::stride")];
  }
  int64_t numel() const { return shape().Product(); }
  uint64_t byte_offset() const { return tensor_.byte_offset; }
  bool IsContiguous() const {
    int64_t expected = 1;
    ShapeView st = strides();
    for (int32_t i = tensor_.ndim - 1; i >= 0; --i) {
      if (tensor_.shape[i] != 1 && st[i] != expected) return false;
      expected *= tensor_.shape[i];
    }
    return true;
  }
  bool is_contiguous() const { return IsContiguous(); }
  const DLTensor* operator->() const { return &tensor_; }
  const DLTensor* GetDLTensorPtr() const { return &tensor_; }

 private:
  DLTensor tensor_;
  std::vector<int64_t> strides_storage_;
  friend struct TypeTraits<TensorView>;
};

/*! A TensorView argument takes a borrowed DLTensor* or a Tensor; it cannot be returned. */
template <>
struct TypeTraits<TensorView> {
  static constexpr bool enabled = true;
  static void CopyToAnyView(const TensorView& view, TVMFFIAny* out) {
    out->type_index = kTVMFFIDLTensorPtr;
    out->v_ptr = const_cast<DLTensor*>(&view.tensor_);
  }
  static std::optional<TensorView> TryCastFromAnyView(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIDLTensorPtr) return TensorView(static_cast<const DLTensor*>(v->v_ptr));
    if (v->type_index == kTVMFFITensor) return TensorView(TVMFFITensorGetDLTensorPtr(v->v_obj));
    return std::nullopt;
  }
  static std::string TypeStr() { return "DLTensor*"; }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_TENSOR_VIEW_H_
