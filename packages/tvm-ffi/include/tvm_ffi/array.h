// Array<T>: an immutable-by-default, copy-on-write sequence of Any values.
#ifndef TVM_FFI_ARRAY_H_
#define TVM_FFI_ARRAY_H_

#include <tvm_ffi/any.h>
#include <tvm_ffi/error.h>

#include <initializer_list>
#include <iterator>
#include <vector>

namespace tvm {
namespace ffi {

/*! Header, then TVMFFISeqCell (layout is ABI) kept in step with `items`. */
class ArrayObj : public Object {
 public:
  TVMFFISeqCell cell{nullptr, 0};
  std::vector<Any> items;

  ArrayObj() = default;
  explicit ArrayObj(std::vector<Any> values) : items(std::move(values)) { Sync(); }
  ArrayObj(const ArrayObj& other) : Object(), items(other.items) { Sync(); }
  void Sync() {
    cell.data = reinterpret_cast<TVMFFIAny*>(items.data());
    cell.size = static_cast<int64_t>(items.size());
  }
  TVM_FFI_DECLARE_STATIC_OBJECT_INFO("ffi.Array", ArrayObj, Object, kTVMFFIArray);
};

/*!
 * ffi.List: a mutable sequence shared by every reference (no copy-on-write). It keeps
 * ArrayObj's layout, so TVMFFIArrayGetCell reads it too; call Sync() after changing items.
 */
class ListObj : public ArrayObj {
 public:
  using ArrayObj::ArrayObj;
  TVM_FFI_DECLARE_STATIC_OBJECT_INFO("ffi.List", ListObj, Object, kTVMFFIList);
};

template <typename T = Any>
class Array : public ObjectRef {
 public:
  Array() : ObjectRef(make_object<ArrayObj>()) {}
  explicit Array(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  Array(std::initializer_list<T> values) : Array(values.begin(), values.end()) {}
  Array(const std::vector<T>& values) : Array(values.begin(), values.end()) {}  // NOLINT
  template <typename It>
  Array(It begin, It end) {
    std::vector<Any> items;
    items.reserve(std::distance(begin, end));
    for (; begin != end; ++begin) items.emplace_back(Any(T(*begin)));
    data_ = make_object<ArrayObj>(std::move(items));
  }

  size_t size() const { return get()->items.size(); }
  bool empty() const { return size() == 0; }
  T operator[](int64_t i) const { return at(i); }
  T at(int64_t i) const {
    if (i < 0 || i >= static_cast<int64_t>(size())) {
      TVM_FFI_THROW(IndexError) << "Array index " << i << " out of range for size " << size();
    }
    return get()->items[i].template cast<T>();
  }
  T front() const { return at(0); }
  T back() const { return at(static_cast<int64_t>(size()) - 1); }

  void push_back(T value) {
    ArrayObj* obj = CopyOnWrite();
    obj->items.emplace_back(Any(std::move(value)));
    obj->Sync();
  }
  void Set(int64_t i, T value) {
    if (i < 0 || i >= static_cast<int64_t>(size())) {
      TVM_FFI_THROW(IndexError) << "Array index " << i << " out of range for size " << size();
    }
    ArrayObj* obj = CopyOnWrite();
    obj->items[i] = Any(std::move(value));
  }
  /*! The contents, copied first when another reference shares them. */
  ArrayObj* CopyOnWrite() {
    if (data_.use_count() != 1) data_ = make_object<ArrayObj>(*get());
    return static_cast<ArrayObj*>(data_.get());
  }

  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = T;
    explicit iterator(const Any* p) : p_(p) {}
    T operator*() const { return p_->template cast<T>(); }
    iterator& operator++() {
      ++p_;
      return *this;
    }
    bool operator==(const iterator& o) const { return p_ == o.p_; }
    bool operator!=(const iterator& o) const { return p_ != o.p_; }

   private:
    const Any* p_;
  };
  iterator begin() const { return iterator(get()->items.data()); }
  iterator end() const { return iterator(get()->items.data() + size()); }

  const ArrayObj* get() const { return static_cast<const ArrayObj*>(data_.get()); }
  const ArrayObj* operator->() const { return get(); }
  using ContainerType = ArrayObj;
  static constexpr bool _custom_type_traits = true;
};

namespace details {
/*!
 * The cast of an Array or List value to SeqRef (Array<T> or List<T>), as apache-tvm-ffi does:
 * the object itself when its type index is `primary`, else a new SeqObj holding the same
 * items (so an Array never changes with a List it came from, nor a List with its Array).
 */
template <typename SeqRef, typename SeqObj, typename T>
std::optional<SeqRef> SeqTryCast(const TVMFFIAny* v, int32_t primary) {
  if (v->type_index != kTVMFFIArray && v->type_index != kTVMFFIList) return std::nullopt;
  const TVMFFISeqCell* cell = TVMFFIArrayGetCell(v->v_obj);
  if constexpr (!std::is_same_v<T, Any>) {
    for (int64_t i = 0; i < cell->size; ++i) {
      if (!TypeTraits<T>::TryCastFromAnyView(&cell->data[i]).has_value()) return std::nullopt;
    }
  }
  if (v->type_index == primary) {
    return ObjectRefAccess::FromPtr<SeqRef>(ObjectUnsafe::FromBorrowedHeader<Object>(v->v_obj));
  }
  const Any* items = reinterpret_cast<const Any*>(cell->data);
  return SeqRef(
      ObjectPtr<Object>(make_object<SeqObj>(std::vector<Any>(items, items + cell->size))));
}
}  // namespace details

template <typename T>
struct TypeTraits<Array<T>> : ObjectRefTraitsBase<Array<T>> {
  static std::optional<Array<T>> TryCastFromAnyView(const TVMFFIAny* v) {
    return details::SeqTryCast<Array<T>, ArrayObj, T>(v, kTVMFFIArray);
  }
  static std::string TypeStr() { return "Array[" + TypeTraits<T>::TypeStr() + "]"; }
  static std::string TypeSchema() { return details::TypeSchemaGeneric<T>("ffi.Array"); }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ARRAY_H_
