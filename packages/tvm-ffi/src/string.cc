// Strings, bytes and dtypes from C: owned strings and the dtype text format ("float32", "int8x4").
#include <tvm_ffi/ffi.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace tvm {
namespace ffi {
namespace {

struct DTypeName {
  const char* name;
  uint8_t code;
  int fixed_bits;    // > 0 when the name implies the width (float8_e4m3fn, bool, ...)
  int default_bits;  // the width of the bare name ("int" is int32), 0 when it needs one
};

// Longest prefix first: the first name that prefixes the text decides how it parses. The
// short forms after the long ones (i32, u8, f16, bf16, fp8_e4m3fn) are upstream's aliases.
const DTypeName kNamedTypes[] = {
    {"bool", kDLBool, 8, 0},
    {"float8_e3m4", kDLFloat8_e3m4, 8, 0},
    {"float8_e4m3fnuz", kDLFloat8_e4m3fnuz, 8, 0},
    {"float8_e4m3fn", kDLFloat8_e4m3fn, 8, 0},
    {"float8_e4m3b11fnuz", kDLFloat8_e4m3b11fnuz, 8, 0},
    {"float8_e4m3", kDLFloat8_e4m3, 8, 0},
    {"float8_e5m2fnuz", kDLFloat8_e5m2fnuz, 8, 0},
    {"float8_e5m2", kDLFloat8_e5m2, 8, 0},
    {"float8_e8m0fnu", kDLFloat8_e8m0fnu, 8, 0},
    {"float6_e2m3fn", kDLFloat6_e2m3fn, 6, 0},
    {"float6_e3m2fn", kDLFloat6_e3m2fn, 6, 0},
    {"float4_e2m1fn", kDLFloat4_e2m1fn, 4, 0},
    {"handle", kDLOpaqueHandle, 64, 0},
    {"bfloat", kDLBfloat, 0, 16},
    {"uint", kDLUInt, 0, 32},
    {"int", kDLInt, 0, 32},
    {"float", kDLFloat, 0, 32},
    {"complex", kDLComplex, 0, 0},
    {"fp8_e3m4", kDLFloat8_e3m4, 8, 0},
    {"fp8_e4m3fnuz", kDLFloat8_e4m3fnuz, 8, 0},
    {"fp8_e4m3fn", kDLFloat8_e4m3fn, 8, 0},
    {"fp8_e4m3b11fnuz", kDLFloat8_e4m3b11fnuz, 8, 0},
    {"fp8_e4m3", kDLFloat8_e4m3, 8, 0},
    {"fp8_e5m2fnuz", kDLFloat8_e5m2fnuz, 8, 0},
    {"fp8_e5m2", kDLFloat8_e5m2, 8, 0},
    {"fp8_e8m0fnu", kDLFloat8_e8m0fnu, 8, 0},
    {"fp6_e2m3fn", kDLFloat6_e2m3fn, 6, 0},
    {"fp6_e3m2fn", kDLFloat6_e3m2fn, 6, 0},
    {"fp4_e2m1fn", kDLFloat4_e2m1fn, 4, 0},
    {"bf", kDLBfloat, 0, 0},
    {"i", kDLInt, 0, 0},
    {"u", kDLUInt, 0, 0},
    {"f", kDLFloat, 0, 0},
};

// The names nearly every program uses, matched whole before the prefix scan above (which
// compares a dozen float8/float6 names before reaching "float"): a VM passes a dtype to its
// builtins on every call, so this parse is on the hot path.
struct CommonDType {
  const char* name;
  size_t size;
  DLDataType type;
};

const CommonDType kCommonTypes[] = {
    {"float32", 7, {kDLFloat, 32, 1}},   {"int64", 5, {kDLInt, 64, 1}},
    {"int32", 5, {kDLInt, 32, 1}},       {"float16", 7, {kDLFloat, 16, 1}},
    {"bfloat16", 8, {kDLBfloat, 16, 1}}, {"float64", 7, {kDLFloat, 64, 1}},
    {"bool", 4, {kDLBool, 8, 1}},        {"uint8", 5, {kDLUInt, 8, 1}},
    {"int8", 4, {kDLInt, 8, 1}},
};

bool ParseNumber(const std::string& text, size_t* pos, long* out) {
  size_t start = *pos;
  while (*pos < text.size() && text[*pos] >= '0' && text[*pos] <= '9') ++*pos;
  if (*pos == start || *pos - start > 6) return false;
  *out = std::strtol(text.c_str() + start, nullptr, 10);
  return true;
}

bool ParseDataType(const std::string& text, DLDataType* out) {
  if (text.empty() || text == "void") {  // the void type: no bits, no lanes (printed as "")
    *out = DLDataType{kDLOpaqueHandle, 0, 0};
    return true;
  }
  for (const CommonDType& c : kCommonTypes) {
    if (text.size() == c.size && std::memcmp(text.data(), c.name, c.size) == 0) {
      *out = c.type;
      return true;
    }
  }
  for (const DTypeName& t : kNamedTypes) {
    size_t n = std::strlen(t.name);
    if (text.compare(0, n, t.name) != 0) continue;
    size_t pos = n;
    long bits = t.fixed_bits;
    if (t.fixed_bits == 0) {
      bool bare = pos == text.size() || text[pos] == 'x';
      if (bare && t.default_bits > 0) {
        bits = t.default_bits;
      } else if (!ParseNumber(text, &pos, &bits) || bits <= 0 || bits > 255) {
        return false;
      }
    }
    long lanes = 1;
    if (pos < text.size()) {
      if (text[pos] != 'x') return false;
      ++pos;
      if (!ParseNumber(text, &pos, &lanes) || lanes <= 0 || lanes > 65535) return false;
    }
    if (pos != text.size()) return false;
    out->code = t.code;
    out->bits = static_cast<uint8_t>(bits);
    out->lanes = static_cast<uint16_t>(lanes);
    return true;
  }
  return false;
}

std::string DataTypeToString(const DLDataType& t) {
  if (t.code == kDLOpaqueHandle && t.bits == 0 && t.lanes == 0) return "";
  std::string out;
  bool named = false;
  for (const DTypeName& n : kNamedTypes) {
    if (n.code == t.code) {
      out = n.name;
      named = n.fixed_bits != 0 && n.fixed_bits == t.bits;
      if (n.fixed_bits != 0 && !named) out += std::to_string(t.bits);
      break;
    }
  }
  if (out.empty()) out = "custom[" + std::to_string(t.code) + "]";
  if (!named && (out.back() < '0' || out.back() > '9')) out += std::to_string(t.bits);
  if (t.lanes != 1) out += "x" + std::to_string(t.lanes);
  return out;
}

}  // namespace
}  // namespace ffi
}  // namespace tvm

using namespace tvm::ffi;  // NOLINT

int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  details::MoveStringToAny(std::string_view(input->data, input->size), false, out);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  details::MoveStringToAny(std::string_view(input->data, input->size), true, out);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::string text(str->data, str->size);
  if (!ParseDataType(text, out)) {
    TVM_FFI_THROW(ValueError) << "Cannot parse dtype `" << text
                              << "`: expected a name such as int32, uint8, float16, bfloat16, "
                                 "bool or float8_e4m3fn, optionally followed by xLANES";
  }
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  details::MoveStringToAny(DataTypeToString(*dtype), false, out);
  TVM_FFI_SAFE_CALL_END();
}
