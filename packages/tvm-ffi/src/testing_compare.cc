// testing.TestCompare / testing.TestHash: test types with per-field compare / hash flags.
#include <tvm_ffi/ffi.h>

namespace tvm {
namespace ffi {
namespace {

/*! ignored_field is left out of the field-wise == (and so of the hash), as upstream's. */
class TestCompareObj : public Object {
 public:
  int64_t key;
  String name;
  int64_t ignored_field;
  TestCompareObj(int64_t key, String name, int64_t ignored_field)
      : key(key), name(std::move(name)), ignored_field(ignored_field) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCompare", TestCompareObj, Object);
};

/*! hash_ignored is compared but left out of the field-wise hash, as upstream's. */
class TestHashObj : public Object {
 public:
  int64_t key;
  String name;
  int64_t hash_ignored;
  TestHashObj(int64_t key, String name, int64_t hash_ignored)
      : key(key), name(std::move(name)), hash_ignored(hash_ignored) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestHash", TestHashObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK({
  namespace refl = reflection;
  refl::ObjectDef<TestCompareObj>()
      .def(refl::init<int64_t, String, int64_t>())
      .def_ro("key", &TestCompareObj::key)
      .def_ro("name", &TestCompareObj::name)
      .def_ro("ignored_field", &TestCompareObj::ignored_field, refl::compare(false));
  refl::ObjectDef<TestHashObj>()
      .def(refl::init<int64_t, String, int64_t>())
      .def_ro("key", &TestHashObj::key)
      .def_ro("name", &TestHashObj::name)
      .def_ro("hash_ignored", &TestHashObj::hash_ignored, refl::hash(false));
});

}  // namespace
}  // namespace ffi
}  // namespace tvm
