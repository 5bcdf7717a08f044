// DLDataType helpers under apache-tvm-ffi's names: ==, !=, StringToDLDataType, DTypeIsFloat, ...
#ifndef TVM_FFI_DTYPE_H_
#define TVM_FFI_DTYPE_H_

#include <tvm_ffi/string.h>
#include <tvm_ffi/tensor.h>

#include <string>

inline bool operator==(const DLDataType& lhs, const DLDataType& rhs) {
  return lhs.code == rhs.code && lhs.bits == rhs.bits && lhs.lanes == rhs.lanes;
}
inline bool operator!=(const DLDataType& lhs, const DLDataType& rhs) { return !(lhs == rhs); }

namespace tvm {
namespace ffi {

/*! Parses "float32", "int8x4", ...; ValueError naming the text when it is no dtype. */
inline DLDataType StringToDLDataType(const std::string& str) {
  TVMFFIByteArray bytes{str.data(), str.size()};
  DLDataType out;
  if (TVMFFIDataTypeFromString(&bytes, &out) != 0) throw details::MoveFromRaised();
  return out;
}

inline bool DTypeIsFloat(DLDataType dtype) {
  return dtype.code == kDLFloat || dtype.code == kDLBfloat ||
         (dtype.code >= kDLFloat8_e3m4 && dtype.code <= kDLFloat4_e2m1fn);
}
inline bool DTypeIsInt(DLDataType dtype) { return dtype.code == kDLInt || dtype.code == kDLUInt; }
inline bool DTypeIsBool(DLDataType dtype) { return dtype.code == kDLBool; }

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_DTYPE_H_
