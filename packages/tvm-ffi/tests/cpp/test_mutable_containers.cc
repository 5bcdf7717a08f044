// List<T> and Dict<K, V>: shared in place, and converted to and from Array / Map by copy.
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm_ffi/ffi.h>

#include <memory>

#include "test_assertions.h"

using namespace tvm::ffi;  // NOLINT

namespace {
/*! Appends `n` ints to *target when the last copy dies: a release that re-enters a List. */
struct GrowOnRelease {
  List<Any>* target;
  int n;
  ~GrowOnRelease() {
    for (int i = 0; i < n; ++i) target->push_back(Any(int64_t(i)));
  }
};

/*! A Function whose release appends `n` ints to *target. */
Function Grower(List<Any>* target, int n) {
  std::shared_ptr<GrowOnRelease> grow(new GrowOnRelease{target, n});  // no temporary to destroy
  return Function::FromPacked([grow](PackedArgs, Any*) {});
}

/*! Each removal releases an item that grows the List: the List stays whole throughout. */
void CheckReleasesReenterSafely() {
  List<Any> l;
  l.push_back(Any(Grower(&l, 1000)));
  l.push_back(Any(int64_t(7)));
  l.erase(l.begin());  // the Function dies after the erase, appending 1000 ints
  CHECK_EQ(l.size(), 1001u);
  CHECK_EQ(l[0].cast<int64_t>(), 7);
  l.clear();
  l.push_back(Any(Grower(&l, 500)));
  l.pop_back();
  CHECK_EQ(l.size(), 500u);
  l.push_back(Any(Grower(&l, 300)));
  l.resize(500);
  CHECK_EQ(l.size(), 800u);
  l.clear();
  for (int i = 0; i < 3; ++i) l.push_back(Any(Grower(&l, 100)));
  l.erase(l.begin(), l.end());
  CHECK_EQ(l.size(), 300u);
}
}  // namespace

int main() {
  // List: every copy is the same object, changed in place.
  List<int64_t> l{1, 2, 3};
  List<int64_t> alias = l;
  alias.push_back(4);
  CHECK(l.same_as(alias));
  CHECK_EQ(l.size(), 4u);
  CHECK_EQ(l[3], 4);
  l.Set(0, 10);
  CHECK_EQ(alias[0], 10);
  l.insert(l.begin() + 1, 7);
  CHECK_EQ(l[1], 7);
  CHECK_EQ(l.size(), 5u);
  l.erase(l.begin());
  CHECK_EQ(l.front(), 7);
  l.pop_back();
  CHECK_EQ(l.back(), 3);
  std::vector<int64_t> more{8, 9};
  l.insert(l.end(), more.begin(), more.end());
  CHECK_EQ(l.size(), 5u);
  l.erase(l.begin() + 1, l.begin() + 3);  // drops 2 and 3
  int64_t sum = 0;
  for (int64_t v : l) sum += v;
  CHECK_EQ(sum, 7 + 8 + 9);
  l.resize(5);
  List<Any> grown = Any(l).cast<List<Any>>();  // the same object, read untyped
  CHECK(grown.same_as(l));
  CHECK_EQ(grown[4].type_index(), kTVMFFINone);  // resize fills with None
  l.resize(3);
  CHECK_THROWS(l[3], "IndexError", "3");
  CHECK_THROWS(l.Set(-1, 0), "IndexError", "-1");
  CHECK_THROWS(l.resize(-1), "ValueError", "-1");
  CHECK_THROWS(l.erase(l.end()), "IndexError", "end");
  List<int64_t> other{1};
  CHECK_THROWS(l.insert(other.begin(), 1), "IndexError", "this List");
  l.clear();
  CHECK(l.empty() && alias.empty());
  CHECK_THROWS(l.pop_back(), "IndexError", "empty");
  List<String> repeated(3, String("x"));
  CHECK_EQ(repeated.size(), 3u);
  CHECK_EQ(repeated[2].view(), "x");
  // The ABI cell follows every change of length.
  List<int64_t> cells{5, 6};
  cells.push_back(7);
  const TVMFFISeqCell* cell = TVMFFIArrayGetCell(
      const_cast<TVMFFIObject*>(reinterpret_cast<const TVMFFIObject*>(cells.get())));
  CHECK_EQ(cell->size, 3);
  CHECK_EQ(cell->data[2].v_int64, 7);

  // List <-> Array: a List read as an Array (and back) is a copy; a List stays shared.
  Any as_any = cells;
  CHECK_EQ(as_any.type_index(), kTVMFFIList);
  List<int64_t> same = as_any.cast<List<int64_t>>();
  CHECK(same.same_as(cells));
  Array<int64_t> snapshot = as_any.cast<Array<int64_t>>();
  CHECK(!snapshot.same_as(cells));
  cells.push_back(8);
  CHECK_EQ(snapshot.size(), 3u);
  List<int64_t> from_array = Any(Array<int64_t>{1, 2}).cast<List<int64_t>>();
  from_array.push_back(3);
  CHECK_EQ(from_array.size(), 3u);
  CHECK(!Any(List<Any>{Any(String("a"))}).try_cast<List<int64_t>>().has_value());
  CHECK(!Any(List<Any>{Any(String("a"))}).try_cast<Array<int64_t>>().has_value());
  CHECK(!Any(int64_t(1)).try_cast<List<int64_t>>().has_value());
  CHECK_EQ(TypeTraits<List<int64_t>>::TypeStr(), "List[int]");

  // Dict: shared in place, insertion order kept, erase of a missing key is a no-op.
  Dict<String, int64_t> d{{"b", 1}, {"a", 2}};
  Dict<String, int64_t> d_alias = d;
  d_alias.Set("c", 3);
  CHECK(d.same_as(d_alias));
  CHECK_EQ(d.size(), 3u);
  CHECK_EQ(d.at("c"), 3);
  CHECK_EQ(d.items()[0].first.view(), "b");
  CHECK(d.count("a") == 1 && d.count("z") == 0);
  CHECK(!d.Get("z").has_value());
  CHECK_THROWS(d.at("z"), "KeyError", "");
  d.erase("a");
  d.erase("a");
  CHECK_EQ(d.size(), 2u);
  Map<String, int64_t> frozen = Any(d).cast<Map<String, int64_t>>();
  d.Set("d", 4);
  CHECK_EQ(frozen.size(), 2u);
  CHECK_EQ(d_alias.size(), 3u);
  Dict<String, int64_t> from_map = Any(frozen).cast<Dict<String, int64_t>>();
  from_map.Set("e", 5);
  CHECK_EQ(frozen.size(), 2u);
  using StrIntDict = Dict<String, int64_t>;
  CHECK(Any(d).cast<StrIntDict>().same_as(d));
  using IntIntDict = Dict<int64_t, int64_t>;
  CHECK(!Any(d).try_cast<IntIntDict>().has_value());
  std::unordered_map<std::string, int64_t> std_map{{"k", 1}};
  Dict<std::string, int64_t> from_std(std_map);
  CHECK_EQ(from_std.at("k"), 1);
  d.clear();
  CHECK(d_alias.empty());
  CheckReleasesReenterSafely();
  return check::Report("mutable_containers");
}
