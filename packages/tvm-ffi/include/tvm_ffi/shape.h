// Shape: an immutable tuple of int64 (tensor shapes), stored inline after its header.
#ifndef TVM_FFI_SHAPE_H_
#define TVM_FFI_SHAPE_H_

#include <tvm_ffi/any.h>
#include <tvm_ffi/error.h>

#include <initializer_list>
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
    int64_t* dest = reinterpret_cast<int64_t*>(reinterpret_cast<char*>(obj.get()) + sizeof(ShapeObj));
    for (size_t i = 0; i < n; ++i) dest[i] = dims[i];
    obj->cell.data = dest;
    obj->cell.size = n;
    data_ = std::move(obj);
  }
  size_t size() const { return get()->size(); }
  size_t ndim() const { return size(); }
  const int64_t* data() const { return get()->data(); }
  int64_t operator[](size_t i) const {
    if (i >= size()) TVM_FFI_THROW(IndexError) << "Shape index " << i << " out of range for ndim " << size();
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
      return ObjectRefAccess::FromPtr<Shape>(details::ObjectUnsafe::FromBorrowedHeader<Object>(v->v_obj));
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

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_SHAPE_H_
