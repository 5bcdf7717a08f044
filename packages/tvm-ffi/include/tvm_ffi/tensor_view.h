// TensorView: a non-owning view of a DLTensor, what kernels take as arguments (apache-tvm-ffi's
// name).
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

/*!
 * A non-owning view of a tensor: what kernels take as arguments. Copies the DLTensor
 * header; the shape, strides and data stay the caller's and must outlive the view.
 */
class TensorView {
 public:
  TensorView(const Tensor& tensor) : TensorView(tensor.GetDLTensorPtr()) {}  // NOLINT
  TensorView(const DLTensor* tensor) : tensor_(*tensor) {                    // NOLINT
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
    if (v->type_index == kTVMFFIDLTensorPtr)
      return TensorView(static_cast<const DLTensor*>(v->v_ptr));
    if (v->type_index == kTVMFFITensor) return TensorView(TVMFFITensorGetDLTensorPtr(v->v_obj));
    return std::nullopt;
  }
  static std::string TypeStr() { return "DLTensor*"; }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_TENSOR_VIEW_H_
