// Map<K, V>: an insertion-ordered hash map of Any keys and values, copy-on-write.
#ifndef TVM_FFI_MAP_H_
#define TVM_FFI_MAP_H_

#include <tvm_ffi/any.h>
#include <tvm_ffi/any_hash.h>
#include <tvm_ffi/error.h>
#include <tvm_ffi/optional.h>

#include <unordered_map>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/*! Entries in insertion order plus a hash index into them. */
class MapObj : public Object {
 public:
  std::vector<std::pair<Any, Any>> entries;
  std::unordered_map<Any, size_t, AnyHash, AnyEqual> index;

  MapObj() = default;
  MapObj(const MapObj& other) : Object(), entries(other.entries), index(other.index) {}

  const Any* Find(const Any& key) const {
    auto it = index.find(key);
    return it == index.end() ? nullptr : &entries[it->second].second;
  }
  void Set(Any key, Any value) {
    auto [it, inserted] = index.try_emplace(key, entries.size());
    if (!inserted) {
      entries[it->second].second = std::move(value);
      return;
    }
    entries.emplace_back(std::move(key), std::move(value));
  }
  void Reserve(size_t n) {
    entries.reserve(n);
    index.reserve(n);
  }
  bool Erase(const Any& key) {
    auto it = index.find(key);
    if (it == index.end()) return false;
    size_t pos = it->second;
    entries.erase(entries.begin() + pos);
    index.erase(it);
    for (auto& kv : index) {
      if (kv.second > pos) --kv.second;
    }
    return true;
  }
  TVM_FFI_DECLARE_STATIC_OBJECT_INFO("ffi.Map", MapObj, Object, kTVMFFIMap);
};

/*! ffi.Dict: a mutable mapping shared by every reference (no copy-on-write). */
class DictObj : public MapObj {
 public:
  using MapObj::MapObj;
  TVM_FFI_DECLARE_STATIC_OBJECT_INFO("ffi.Dict", DictObj, Object, kTVMFFIDict);
};

template <typename K = Any, typename V = Any>
class Map : public ObjectRef {
 public:
  Map() : ObjectRef(make_object<MapObj>()) {}
  explicit Map(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  Map(std::initializer_list<std::pair<K, V>> init) : Map() {
    for (auto& kv : init) Set(kv.first, kv.second);
  }

  size_t size() const { return get()->entries.size(); }
  bool empty() const { return size() == 0; }
  bool count(const K& key) const { return get()->Find(Any(key)) != nullptr; }
  Optional<V> Get(const K& key) const {
    const Any* v = get()->Find(Any(key));
    if (v == nullptr) return std::nullopt;
    return v->template cast<V>();
  }
  V at(const K& key) const {
    const Any* v = get()->Find(Any(key));
    if (v == nullptr) TVM_FFI_THROW(KeyError) << "key not in Map";
    return v->template cast<V>();
  }
  V operator[](const K& key) const { return at(key); }
  void Set(const K& key, const V& value) { CopyOnWrite()->Set(Any(key), Any(value)); }
  bool erase(const K& key) { return CopyOnWrite()->Erase(Any(key)); }
  MapObj* CopyOnWrite() {
    if (data_.use_count() != 1) data_ = make_object<MapObj>(*get());
    return static_cast<MapObj*>(data_.get());
  }
  /*! Calls f(key, value) for each entry in insertion order. */
  template <typename F>
  void ForEach(F&& f) const {
    for (const auto& kv : get()->entries) f(kv.first.template cast<K>(), kv.second.template cast<V>());
  }
  std::vector<std::pair<K, V>> items() const {
    std::vector<std::pair<K, V>> out;
    ForEach([&](K k, V v) { out.emplace_back(std::move(k), std::move(v)); });
    return out;
  }

  const MapObj* get() const { return static_cast<const MapObj*>(data_.get()); }
  const MapObj* operator->() const { return get(); }
  using ContainerType = MapObj;
  static constexpr bool _custom_type_traits = true;
};

template <typename K, typename V>
struct TypeTraits<Map<K, V>> : ObjectRefTraitsBase<Map<K, V>> {
  static std::optional<Map<K, V>> TryCastFromAnyView(const TVMFFIAny* v) {
    if (v->type_index != kTVMFFIMap) return std::nullopt;
    auto ptr = details::ObjectUnsafe::FromBorrowedHeader<Object>(v->v_obj);
    if constexpr (!std::is_same_v<K, Any> || !std::is_same_v<V, Any>) {
      for (const auto& kv : static_cast<const MapObj*>(ptr.get())->entries) {
        if (!kv.first.template try_cast<K>().has_value()) return std::nullopt;
        if (!kv.second.template try_cast<V>().has_value()) return std::nullopt;
      }
    }
    return ObjectRefAccess::FromPtr<Map<K, V>>(std::move(ptr));
  }
  static std::string TypeStr() {
    return "Map[" + TypeTraits<K>::TypeStr() + ", " + TypeTraits<V>::TypeStr() + "]";
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_MAP_H_
