// Map<K, V>: an insertion-ordered hash map of Any keys and values, copy-on-write.
#ifndef TVM_FFI_MAP_H_
#define TVM_FFI_MAP_H_

#include <tvm_ffi/any.h>
#include <tvm_ffi/any_hash.h>
#include <tvm_ffi/error.h>
#include <tvm_ffi/optional.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/*!
 * Entries in insertion order plus an open-addressing hash index into them: one flat table
 * of entry positions (linear probing, at most half full), so building a Map of n entries
 * costs two allocations rather than one per entry.
 */
class MapObj : public Object {
 public:
  std::vector<std::pair<Any, Any>> entries;

  MapObj() = default;
  MapObj(const MapObj& other)
      : Object(), entries(other.entries), slots_(other.slots_), shift_(other.shift_) {}

  /*! Read access as apache-tvm-ffi's MapObj gives it: size, and (key, value) pairs in insertion
   *  order. Iterators are invalidated by any change to the map. */
  using KVType = std::pair<Any, Any>;
  using const_iterator = std::vector<KVType>::const_iterator;
  size_t size() const { return entries.size(); }
  const_iterator begin() const { return entries.begin(); }
  const_iterator end() const { return entries.end(); }

  const Any* Find(const Any& key) const {
    if (slots_.empty()) return nullptr;
    size_t slot = Probe(key);
    return slots_[slot] == 0 ? nullptr : &entries[slots_[slot] - 1].second;
  }
  void Set(Any key, Any value) {
    if ((entries.size() + 1) * 2 > slots_.size()) Rehash((entries.size() + 1) * 2);
    size_t slot = Probe(key);
    if (slots_[slot] != 0) {
      entries[slots_[slot] - 1].second = std::move(value);
      return;
    }
    entries.emplace_back(std::move(key), std::move(value));
    slots_[slot] = entries.size();
  }
  void Reserve(size_t n) {
    entries.reserve(n);
    if (n * 2 > slots_.size()) Rehash(n * 2);
  }
  bool Erase(const Any& key) {
    size_t pos = slots_.empty() ? 0 : slots_[Probe(key)];
    if (pos == 0) return false;
    // Released when this returns, once entries and slots agree again: releasing the old key or
    // value can run code (a Python __del__) that reads or changes this same map.
    std::pair<Any, Any> dropped = std::move(entries[pos - 1]);
    entries.erase(entries.begin() + (pos - 1));
    Rehash(slots_.size());  // positions after the erased entry moved down by one
    return true;
  }
  /*! Drops every entry; the entries are released after the map is empty again. */
  void Clear() {
    std::vector<std::pair<Any, Any>> old;
    old.swap(entries);
    slots_.clear();
  }

 private:
  /*! The slot holding ``key``'s entry, or the empty slot where it would go. */
  size_t Probe(const Any& key) const {
    size_t mask = slots_.size() - 1;
    size_t slot = Home(key);
    while (slots_[slot] != 0 && !AnyEqual()(entries[slots_[slot] - 1].first, key))
      slot = (slot + 1) & mask;
    return slot;
  }
  /*! Where probing for ``key`` starts. Fibonacci hashing (the top bits of hash * 2^64/phi),
   * so that keys in arithmetic progressions (std::hash of an int is the int) spread out. */
  size_t Home(const Any& key) const {
    return static_cast<size_t>((static_cast<uint64_t>(AnyHash()(key)) * 0x9E3779B97F4A7C15ull) >>
                               shift_);
  }
  /*! A table of at least ``min_slots`` slots (a power of two) indexing every entry. */
  void Rehash(size_t min_slots) {
    size_t size = 8;
    int bits = 3;
    while (size < min_slots) {
      size <<= 1;
      ++bits;
    }
    slots_.assign(size, 0);
    shift_ = 64 - bits;
    size_t mask = size - 1;
    for (size_t i = 0; i < entries.size(); ++i) {
      size_t slot = Home(entries[i].first);
      while (slots_[slot] != 0) slot = (slot + 1) & mask;
      slots_[slot] = i + 1;
    }
  }

  std::vector<size_t> slots_;  // entry position + 1; 0: empty
  int shift_ = 61;             // 64 - log2(slots_.size())

 public:
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
    for (const auto& kv : get()->entries)
      f(kv.first.template cast<K>(), kv.second.template cast<V>());
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

namespace details {
/*!
 * The cast of a Map or Dict value to MapRef (Map<K, V> or Dict<K, V>), as apache-tvm-ffi does:
 * the object itself when its type index is `primary`, else a new MapObjT with the same entries.
 */
template <typename MapRef, typename MapObjT, typename K, typename V>
std::optional<MapRef> MapTryCast(const TVMFFIAny* v, int32_t primary) {
  if (v->type_index != kTVMFFIMap && v->type_index != kTVMFFIDict) return std::nullopt;
  auto ptr = ObjectUnsafe::FromBorrowedHeader<Object>(v->v_obj);
  const MapObj* map = static_cast<const MapObj*>(ptr.get());
  if constexpr (!std::is_same_v<K, Any> || !std::is_same_v<V, Any>) {
    for (const auto& kv : map->entries) {
      if (!kv.first.template try_cast<K>().has_value()) return std::nullopt;
      if (!kv.second.template try_cast<V>().has_value()) return std::nullopt;
    }
  }
  if (v->type_index == primary) return ObjectRefAccess::FromPtr<MapRef>(std::move(ptr));
  ObjectPtr<MapObjT> copy = make_object<MapObjT>();
  copy->Reserve(map->entries.size());
  for (const auto& kv : map->entries) copy->Set(kv.first, kv.second);
  return MapRef(ObjectPtr<Object>(std::move(copy)));
}
}  // namespace details

template <typename K, typename V>
struct TypeTraits<Map<K, V>> : ObjectRefTraitsBase<Map<K, V>> {
  static std::optional<Map<K, V>> TryCastFromAnyView(const TVMFFIAny* v) {
    return details::MapTryCast<Map<K, V>, MapObj, K, V>(v, kTVMFFIMap);
  }
  static std::string TypeStr() {
    return "Map[" + TypeTraits<K>::TypeStr() + ", " + TypeTraits<V>::TypeStr() + "]";
  }
  static std::string TypeSchema() { return details::TypeSchemaGeneric<K, V>("ffi.Map"); }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_MAP_H_
