// The tvm_ffi.testing globals and the reflected test object, used by tests and benchmarks.
#include <tvm_ffi/ffi.h>

#include <chrono>
#include <thread>

namespace tvm {
namespace ffi {
namespace {

class TestObjectBase : public Object {
 public:
  int64_t v_i64 = 0;
  double v_f64 = 0.0;
  String v_str;

  TestObjectBase() = default;
  int64_t AddI64(int64_t other) const { return v_i64 + other; }

  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestObjectBase", TestObjectBase, Object);
};

// v_map comes before v_array, in memory and in reflection order, as in apache-tvm-ffi.
class TestObjectDerived : public TestObjectBase {
 public:
  Map<Any, Any> v_map;
  Array<Any> v_array;
  TestObjectDerived() = default;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestObjectDerived", TestObjectDerived, TestObjectBase);
};

// The field traits of the generated __ffi_init__: `kw` only by name (default 5), `skipped` not
// at all (it keeps the constructor's "ctor").
class TestAutoInitTraits : public Object {
 public:
  int64_t required = 0;
  int64_t kw = 0;
  String skipped = "ctor";
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestAutoInitTraits", TestAutoInitTraits, Object);
};

// Default-constructible, but ObjectDef(init(false)) turns the generated __ffi_init__ off.
class TestNoAutoInit : public Object {
 public:
  int64_t value = 3;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestNoAutoInit", TestNoAutoInit, Object);
};

class TestNonCopyable : public Object {
 public:
  int64_t value;
  explicit TestNonCopyable(int64_t value) : value(value) {}
  TestNonCopyable(const TestNonCopyable&) = delete;
  TestNonCopyable& operator=(const TestNonCopyable&) = delete;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestNonCopyable", TestNonCopyable, Object);
};

[[noreturn]] void RaiseError(const std::string& kind, const std::string& message) {
  details::ErrorBuilder(kind.c_str(), __FILE__, __LINE__, __func__).stream() << message;
  throw;  // unreachable
}

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef()
      .def_packed("testing.nop", [](PackedArgs, Any*) {})
      .def_packed("testing.echo",
                  [](PackedArgs args, Any* rv) {
                    if (args.size() != 1) {
                      TVM_FFI_THROW(TypeError)
                          << "testing.echo: expects 1 argument, got " << args.size();
                    }
                    *rv = args[0];
                  })
      .def_packed("testing.apply",
                  [](PackedArgs args, Any* rv) {
                    if (args.size() < 1)
                      TVM_FFI_THROW(TypeError) << "testing.apply: expects a function";
                    Function f = args[0].cast<Function>();
                    f.CallPacked(args.data() + 1, args.size() - 1, rv);
                  })
      .def("testing.add_one", [](int64_t x) { return x + 1; })
      // Narrow parameters: an int outside their range must raise, never truncate.
      .def("testing.add_one_i32", [](int32_t x) { return static_cast<int64_t>(x) + 1; })
      .def("testing.id_u8", [](uint8_t x) { return x; })
      .def("testing.test_raise_error", RaiseError)
      .def("testing.object_use_count",
           [](ObjectRef obj) { return static_cast<int64_t>(obj.use_count()) - 1; })
      .def("testing.sleep_ms",
           [](int64_t ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); })
      .def("testing.call_n_times",
           [](Function f, int64_t n) {
             for (int64_t i = 0; i < n; ++i) f();
           })
      .def("testing.make_nested", [](int64_t n) {
        Map<Any, Any> m;
        m.Set(String("ints"), Array<Any>{Any(1), Any(2), Any(n)});
        m.Set(String("name"), String("nested"));
        return m;
      });
  // No constructor is given: both types get the one made from their fields (apache-tvm-ffi's
  // signatures: TestObjectBase(v_i64=10, v_f64=10.0, v_str="hello"),
  // TestObjectDerived(v_map, v_array, v_i64=10, v_f64=10.0, v_str="hello")).
  reflection::ObjectDef<TestObjectBase>()
      .def_rw("v_i64", &TestObjectBase::v_i64, reflection::default_value(10), "i64 field")
      .def_ro("v_f64", &TestObjectBase::v_f64, reflection::default_value(10.0))
      .def_rw("v_str", &TestObjectBase::v_str, reflection::default_value("hello"))
      .def("add_i64", &TestObjectBase::AddI64, "add_i64 method");
  reflection::ObjectDef<TestAutoInitTraits>()
      .def_ro("required", &TestAutoInitTraits::required)
      .def_ro("kw", &TestAutoInitTraits::kw, reflection::default_value(5),
              reflection::kw_only(true))
      .def_ro("skipped", &TestAutoInitTraits::skipped, reflection::init(false));
  reflection::ObjectDef<TestNoAutoInit>(reflection::init(false))
      .def_ro("value", &TestNoAutoInit::value);
  reflection::ObjectDef<TestNonCopyable>()
      .def(reflection::init<int64_t>())
      .def_ro("value", &TestNonCopyable::value);
  reflection::ObjectDef<TestObjectDerived>()
      .def_rw("v_map", &TestObjectDerived::v_map)
      .def_rw("v_array", &TestObjectDerived::v_array);
});

}  // namespace
}  // namespace ffi
}  // namespace tvm
