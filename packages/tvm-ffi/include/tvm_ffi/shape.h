// Shape: an immutable tuple of int64 (tensor shapes), stored inline after its header.
#ifndef TVM_FFI_SHAPE_H_
#define TVM_FFI_SHAPE_H_

#include <tvm_ffi/any.h>
#include <tvm_ffi/error.h>

#include <initializer_list>
#include <ostream>
#include <vector>

namespace tvm {
namespace ffi {

class ShapeObj : public Object {
 public:
  TVMFFIShapeCell cell;
  const int64_t* data() const { return cell.data; }
  size_t size() const { return cell.size; }
  TVM_FFI_DECLARE_STATIC_OBJECT_INFO("ffi.Shape", ShapeObj, Object, kTVMFFIShape);
};

class Shape : public ObjectRef {
 public:
  Shape() : Shape(static_cast<const int64_t*>(nullptr), static_cast<size_t>(0)) {}
  explicit Shape(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  Shape(std::initializer_list<int64_t> dims) : Shape(dims.begin(), dims.size()) {}
  Shape(const std::vector<int64_t>& dims) : Shape(dims.data(), dims.size()) {}  // NOLINT
  Shape(const int64_t* dims, size_t n) {
    ObjectPtr<ShapeObj> obj = make_inplace_array_object<ShapeObj, int64_t>(n);
    int64_t* dest =
        reinterpret_cast<int64_t*>(reinterpret_cast<char*>(obj.get()) + sizeof(ShapeObj));
    for (size_t i = 0; i < n; ++i) dest[i] = dims[i];
    obj->cell.data = dest;
    obj->cell.size = n;
    data_ = std::move(obj);
  }
  size_t size() const { return get()->size(); }
  size_t ndim() const { return size(); }
  const int64_t* data() const { return get()->data(); }
  int64_t operator[](size_t i) const {
    if (i >= size())
      TVM_FFI_THROW(IndexError) << "Shape index " << i << " out of range for ndim " << size();
    return data()[i];
  }
  const int64_t* begin() const { return data(); }
  const int64_t* end() const { return data() + size(); }
  int64_t Product() const {
    int64_t p = 1;
    for (int64_t d : *this) p *= d;
    return p;
  }
  std::vector<int64_t> ToVector() const { return std::vector<int64_t>(begin(), end()); }
  const ShapeObj* get() const { return static_cast<const ShapeObj*>(data_.get()); }
  using ContainerType = ShapeObj;
  static constexpr bool _custom_type_traits = true;
};

/*! A Shape also accepts an Array of ints (a Python tuple or list), copied into a Shape. */
template <>
struct TypeTraits<Shape> : ObjectRefTraitsBase<Shape> {
  static std::optional<Shape> TryCastFromAnyView(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIShape) {
      return ObjectRefAccess::FromPtr<Shape>(
          details::ObjectUnsafe::FromBorrowedHeader<Object>(v->v_obj));
    }
    if (v->type_index != kTVMFFIArray) return std::nullopt;
    const TVMFFISeqCell* cell = TVMFFIArrayGetCell(v->v_obj);
    std::vector<int64_t> dims(cell->size);
    for (int64_t i = 0; i < cell->size; ++i) {
      if (cell->data[i].type_index != kTVMFFIInt) return std::nullopt;
      dims[i] = cell->data[i].v_int64;
    }
    return Shape(dims);
  }
  static std::string TypeStr() { return "ffi.Shape"; }
};

/*! A borrowed run of int64 dims (a shape or strides); valid while its owner lives. */
class ShapeView {
 public:
  ShapeView() = default;
  ShapeView(const int64_t* data, size_t size) : data_(data), size_(size) {}
  ShapeView(const Shape& shape) : data_(shape.data()), size_(shape.size()) {}              // NOLINT
  ShapeView(const std::vector<int64_t>& dims) : data_(dims.data()), size_(dims.size()) {}  // NOLINT
  const int64_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int64_t operator[](size_t i) const { return data_[i]; }
  int64_t at(size_t i) const {
    if (i >= size_)
      TVM_FFI_THROW(IndexError) << "ShapeView index " << i << " out of range for size " << size_;
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
  std::vector<int64_t> ToVector() const { return std::vector<int64_t>(begin(), end()); }
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

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_SHAPE_H_
