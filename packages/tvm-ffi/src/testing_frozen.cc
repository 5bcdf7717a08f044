// testing.TestFrozenCxx: a C++ type with writable fields that tvm_ffi.testing views frozen.
#include <tvm_ffi/ffi.h>

namespace tvm {
namespace ffi {
namespace {

class TestFrozenCxxObj : public Object {
 public:
  int64_t value;
  String tag;
  TestFrozenCxxObj(int64_t value, String tag) : value(value), tag(std::move(tag)) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestFrozenCxx", TestFrozenCxxObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::ObjectDef<TestFrozenCxxObj>()
      .def(reflection::init<int64_t, String>())
      .def_rw("value", &TestFrozenCxxObj::value)
      .def_rw("tag", &TestFrozenCxxObj::tag);
});

}  // namespace
}  // namespace ffi
}  // namespace tvm
