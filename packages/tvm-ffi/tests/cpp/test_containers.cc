// Array copy-on-write, typed arrays, Map insertion order and erase, Shape.
#include <tvm_ffi/ffi.h>

#include "test_assertions.h"

using namespace tvm::ffi;  // NOLINT

int main() {
  // Array: copies share until one side writes.
  Array<int64_t> a{1, 2, 3};
  Array<int64_t> b = a;
  CHECK(a.same_as(b));
  b.push_back(4);
  CHECK(!a.same_as(b));
  CHECK_EQ(a.size(), 3u);
  CHECK_EQ(b.size(), 4u);
  CHECK_EQ(b[3], 4);
  const ArrayObj* before = b.get();
  b.Set(0, 10);  // unique owner: written in place
  CHECK(b.get() == before);
  CHECK_EQ(b[0], 10);
  CHECK_EQ(a[0], 1);
  CHECK_THROWS(a[3], "IndexError", "3");
  CHECK_THROWS(a.Set(-1, 0), "IndexError", "-1");
  int64_t sum = 0;
  for (int64_t v : a) sum += v;
  CHECK_EQ(sum, 6);
  // The ABI cell follows the items.
  const TVMFFISeqCell* cell =
      TVMFFIArrayGetCell(const_cast<TVMFFIObject*>(reinterpret_cast<const TVMFFIObject*>(b.get())));
  CHECK_EQ(cell->size, 4);
  CHECK_EQ(cell->data[3].v_int64, 4);

  // Typed casts check every element.
  Array<Any> mixed{Any(int64_t(1)), Any(String("a long string value"))};
  Any mixed_any = mixed;
  CHECK(!mixed_any.try_cast<Array<int64_t>>().has_value());
  CHECK(Any(a).try_cast<Array<int64_t>>().has_value());
  CHECK_EQ(mixed[1].cast<std::string>(), "a long string value");

  // Map: insertion order, overwrite in place, erase keeps order.
  Map<String, int64_t> m;
  m.Set("zeta", 1);
  m.Set("alpha", 2);
  m.Set("mid", 3);
  m.Set("zeta", 10);
  CHECK_EQ(m.size(), 3u);
  auto items = m.items();
  CHECK_EQ(items[0].first.view(), "zeta");
  CHECK_EQ(items[0].second, 10);
  CHECK_EQ(items[1].first.view(), "alpha");
  CHECK_EQ(items[2].first.view(), "mid");
  Map<String, int64_t> copy = m;
  CHECK(m.erase("alpha"));
  CHECK(!m.erase("alpha"));
  CHECK_EQ(copy.size(), 3u);  // copy-on-write
  items = m.items();
  CHECK_EQ(items.size(), 2u);
  CHECK_EQ(items[1].first.view(), "mid");
  CHECK_EQ(m.at("mid"), 3);
  CHECK(!m.Get("alpha").has_value());
  CHECK_THROWS(m.at("alpha"), "KeyError", "");
  CHECK(m.count("zeta"));
  // Keys compare by value across small and large strings.
  Map<Any, Any> any_map;
  any_map.Set(String("a key longer than seven"), int64_t(1));
  CHECK(any_map.count(std::string("a key longer than seven")));
  any_map.Set(int64_t(5), String("five"));
  CHECK_EQ(any_map.at(int64_t(5)).cast<std::string>(), "five");

  // Shape.
  Shape s{2, 3, 4};
  CHECK_EQ(s.size(), 3u);
  CHECK_EQ(s[1], 3);
  CHECK_EQ(s.Product(), 24);
  CHECK_THROWS(s[3], "IndexError", "3");
  Any s_any = s;
  CHECK_EQ(s_any.type_index(), kTVMFFIShape);
  // A Shape also accepts an Array of ints.
  Shape from_array = Any(Array<int64_t>{5, 6}).cast<Shape>();
  CHECK_EQ(from_array.ToVector(), (std::vector<int64_t>{5, 6}));
  CHECK(!Any(mixed).try_cast<Shape>().has_value());
  // Map keys: numbers as numbers, Arrays by their elements, Functions by what they call.
  Map<Any, Any> keys;
  keys.Set(int64_t(1), String("one"));
  keys.Set(0.0, String("zero"));
  keys.Set(Array<Any>{int64_t(1), String("x")}, String("tuple"));
  CHECK(keys.count(1.0) && keys.count(true) && keys.count(-0.0) && keys.count(int64_t(0)));
  CHECK(!keys.count(1.5) && !keys.count(int64_t(2)));
  CHECK(keys.count(Array<Any>{1.0, String("x")}) && !keys.count(Array<Any>{int64_t(1)}));
  keys.Set(1.0, String("still one"));
  CHECK_EQ(keys.size(), size_t(3));
  Function f = Function::FromPacked([](PackedArgs, Any*) {});
  keys.Set(f, String("f"));
  Function same =
      Function::FromCSafeCall(f->cell.self, f->cell.safe_call, nullptr);  // wraps f's call
  CHECK(keys.count(same) && !keys.count(Function::FromPacked([](PackedArgs, Any*) {})));
  // Map's hash index: keys that share low bits (multiples of 1024, negatives), growth from
  // empty and from Reserve, overwrite, and erase (which renumbers the entries after it).
  Map<int64_t, int64_t> big;
  for (int64_t i = -500; i < 1500; ++i) big.Set(i * 1024, i);
  CHECK_EQ(big.size(), size_t(2000));
  bool all_found = true;
  for (int64_t i = -500; i < 1500; ++i) all_found = all_found && big.at(i * 1024) == i;
  CHECK(all_found);
  CHECK(!big.count(1) && !big.count(1500 * 1024) && !big.count(-501 * 1024));
  big.Set(0, -1);
  CHECK_EQ(big.size(), size_t(2000));
  CHECK_EQ(big.at(0), -1);
  CHECK(big.erase(-500 * 1024) && big.erase(700 * 1024) && !big.erase(700 * 1024));
  all_found = big.size() == 1998 && !big.count(700 * 1024);
  for (int64_t i = -499; i < 1500; ++i) all_found = all_found && (i == 700 || big.count(i * 1024));
  CHECK(all_found);
  CHECK_EQ(big.items().front().first, -499 * 1024);  // erase kept the insertion order
  MapObj reserved;
  reserved.Reserve(100);
  for (int64_t i = 0; i < 300; ++i) reserved.Set(Any(String("key" + std::to_string(i))), Any(i));
  CHECK(reserved.Find(Any(String("key299"))) && reserved.Find(Any(String("key0"))));
  CHECK(reserved.Find(Any(String("key300"))) == nullptr);
  return check::Report("containers");
}
