// ObjectPtr, weak references, use counts, type registration, IsInstance and ObjectRef casts.
#include <tvm_ffi/ffi.h>

#include "test_assertions.h"

using namespace tvm::ffi;  // NOLINT

namespace {
int destroyed = 0;

class Base : public Object {
 public:
  int value;
  explicit Base(int v) : value(v) {}
  ~Base() { ++destroyed; }
  TVM_FFI_DECLARE_OBJECT_INFO("cpptest.Base", Base, Object);
};

class Derived : public Base {
 public:
  explicit Derived(int v) : Base(v) {}
  TVM_FFI_DECLARE_OBJECT_INFO("cpptest.Derived", Derived, Base);
};

// Both spellings of a final class mark it final, so IsInstance compares one index.
class FinalOld : public Base {
 public:
  explicit FinalOld(int v) : Base(v) {}
  TVM_FFI_DECLARE_FINAL_OBJECT_INFO("cpptest.FinalOld", FinalOld, Base);
};
class FinalNew : public Base {
 public:
  explicit FinalNew(int v) : Base(v) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cpptest.FinalNew", FinalNew, Base);
};
static_assert(FinalOld::_type_final && FinalNew::_type_final && !Derived::_type_final,
              "a class declared final must be final");

class BaseRef : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS(BaseRef, ObjectRef, Base);
};
}  // namespace

int main() {
  CHECK(Base::RuntimeTypeIndex() >= kTVMFFIDynObjectBegin);
  {
    ObjectPtr<FinalOld> f = make_object<FinalOld>(1);
    CHECK(f->IsInstance<FinalOld>() && f->IsInstance<Base>() && !f->IsInstance<FinalNew>());
  }
  destroyed = 0;  // the counts below start from here
  CHECK(Derived::RuntimeTypeIndex() != Base::RuntimeTypeIndex());
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(Derived::RuntimeTypeIndex());
  CHECK(info != nullptr);
  CHECK_EQ(std::string(info->type_key.data, info->type_key.size), "cpptest.Derived");
  CHECK_EQ(info->type_depth, 2);  // Object, Base
  CHECK_EQ(info->type_ancestors[0]->type_index, kTVMFFIObject);
  CHECK_EQ(info->type_ancestors[1]->type_index, Base::RuntimeTypeIndex());
  int32_t looked_up = -1;
  TVMFFIByteArray key{"cpptest.Base", 12};
  CHECK_EQ(TVMFFITypeKeyToIndex(&key, &looked_up), 0);
  CHECK_EQ(looked_up, Base::RuntimeTypeIndex());
  TVMFFIByteArray unknown{"cpptest.Nope", 12};
  CHECK(TVMFFITypeKeyToIndex(&unknown, &looked_up) != 0);
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != nullptr);
  CHECK_EQ(std::string(TVMFFIErrorGetCell(err)->kind.data, TVMFFIErrorGetCell(err)->kind.size),
           "KeyError");
  TVMFFIObjectDecRef(err);

  {
    ObjectPtr<Derived> d = make_object<Derived>(7);
    CHECK_EQ(d.use_count(), 1u);
    CHECK_EQ(d->type_index(), Derived::RuntimeTypeIndex());
    CHECK(d->IsInstance<Base>());
    CHECK(d->IsInstance<Derived>());
    CHECK(d->IsInstance<Object>());
    ObjectPtr<Base> as_base = d;
    CHECK_EQ(d.use_count(), 2u);
    ObjectPtr<Base> moved = std::move(as_base);
    CHECK_EQ(d.use_count(), 2u);
    CHECK(as_base == nullptr);

    // Weak references: do not keep the contents alive, promote while strong refs exist.
    WeakObjectPtr<Derived> weak(d);
    CHECK_EQ(d->weak_use_count(), 2u);  // one for all strong refs, one for `weak`
    CHECK(!weak.expired());
    ObjectPtr<Derived> locked = weak.lock();
    CHECK(locked == d);
    CHECK_EQ(d.use_count(), 3u);
    locked.reset();
    moved.reset();
    d.reset();
    CHECK_EQ(destroyed, 1);  // contents gone at the last strong ref
    CHECK(weak.expired());
    CHECK(weak.lock() == nullptr);
  }  // memory freed with the last weak ref

  {
    BaseRef ref(make_object<Base>(3));
    CHECK_EQ(ref->value, 3);
    Any any = ref;
    CHECK_EQ(ref.use_count(), 2u);
    CHECK_EQ(any.GetTypeKey(), "cpptest.Base");
    BaseRef back = any.cast<BaseRef>();
    CHECK(back.same_as(ref));
    // A Base is not a Derived, and a String is not a Base.
    CHECK(!any.try_cast<Array<Any>>().has_value());
    CHECK_THROWS(Any(String("xyzxyzxyz")).cast<BaseRef>(), "TypeError", "cpptest.Base");
    ObjectRef plain = ref;
    CHECK(plain.as<Base>() != nullptr);
    CHECK(plain.as<Derived>() == nullptr);
    // The C entry points count the same way.
    uint32_t count = ref.use_count();
    CHECK_EQ(count, 4u);  // ref, any, back, plain
    TVMFFIObjectIncRef(const_cast<TVMFFIObject*>(reinterpret_cast<const TVMFFIObject*>(ref.get())));
    CHECK_EQ(ref.use_count(), count + 1);
    TVMFFIObjectDecRef(const_cast<TVMFFIObject*>(reinterpret_cast<const TVMFFIObject*>(ref.get())));
    CHECK_EQ(ref.use_count(), count);
  }
  CHECK_EQ(destroyed, 2);
  return check::Report("object");
}
