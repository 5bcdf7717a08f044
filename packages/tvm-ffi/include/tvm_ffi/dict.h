// Dict<K, V>: an insertion-ordered mutable mapping shared by every reference (ffi.Dict).
#ifndef TVM_FFI_DICT_H_
#define TVM_FFI_DICT_H_

#include <tvm_ffi/map.h>

#include <initializer_list>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/*!
 * A handle on one DictObj: copies share it, and a change through any of them (or across
 * the FFI) is seen by all. A Map passed where a Dict<K, V> is expected becomes a new Dict
 * with the same entries, as apache-tvm-ffi does.
 */
template <typename K = Any, typename V = Any>
class Dict : public ObjectRef {
 public:
  Dict() : ObjectRef(make_object<DictObj>()) {}
  explicit Dict(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  Dict(std::initializer_list<std::pair<K, V>> init) : Dict() {
    for (auto& kv : init) Set(kv.first, kv.second);
  }
  template <typename H, typename E>
  Dict(const std::unordered_map<K, V, H, E>& init) : Dict() {  // NOLINT
    for (auto& kv : init) Set(kv.first, kv.second);
  }
  template <typename It>
  Dict(It begin, It end) : Dict() {
    for (; begin != end; ++begin) Set(begin->first, begin->second);
  }

  size_t size() const { return obj()->entries.size(); }
  bool empty() const { return size() == 0; }
  size_t count(const K& key) const { return obj()->Find(Any(key)) != nullptr ? 1 : 0; }
  Optional<V> Get(const K& key) const {
    const Any* v = obj()->Find(Any(key));
    if (v == nullptr) return std::nullopt;
    return v->template cast<V>();
  }
  V at(const K& key) const {
    const Any* v = obj()->Find(Any(key));
    if (v == nullptr) TVM_FFI_THROW(KeyError) << "Dict.at: key not in Dict";
    return v->template cast<V>();
  }
  V operator[](const K& key) const { return at(key); }
  void Set(const K& key, const V& value) { obj()->Set(Any(key), Any(value)); }
  /*! Removes `key` if present (no error when absent, as apache-tvm-ffi's Dict::erase). */
  void erase(const K& key) { obj()->Erase(Any(key)); }
  void clear() { obj()->Clear(); }

  /*! Calls f(key, value) for each entry in insertion order, on a snapshot of the entries. */
  template <typename F>
  void ForEach(F&& f) const {
    for (const auto& kv : items()) f(kv.first, kv.second);
  }
  std::vector<std::pair<K, V>> items() const {
    std::vector<std::pair<K, V>> out;
    out.reserve(size());
    for (const auto& kv : obj()->entries) {
      out.emplace_back(kv.first.template cast<K>(), kv.second.template cast<V>());
    }
    return out;
  }

  const DictObj* get() const { return obj(); }
  const DictObj* operator->() const { return obj(); }
  using ContainerType = DictObj;
  static constexpr bool _custom_type_traits = true;

 private:
  DictObj* obj() const { return static_cast<DictObj*>(data_.get()); }
};

template <typename K, typename V>
struct TypeTraits<Dict<K, V>> : ObjectRefTraitsBase<Dict<K, V>> {
  static std::optional<Dict<K, V>> TryCastFromAnyView(const TVMFFIAny* v) {
    return details::MapTryCast<Dict<K, V>, DictObj, K, V>(v, kTVMFFIDict);
  }
  static std::string TypeStr() {
    return "Dict[" + TypeTraits<K>::TypeStr() + ", " + TypeTraits<V>::TypeStr() + "]";
  }
  static std::string TypeSchema() { return details::TypeSchemaGeneric<K, V>("ffi.Dict"); }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_DICT_H_
