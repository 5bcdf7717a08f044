// testing.TestCustomHash / TestCustomCompare / TestEqWithoutHash (types with __ffi_hash__,
// __ffi_eq__, __ffi_compare__ hooks that look only at `key`) and testing.TestObjectPtrHolder.
#include <tvm_ffi/ffi.h>

namespace tvm {
namespace ffi {
namespace {

/*! The three hooked types share this shape: an int key the hooks use and a label they ignore. */
template <typename Derived>
class KeyLabelObj : public Object {
 public:
  int64_t key;
  String label;
  KeyLabelObj(int64_t key, String label) : key(key), label(std::move(label)) {}
};

class TestCustomHashObj : public KeyLabelObj<TestCustomHashObj> {
 public:
  using KeyLabelObj::KeyLabelObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCustomHash", TestCustomHashObj, Object);
};

class TestCustomCompareObj : public KeyLabelObj<TestCustomCompareObj> {
 public:
  using KeyLabelObj::KeyLabelObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCustomCompare", TestCustomCompareObj, Object);
};

class TestEqWithoutHashObj : public KeyLabelObj<TestEqWithoutHashObj> {
 public:
  using KeyLabelObj::KeyLabelObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestEqWithoutHash", TestEqWithoutHashObj, Object);
};

/*! A holder of a required and an optional testing.TestObjectBase reference (both writable). */
class TestObjectPtrHolderObj : public Object {
 public:
  ObjectRef value;
  Optional<ObjectRef> optional_value;
  TestObjectPtrHolderObj(ObjectRef value, Optional<ObjectRef> optional_value)
      : value(std::move(value)), optional_value(std::move(optional_value)) {}
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestObjectPtrHolder", TestObjectPtrHolderObj, Object);
};

template <typename T>
int64_t KeyOf(const ObjectRef& self, const char* hook) {
  const T* obj = self.as<T>();
  if (obj == nullptr) {
    TVM_FFI_THROW(TypeError) << T::_type_key << "." << hook << ": argument `self` must be "
                             << T::_type_key << ", got " << self->GetTypeKey();
  }
  return obj->key;
}

/*! Registers fields key and label, the (key, label) constructor and the hooks `hooks` names. */
template <typename T>
void DefKeyLabel(bool hash, bool eq, bool compare) {
  reflection::ObjectDef<T> def;
  def.def(reflection::init<int64_t, String>())
      // Cast: &T::key names the base's member; the registry wants one of T.
      .def_ro("key", static_cast<int64_t T::*>(&T::key))
      .def_ro("label", static_cast<String T::*>(&T::label));
  if (hash) {
    def.def_static("__ffi_hash__", [](ObjectRef self, Function fn_hash) -> int64_t {
      return fn_hash(KeyOf<T>(self, "__ffi_hash__")).template cast<int64_t>();
    });
  }
  if (eq) {
    def.def_static("__ffi_eq__", [](ObjectRef lhs, ObjectRef rhs, Function fn_eq) -> bool {
      return fn_eq(KeyOf<T>(lhs, "__ffi_eq__"), KeyOf<T>(rhs, "__ffi_eq__")).template cast<bool>();
    });
  }
  if (compare) {
    def.def_static("__ffi_compare__", [](ObjectRef lhs, ObjectRef rhs, Function fn_cmp) {
      return fn_cmp(KeyOf<T>(lhs, "__ffi_compare__"), KeyOf<T>(rhs, "__ffi_compare__"))
          .template cast<int64_t>();
    });
  }
}

ObjectRef CheckTestObjectBase(const Optional<ObjectRef>& value, const char* arg) {
  static const int32_t base_index = [] {
    int32_t index = -1;
    TVMFFIByteArray key{"testing.TestObjectBase", 22};
    if (TVMFFITypeKeyToIndex(&key, &index) != 0) throw details::MoveFromRaised();
    return index;
  }();
  int32_t index = value.has_value() ? value.value()->type_index() : -1;
  if (index != base_index && (index < 0 || !details::IsSubtype(index, base_index))) {
    TVM_FFI_THROW(TypeError) << "testing.TestObjectPtrHolder.__ffi_init__: argument `" << arg
                             << "` must be testing.TestObjectBase, got "
                             << (value.has_value() ? value.value()->GetTypeKey() : "None");
  }
  return value.value();
}

TVM_FFI_STATIC_INIT_BLOCK({
  DefKeyLabel<TestCustomHashObj>(/*hash=*/true, /*eq=*/false, /*compare=*/false);
  DefKeyLabel<TestCustomCompareObj>(/*hash=*/true, /*eq=*/true, /*compare=*/true);
  DefKeyLabel<TestEqWithoutHashObj>(/*hash=*/false, /*eq=*/true, /*compare=*/false);
  reflection::ObjectDef<TestObjectPtrHolderObj>()
      .def_rw("value", &TestObjectPtrHolderObj::value)
      .def_rw("optional_value", &TestObjectPtrHolderObj::optional_value)
      .def_static("__ffi_init__", [](Optional<ObjectRef> value, Optional<ObjectRef> optional) {
        ObjectRef held = CheckTestObjectBase(value, "value");
        if (optional.has_value()) CheckTestObjectBase(optional, "optional_value");
        return ObjectRef(make_object<TestObjectPtrHolderObj>(std::move(held), std::move(optional)));
      });
});

}  // namespace
}  // namespace ffi
}  // namespace tvm
