// testing.TestEnumVariant: an enum whose variants (Alpha, Beta) and their attribute `code` are
// declared in C++. It publishes them through the static methods __ffi_enum_entries__ and
// __ffi_enum_attrs__, which a Python Enum class with this type key binds to.
#include <tvm_ffi/ffi.h>

#include <string>

namespace tvm {
namespace ffi {
namespace {

class TestEnumVariantObj : public Object {
 public:
  int64_t _int_index = 0;
  String _str_index;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestEnumVariant", TestEnumVariantObj, Object);
};

ObjectRef MakeVariant(int64_t index, const char* name) {
  auto obj = make_object<TestEnumVariantObj>();
  obj->_int_index = index;
  obj->_str_index = String(name);
  return ObjectRef(std::move(obj));
}

// The variants in declaration order: singletons that live as long as the process.
const Array<ObjectRef>& Variants() {
  static const Array<ObjectRef>* variants =
      new Array<ObjectRef>{MakeVariant(0, "Alpha"), MakeVariant(1, "Beta")};
  return *variants;
}

ObjectRef VariantNamed(const String& name) {
  for (const ObjectRef& variant : Variants()) {
    if (static_cast<const TestEnumVariantObj*>(variant.get())->_str_index == name) return variant;
  }
  TVM_FFI_THROW(RuntimeError) << "testing.TestEnumVariant has no instance named `"
                              << std::string(name) << "`";
}

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::ObjectDef<TestEnumVariantObj>(reflection::init(false))
      .def_ro("_int_index", &TestEnumVariantObj::_int_index)
      .def_ro("_str_index", &TestEnumVariantObj::_str_index)
      .def_static("__ffi_enum_entries__", []() { return Variants(); })
      .def_static("__ffi_enum_attrs__", []() {
        // {attribute: {variant name: value}}
        Map<String, Map<String, Any>> attrs;
        attrs.Set(String("code"), Map<String, Any>{{String("Alpha"), Any(int64_t{10})},
                                                   {String("Beta"), Any(int64_t{20})}});
        return attrs;
      });
  reflection::GlobalDef().def("testing.enum_variant_get", VariantNamed);
});

}  // namespace
}  // namespace ffi
}  // namespace tvm
