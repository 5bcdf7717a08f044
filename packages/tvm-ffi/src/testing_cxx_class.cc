// testing.TestCxxClassBase / TestCxxClassDerived / TestCxxClassDerivedDerived: a three-level
// hierarchy of writable POD and string fields (tvm_ffi.testing._TestCxxClass*).
#include <tvm_ffi/ffi.h>

namespace tvm {
namespace ffi {
namespace {

class TestCxxClassBase : public Object {
 public:
  int64_t v_i64 = 0;
  int32_t v_i32 = 0;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassBase", TestCxxClassBase, Object);
};

class TestCxxClassDerived : public TestCxxClassBase {
 public:
  double v_f64 = 0.0;
  float v_f32 = 0.0f;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassDerived", TestCxxClassDerived, TestCxxClassBase);
};

class TestCxxClassDerivedDerived : public TestCxxClassDerived {
 public:
  String v_str;
  bool v_bool = false;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassDerivedDerived", TestCxxClassDerivedDerived,
                              TestCxxClassDerived);
};

TVM_FFI_STATIC_INIT_BLOCK({
  namespace refl = reflection;
  // The constructors take every field in declaration order (ancestors first); the Python
  // classes put the fields with defaults (v_f32 = 8.0, v_str = "default") last.
  refl::ObjectDef<TestCxxClassBase>()
      .def_rw("v_i64", &TestCxxClassBase::v_i64, refl::repr(false))
      .def_rw("v_i32", &TestCxxClassBase::v_i32, refl::repr(false))
      .def_static("__ffi_init__", [](int64_t v_i64, int32_t v_i32) {
        auto obj = make_object<TestCxxClassBase>();
        obj->v_i64 = v_i64;
        obj->v_i32 = v_i32;
        return ObjectRef(std::move(obj));
      });
  refl::ObjectDef<TestCxxClassDerived>()
      .def_rw("v_f64", &TestCxxClassDerived::v_f64)
      .def_rw("v_f32", &TestCxxClassDerived::v_f32)
      .def_static("__ffi_init__", [](int64_t v_i64, int32_t v_i32, double v_f64, double v_f32) {
        auto obj = make_object<TestCxxClassDerived>();
        obj->v_i64 = v_i64;
        obj->v_i32 = v_i32;
        obj->v_f64 = v_f64;
        obj->v_f32 = static_cast<float>(v_f32);
        return ObjectRef(std::move(obj));
      });
  refl::ObjectDef<TestCxxClassDerivedDerived>()
      .def_rw("v_str", &TestCxxClassDerivedDerived::v_str)
      .def_rw("v_bool", &TestCxxClassDerivedDerived::v_bool)
      .def_static("__ffi_init__", [](int64_t v_i64, int32_t v_i32, double v_f64, double v_f32,
                                     String v_str, bool v_bool) {
        auto obj = make_object<TestCxxClassDerivedDerived>();
        obj->v_i64 = v_i64;
        obj->v_i32 = v_i32;
        obj->v_f64 = v_f64;
        obj->v_f32 = static_cast<float>(v_f32);
        obj->v_str = std::move(v_str);
        obj->v_bool = v_bool;
        return ObjectRef(std::move(obj));
      });
});

}  // namespace
}  // namespace ffi
}  // namespace tvm
