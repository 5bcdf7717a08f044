// Any/AnyView: POD conversions, owned vs borrowed values, and TypeTraits cast errors.
#include <tvm_ffi/ffi.h>

#include <cmath>
#include <limits>

#include "test_assertions.h"

using namespace tvm::ffi;  // NOLINT

int main() {
  static_assert(sizeof(Any) == 16 && sizeof(AnyView) == 16, "Any is 16 bytes");

  Any none;
  CHECK(none.is_none());
  CHECK_EQ(none.type_index(), kTVMFFINone);

  Any i = int64_t(-5);
  CHECK_EQ(i.type_index(), kTVMFFIInt);
  CHECK_EQ(i.cast<int64_t>(), -5);
  CHECK_EQ(i.cast<int>(), -5);
  CHECK_EQ(i.cast<double>(), -5.0);  // int widens to float
  Any big = std::numeric_limits<int64_t>::max();
  CHECK_EQ(big.cast<int64_t>(), std::numeric_limits<int64_t>::max());
  // Narrow and unsigned targets check the range instead of truncating.
  CHECK(!big.try_cast<int32_t>().has_value());
  CHECK_THROWS(big.cast<int32_t>(), "OverflowError", "an int32 in [-2147483648, 2147483647]");
  CHECK_THROWS(i.cast<uint64_t>(), "OverflowError", "Cannot convert int -5 to a uint64 in [0, ");
  CHECK_EQ(Any(int64_t(255)).cast<uint8_t>(), 255);
  CHECK_THROWS(Any(int64_t(256)).cast<uint8_t>(), "OverflowError", "a uint8 in [0, 255]");

  Any b = true;
  CHECK_EQ(b.type_index(), kTVMFFIBool);
  CHECK(b.cast<bool>());
  CHECK_EQ(b.cast<int64_t>(), 1);

  Any f = 2.5;
  CHECK_EQ(f.type_index(), kTVMFFIFloat);
  CHECK_EQ(f.cast<double>(), 2.5);
  CHECK(!f.try_cast<int64_t>().has_value());  // float does not narrow to int
  CHECK_THROWS(f.cast<int64_t>(), "TypeError", "Cannot convert from type `float` to `int`");

  DLDevice dev{kDLCUDA, 3};
  Any d = dev;
  CHECK_EQ(d.type_index(), kTVMFFIDevice);
  CHECK_EQ(d.cast<DLDevice>().device_id, 3);

  DLDataType dt{kDLFloat, 16, 2};
  Any t = dt;
  CHECK_EQ(t.type_index(), kTVMFFIDataType);
  CHECK_EQ(t.cast<DLDataType>().lanes, 2);
  // A str holding a dtype name converts to DLDataType.
  Any dt_str = std::string("int8x4");
  DLDataType parsed = dt_str.cast<DLDataType>();
  CHECK(parsed.code == kDLInt && parsed.bits == 8 && parsed.lanes == 4);
  CHECK(!Any(std::string("not-a-dtype")).try_cast<DLDataType>().has_value());

  int x = 0;
  Any p = static_cast<void*>(&x);
  CHECK_EQ(p.type_index(), kTVMFFIOpaquePtr);
  CHECK_EQ(p.cast<void*>(), static_cast<void*>(&x));

  // A raw C string view becomes an owned (small) str when copied into an Any.
  AnyView raw("abc");
  CHECK_EQ(raw.type_index(), kTVMFFIRawStr);
  Any owned = raw;
  CHECK_EQ(owned.type_index(), kTVMFFISmallStr);
  CHECK_EQ(owned.cast<std::string>(), "abc");

  // Views do not own: an AnyView of an object leaves the count alone; an Any adds one.
  String s(std::string(100, 'x'));
  CHECK_EQ(s.use_count(), 1u);
  {
    AnyView view = s;
    CHECK_EQ(s.use_count(), 1u);
    Any held = view;
    CHECK_EQ(s.use_count(), 2u);
    Any moved = std::move(held);
    CHECK_EQ(s.use_count(), 2u);
    CHECK(held.is_none());
  }
  CHECK_EQ(s.use_count(), 1u);

  // Hand-over to and from C keeps one reference.
  Any owner = s;
  TVMFFIAny c_value;
  owner.MoveToTVMFFIAny(&c_value);
  CHECK(owner.is_none());
  CHECK_EQ(s.use_count(), 2u);
  Any back = Any::FromTVMFFIAny(&c_value);
  CHECK_EQ(c_value.type_index, kTVMFFINone);
  back.reset();
  CHECK_EQ(s.use_count(), 1u);

  // Cast errors name both types.
  Any str_value = String("hello there, long string");
  CHECK_THROWS(str_value.cast<int64_t>(), "TypeError", "`str` to `int`");
  CHECK_THROWS(Any(int64_t(1)).cast<Array<Any>>(), "TypeError", "`int` to `Array[Any]`");
  CHECK_EQ(str_value.GetTypeKey(), "str");
  CHECK_EQ(Any(Array<Any>{}).GetTypeKey(), "ffi.Array");

  // Optional crosses as the value or None.
  Optional<int64_t> maybe = Any().cast<Optional<int64_t>>();
  CHECK(!maybe.has_value());
  CHECK_EQ(*Any(int64_t(4)).cast<Optional<int64_t>>(), 4);
  return check::Report("any");
}
