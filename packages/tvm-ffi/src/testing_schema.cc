// The testing.* globals apache-tvm-ffi's tests call by name: typed identities, containers
// holding tensors, testing.TestIntPair, an object type Python never registers, a C symbol.
#include <tvm_ffi/ffi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>

namespace tvm {
namespace ffi {
namespace {

class TestIntPairObj : public Object {
 public:
  int64_t a;
  int64_t b;
  TestIntPairObj(int64_t a, int64_t b) : a(a), b(b) {}
  int64_t Sum() const { return a + b; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestIntPair", TestIntPairObj, Object);
};

class TestIntPair : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS(TestIntPair, ObjectRef, TestIntPairObj);
};

// Registered in C++ only: Python sees it through its nearest registered ancestor.
class TestUnregisteredBaseObject : public Object {
 public:
  int64_t v1;
  explicit TestUnregisteredBaseObject(int64_t v1) : v1(v1) {}
  int64_t GetV1PlusOne() const { return v1 + 1; }
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestUnregisteredBaseObject", TestUnregisteredBaseObject,
                              Object);
};

class TestUnregisteredObject : public TestUnregisteredBaseObject {
 public:
  int64_t v2;
  TestUnregisteredObject(int64_t v1, int64_t v2) : TestUnregisteredBaseObject(v1), v2(v2) {}
  int64_t GetV2PlusTwo() const { return v2 + 2; }
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestUnregisteredObject", TestUnregisteredObject,
                              TestUnregisteredBaseObject);
};

/*! A raw C function with the calling convention: adds one to its int argument. */
int AddOneCSymbol(void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (num_args != 1) {
    TVM_FFI_THROW(TypeError) << "add_one: expects 1 argument, got " << num_args;
  }
  std::optional<int64_t> x = reinterpret_cast<const AnyView*>(args)->try_cast<int64_t>();
  if (!x.has_value()) {
    TVM_FFI_THROW(TypeError) << "add_one: argument #0 must be an int, got `"
                             << reinterpret_cast<const AnyView*>(args)->GetTypeKey() << "`";
  }
  Any(*x + 1).MoveToTVMFFIAny(result);
  TVM_FFI_SAFE_CALL_END();
}

/*! The same through MLIR's packed convention: one array of pointers to (self, args, n, rv, rc). */
void MlirAddOneCSymbol(void** packed) {
  void* self = *static_cast<void**>(packed[0]);
  const TVMFFIAny* args = *static_cast<const TVMFFIAny**>(packed[1]);
  int32_t num_args = *static_cast<int32_t*>(packed[2]);
  TVMFFIAny* result = *static_cast<TVMFFIAny**>(packed[3]);
  *static_cast<int*>(packed[4]) = AddOneCSymbol(self, args, num_args, result);
}

/*! `value` itself when it is an int, a str, or (with `allow_int_array`) an Array of ints. */
Any CheckVariant(const char* func, Any value, bool allow_int_array) {
  int32_t t = value.type_index();
  if (t == kTVMFFIInt || t == kTVMFFIStr || t == kTVMFFISmallStr) return value;
  if (allow_int_array && value.try_cast<Array<int64_t>>().has_value()) return value;
  TVM_FFI_THROW(TypeError) << func << ": argument #0 must be int | str"
                           << (allow_int_array ? " | Array[int]" : "") << ", got `"
                           << value.GetTypeKey() << "`";
}

template <typename T>
T Identity(T value) {
  return value;
}

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::ObjectDef<TestIntPairObj>()
      .def(reflection::init<int64_t, int64_t>())
      .def_ro("a", &TestIntPairObj::a)
      .def_ro("b", &TestIntPairObj::b)
      .def("sum", &TestIntPairObj::Sum);
  reflection::ObjectDef<TestUnregisteredBaseObject>()
      .def(reflection::init<int64_t>())
      .def_ro("v1", &TestUnregisteredBaseObject::v1)
      .def("get_v1_plus_one", &TestUnregisteredBaseObject::GetV1PlusOne);
  reflection::ObjectDef<TestUnregisteredObject>()
      .def(reflection::init<int64_t, int64_t>())
      .def_ro("v2", &TestUnregisteredObject::v2)
      .def("get_v2_plus_two", &TestUnregisteredObject::GetV2PlusTwo);

  reflection::GlobalDef()
      .def("testing.TestIntPairSum", [](TestIntPair pair) { return pair->Sum(); })
      .def("testing.make_unregistered_object",
           []() { return ObjectRef(make_object<TestUnregisteredObject>(41, 42)); })
      .def("testing.get_add_one_c_symbol",
           []() { return reinterpret_cast<int64_t>(reinterpret_cast<void*>(&AddOneCSymbol)); })
      .def("testing.get_mlir_add_one_c_symbol",
           []() { return reinterpret_cast<int64_t>(reinterpret_cast<void*>(&MlirAddOneCSymbol)); })
      // Sleeps `nsec` seconds, checking for a pending signal (Ctrl-C) every 10 ms.
      .def("testing.run_check_signal",
           [](int64_t nsec) {
             // Saturated: nsec * 100 overflows for huge nsec, which then means "until a signal".
             int64_t steps = nsec > INT64_MAX / 100 ? INT64_MAX : nsec * 100;
             for (int64_t i = 0; i < steps; ++i) {
               if (TVMFFIEnvCheckSignals() != 0) throw EnvErrorAlreadySet();
               std::this_thread::sleep_for(std::chrono::milliseconds(10));
             }
             std::printf("Function finished without catching signal\n");
             std::fflush(stdout);
           })
      .def("testing.optional_tensor_view_has_value",
           [](Optional<TensorView> t) { return t.has_value(); })
      // Containers holding tensors, for the DLPack conversion of nested results.
      .def("testing.make_array_with_tensor", [](Tensor t) { return Array<Any>{Any(t)}; })
      .def("testing.make_array_with_mixed",
           [](Tensor t, int64_t x) { return Array<Any>{Any(t), Any(x), Any(String("hello"))}; })
      .def("testing.make_nested_array_with_tensor",
           [](Tensor t) { return Array<Any>{Any(Array<Any>{Any(t), Any(int64_t(42))}), Any(t)}; })
      .def("testing.make_list_with_tensor",
           [](Tensor t, int64_t x) { return List<Any>{Any(t), Any(x)}; })
      .def("testing.make_map_with_tensor",
           [](Tensor t) {
             return Map<String, Any>{
                 {"tensor", Any(t)}, {"value", Any(int64_t(42))}, {"name", Any(String("test"))}};
           })
      .def("testing.make_dict_with_tensor",
           [](Tensor t) {
             return Dict<String, Any>{{"tensor", Any(t)}, {"value", Any(int64_t(42))}};
           })
      .def("testing.make_empty_array_with_tensor_input", [](Tensor) { return Array<Any>(); })
      .def("testing.make_nested_map_with_tensor",
           [](Tensor t1, Tensor t2) {
             return Map<String, Any>{{"array", Any(Array<Any>{Any(t1), Any(t2)})},
                                     {"map", Any(Map<String, Any>{{"t", Any(t1)}})},
                                     {"scalar", Any(int64_t(99))}};
           })
      // Identities over each parameter type: what a signature accepts and converts.
      .def("testing.schema_id_int", Identity<int64_t>)
      .def("testing.schema_id_float", Identity<double>)
      .def("testing.schema_id_bool", Identity<bool>)
      .def("testing.schema_id_device", Identity<DLDevice>)
      .def("testing.schema_id_dtype", Identity<DLDataType>)
      .def("testing.schema_id_string", Identity<String>)
      .def("testing.schema_id_bytes", Identity<Bytes>)
      .def("testing.schema_id_func", Identity<Function>)
      .def("testing.schema_id_func_typed", Identity<TypedFunction<void(int64_t, float, Function)>>)
      .def("testing.schema_id_any", Identity<Any>)
      .def("testing.schema_id_object", Identity<ObjectRef>)
      .def("testing.schema_id_dltensor", Identity<Tensor>)
      .def("testing.schema_id_tensor", Identity<Tensor>)
      .def("testing.schema_tensor_view_input", [](TensorView) {})
      .def("testing.schema_id_opt_int", Identity<Optional<int64_t>>)
      .def("testing.schema_id_opt_str", Identity<Optional<String>>)
      .def("testing.schema_id_opt_obj", Identity<Optional<ObjectRef>>)
      .def("testing.schema_id_arr_int", Identity<Array<int64_t>>)
      .def("testing.schema_id_arr_str", Identity<Array<String>>)
      .def("testing.schema_id_arr_obj", Identity<Array<ObjectRef>>)
      .def("testing.schema_id_arr", Identity<Array<Any>>)
      .def("testing.schema_id_list_int", Identity<List<int64_t>>)
      .def("testing.schema_id_list_str", Identity<List<String>>)
      .def("testing.schema_id_list_obj", Identity<List<ObjectRef>>)
      .def("testing.schema_id_map_str_int", Identity<Map<String, int64_t>>)
      .def("testing.schema_id_map_str_str", Identity<Map<String, String>>)
      .def("testing.schema_id_map_str_obj", Identity<Map<String, ObjectRef>>)
      .def("testing.schema_id_map", Identity<Map<Any, Any>>)
      .def("testing.schema_id_dict_str_int", Identity<Dict<String, int64_t>>)
      .def("testing.schema_id_dict_str_str", Identity<Dict<String, String>>)
      .def("testing.schema_id_variant_int_str",
           [](Any v) {
             return CheckVariant("testing.schema_id_variant_int_str", std::move(v), false);
           })
      .def("testing.schema_variant_mix",
           [](Any v) { return CheckVariant("testing.schema_variant_mix", std::move(v), true); })
      .def_packed("testing.schema_packed", [](PackedArgs, Any*) {})
      // With a key, the present ints of `arr` are stored in `mp` under it.
      .def("testing.schema_arr_map_opt",
           [](Array<Optional<int64_t>> arr, Map<String, Array<int64_t>> mp, Optional<String> key) {
             if (key.has_value()) {
               Array<int64_t> present;
               for (Optional<int64_t> v : arr) {
                 if (v.has_value()) present.push_back(*v);
               }
               mp.Set(*key, present);
             }
             return mp;
           })
      .def("testing.schema_no_args", []() { return int64_t(1); })
      .def("testing.schema_no_return", [](int64_t) {})
      .def("testing.schema_no_args_no_return", []() {});
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_testing.add_one",
                                      reinterpret_cast<void*>(&AddOneCSymbol));
});

}  // namespace
}  // namespace ffi
}  // namespace tvm
