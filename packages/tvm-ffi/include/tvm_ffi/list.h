// List<T>: a mutable sequence shared by every reference (ffi.List), beside the copy-on-write Array.
#ifndef TVM_FFI_LIST_H_
#define TVM_FFI_LIST_H_

#include <tvm_ffi/array.h>

#include <initializer_list>
#include <iterator>
#include <vector>

namespace tvm {
namespace ffi {

/*!
 * A handle on one ListObj: copies of a List share it, and a change made through any of
 * them (or by a caller across the FFI) is seen by all. An Array passed where a List<T> is
 * expected becomes a new List holding the same items, as apache-tvm-ffi does.
 */
template <typename T = Any>
class List : public ObjectRef {
 public:
  List() : ObjectRef(make_object<ListObj>()) {}
  explicit List(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  List(std::initializer_list<T> values) : List(values.begin(), values.end()) {}
  List(const std::vector<T>& values) : List(values.begin(), values.end()) {}  // NOLINT
  List(size_t n, const T& value) : List(std::vector<T>(n, value)) {}
  template <typename It>
  List(It begin, It end) {
    std::vector<Any> items;
    items.reserve(std::distance(begin, end));
    for (; begin != end; ++begin) items.emplace_back(Any(T(*begin)));
    data_ = make_object<ListObj>(std::move(items));
  }

  size_t size() const { return obj()->items.size(); }
  size_t capacity() const { return obj()->items.capacity(); }
  bool empty() const { return size() == 0; }
  T operator[](int64_t i) const { return at(i); }
  T at(int64_t i) const { return obj()->items[Checked(i, "at")].template cast<T>(); }
  T front() const { return at(0); }
  T back() const { return at(static_cast<int64_t>(size()) - 1); }

  void Set(int64_t i, T value) { obj()->items[Checked(i, "Set")] = Any(std::move(value)); }
  void push_back(const T& value) {
    Change([&](auto& v) { v.emplace_back(Any(value)); });
  }
  template <typename... Args>
  void emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
  }
  void pop_back() {
    if (empty()) TVM_FFI_THROW(IndexError) << "List.pop_back: the List is empty";
    Any last;  // released after the List is consistent again
    Change([&](auto& v) {
      last = std::move(v.back());
      v.pop_back();
    });
  }
  void clear() {
    std::vector<Any> old;  // released after the List is consistent again
    Change([&](auto& v) { old.swap(v); });
  }
  void resize(int64_t n) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "List.resize: size must be >= 0, got " << n;
    std::vector<Any> dropped;  // released after the List is consistent again
    Change([&](auto& v) {
      if (static_cast<size_t>(n) < v.size()) Drop(v, static_cast<size_t>(n), v.size(), &dropped);
      v.resize(static_cast<size_t>(n));
    });
  }
  void reserve(int64_t n) {
    if (n > 0) Change([&](auto& v) { v.reserve(static_cast<size_t>(n)); });
  }

  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = T;
    iterator() = default;
    explicit iterator(const Any* p) : p_(p) {}
    T operator*() const { return p_->template cast<T>(); }
    iterator& operator++() {
      ++p_;
      return *this;
    }
    iterator& operator--() {
      --p_;
      return *this;
    }
    iterator operator+(difference_type n) const { return iterator(p_ + n); }
    iterator operator-(difference_type n) const { return iterator(p_ - n); }
    difference_type operator-(const iterator& o) const { return p_ - o.p_; }
    bool operator==(const iterator& o) const { return p_ == o.p_; }
    bool operator!=(const iterator& o) const { return p_ != o.p_; }

   private:
    friend class List;
    const Any* p_ = nullptr;
  };
  iterator begin() const { return iterator(obj()->items.data()); }
  iterator end() const { return iterator(obj()->items.data() + size()); }

  /*! Inserts before `pos` (an iterator of this List). */
  void insert(iterator pos, const T& value) {
    size_t at = Offset(pos, "insert");
    Change([&](auto& v) { v.insert(v.begin() + at, Any(value)); });
  }
  template <typename It>
  void insert(iterator pos, It first, It last) {
    size_t at = Offset(pos, "insert");
    std::vector<Any> values;
    for (; first != last; ++first) values.emplace_back(Any(T(*first)));
    Change([&](auto& v) { v.insert(v.begin() + at, values.begin(), values.end()); });
  }
  void erase(iterator pos) {
    size_t at = Offset(pos, "erase");
    if (at >= size()) TVM_FFI_THROW(IndexError) << "List.erase: iterator at the end";
    std::vector<Any> dropped;
    Change([&](auto& v) {
      Drop(v, at, at + 1, &dropped);
      v.erase(v.begin() + at);
    });
  }
  void erase(iterator first, iterator last) {
    size_t a = Offset(first, "erase"), b = Offset(last, "erase");
    if (a > b) TVM_FFI_THROW(IndexError) << "List.erase: first is after last";
    std::vector<Any> dropped;
    Change([&](auto& v) {
      Drop(v, a, b, &dropped);
      v.erase(v.begin() + a, v.begin() + b);
    });
  }

  const ListObj* get() const { return obj(); }
  const ListObj* operator->() const { return obj(); }
  using ContainerType = ListObj;
  static constexpr bool _custom_type_traits = true;

 private:
  ListObj* obj() const { return static_cast<ListObj*>(data_.get()); }
  size_t Checked(int64_t i, const char* what) const {
    if (i < 0 || i >= static_cast<int64_t>(size())) {
      TVM_FFI_THROW(IndexError) << "List." << what << ": index " << i << " out of range for size "
                                << size();
    }
    return static_cast<size_t>(i);
  }
  size_t Offset(iterator pos, const char* what) const {
    std::ptrdiff_t at = pos.p_ - obj()->items.data();
    if (at < 0 || at > static_cast<std::ptrdiff_t>(size())) {
      TVM_FFI_THROW(IndexError) << "List." << what << ": iterator does not point into this List";
    }
    return static_cast<size_t>(at);
  }
  /*!
   * Moves items [a, b) into *out, leaving None behind. Removed items are released only after
   * the List is consistent again: releasing one can run code (a Python __del__) that reads or
   * changes this same List, which must not happen in the middle of a vector operation.
   */
  static void Drop(std::vector<Any>& v, size_t a, size_t b, std::vector<Any>* out) {
    out->reserve(b - a);
    for (size_t i = a; i < b; ++i) out->push_back(std::move(v[i]));
  }
  /*! Every change of length goes through here, so the C cell stays in step with items. */
  template <typename F>
  void Change(F&& f) {
    f(obj()->items);
    obj()->Sync();
  }
};

template <typename T>
struct TypeTraits<List<T>> : ObjectRefTraitsBase<List<T>> {
  static std::optional<List<T>> TryCastFromAnyView(const TVMFFIAny* v) {
    return details::SeqTryCast<List<T>, ListObj, T>(v, kTVMFFIList);
  }
  static std::string TypeStr() { return "List[" + TypeTraits<T>::TypeStr() + "]"; }
  static std::string TypeSchema() { return details::TypeSchemaGeneric<T>("ffi.List"); }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_LIST_H_
