// String and Bytes: small values inline in an Any, large ones as objects, embedded NULs.
#include <tvm_ffi/ffi.h>

#include "test_assertions.h"

using namespace tvm::ffi;  // NOLINT

int main() {
  Any small = std::string("seven77");
  CHECK_EQ(small.type_index(), kTVMFFISmallStr);
  CHECK_EQ(small.raw()->small_str_len, 7u);
  CHECK_EQ(small.cast<std::string>(), "seven77");
  CHECK_EQ(small.cast<String>().size(), 7u);

  Any large = std::string("eight888");
  CHECK_EQ(large.type_index(), kTVMFFIStr);
  String as_string = large.cast<String>();
  CHECK_EQ(as_string.view(), "eight888");
  CHECK_EQ(as_string.c_str()[8], '\0');  // cells stay NUL-terminated

  std::string with_nul("a\0b\0c", 5);
  String s(with_nul);
  CHECK_EQ(s.size(), 5u);
  CHECK_EQ(std::string(s), with_nul);
  Any s_any = s;
  CHECK_EQ(s_any.cast<std::string>(), with_nul);

  Bytes bytes(std::string("\x00\x01\x02", 3));
  Any b_any = bytes;
  CHECK_EQ(b_any.type_index(), kTVMFFIBytes);
  CHECK_EQ(b_any.cast<Bytes>().size(), 3u);
  CHECK(!b_any.try_cast<String>().has_value());  // bytes are not str
  CHECK(!small.try_cast<Bytes>().has_value());

  // From the C entry points: short inline, long as object.
  TVMFFIAny out;
  out.type_index = kTVMFFINone;
  TVMFFIByteArray short_bytes{"ab", 2};
  CHECK_EQ(TVMFFIBytesFromByteArray(&short_bytes, &out), 0);
  CHECK_EQ(out.type_index, kTVMFFISmallBytes);
  Any owned = Any::FromTVMFFIAny(&out);
  CHECK_EQ(std::string(owned.cast<Bytes>()), "ab");
  TVMFFIByteArray long_text{"0123456789", 10};
  CHECK_EQ(TVMFFIStringFromByteArray(&long_text, &out), 0);
  CHECK_EQ(out.type_index, kTVMFFIStr);
  owned = Any::FromTVMFFIAny(&out);
  CHECK_EQ(owned.cast<String>().view(), "0123456789");

  CHECK(String("abc") == String("abc"));
  CHECK(String("abc") < String("abd"));
  CHECK_EQ((String("ab") + String("cd")).view(), "abcd");

  // dtype strings through the C API.
  DLDataType dt;
  TVMFFIByteArray name{"bfloat16", 8};
  CHECK_EQ(TVMFFIDataTypeFromString(&name, &dt), 0);
  CHECK(dt.code == kDLBfloat && dt.bits == 16 && dt.lanes == 1);
  CHECK_EQ(TVMFFIDataTypeToString(&dt, &out), 0);
  CHECK_EQ(Any::FromTVMFFIAny(&out).cast<std::string>(), "bfloat16");
  TVMFFIByteArray bad{"floaty", 6};
  CHECK(TVMFFIDataTypeFromString(&bad, &dt) != 0);
  Error err = details::MoveFromRaised();
  CHECK_EQ(err.kind(), "ValueError");
  return check::Report("string");
}
