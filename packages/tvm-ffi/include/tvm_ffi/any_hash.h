// Hash and equality of Any values as Map keys, following Python's rules for what Python sends.
#ifndef TVM_FFI_ANY_HASH_H_
#define TVM_FFI_ANY_HASH_H_

#include <tvm_ffi/any.h>
#include <tvm_ffi/array.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string_view>

namespace tvm {
namespace ffi {
namespace details {

inline bool IsNumberIndex(int32_t t) {
  return t == kTVMFFIInt || t == kTVMFFIBool || t == kTVMFFIFloat;
}

/*! A float holding an exact int64 value is that int as a key: 1.0 is 1, -0.0 is 0 (as in Python).
 */
inline bool FloatAsInt(double d, int64_t* out) {
  // Every integral double in [-2^63, 2^63) converts exactly; NaN fails the range test.
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return false;
  auto i = static_cast<int64_t>(d);
  if (static_cast<double>(i) != d) return false;
  *out = i;
  return true;
}

inline uint64_t FloatBits(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof(bits));
  return bits;
}

/*! int/bool/float compare as numbers; a NaN key is found again only by the same NaN bits. */
inline bool NumberEqual(const TVMFFIAny* x, const TVMFFIAny* y) {
  bool xf = x->type_index == kTVMFFIFloat, yf = y->type_index == kTVMFFIFloat;
  if (!xf && !yf) return x->v_int64 == y->v_int64;
  if (xf && yf)
    return x->v_float64 == y->v_float64 || FloatBits(x->v_float64) == FloatBits(y->v_float64);
  int64_t as_int;
  return FloatAsInt(xf ? x->v_float64 : y->v_float64, &as_int) &&
         as_int == (xf ? y->v_int64 : x->v_int64);
}

inline size_t HashInt(int64_t v) { return std::hash<int64_t>()(v); }

/*! What makes two objects of kinds that Python re-creates on each conversion one key. */
inline bool SameIdentity(const TVMFFIAny* x, const TVMFFIAny* y) {
  if (x->type_index == kTVMFFIFunction) {  // one callable: same call pointer, same context
    const TVMFFIFunctionCell* a = TVMFFIFunctionGetCell(x->v_obj);
    const TVMFFIFunctionCell* b = TVMFFIFunctionGetCell(y->v_obj);
    return a->safe_call == b->safe_call && a->self == b->self;
  }
  // One foreign object: the same handle (a Python object passed twice is one key).
  return TVMFFIOpaqueObjectGetCell(x->v_obj)->handle == TVMFFIOpaqueObjectGetCell(y->v_obj)->handle;
}

}  // namespace details

/*!
 * Hash of a key: str and bytes by content, numbers as numbers, Arrays (Python tuples) by their
 * elements, Functions and opaque foreign objects by what they wrap, other objects by identity.
 */
struct AnyHash {
  size_t operator()(const Any& key) const {
    // The common key inline: Hash recurses into Arrays, so it is an out-of-line call.
    const TVMFFIAny* v = key.raw();
    return v->type_index == kTVMFFIInt ? details::HashInt(v->v_int64) : Hash(v);
  }
  static size_t Hash(const TVMFFIAny* v) {
    std::string_view s;
    if (details::GetStringView(v, false, &s)) return std::hash<std::string_view>()(s);
    if (details::GetStringView(v, true, &s)) return std::hash<std::string_view>()(s) ^ 0x5bd1e995;
    switch (v->type_index) {
      case kTVMFFIInt:
      case kTVMFFIBool:
        return details::HashInt(v->v_int64);
      case kTVMFFIFloat: {
        int64_t as_int;
        if (details::FloatAsInt(v->v_float64, &as_int)) return details::HashInt(as_int);
        return std::hash<uint64_t>()(details::FloatBits(v->v_float64));
      }
      case kTVMFFIArray: {
        const TVMFFISeqCell* cell = TVMFFIArrayGetCell(v->v_obj);
        size_t h = 0x345678 + static_cast<size_t>(cell->size);
        for (int64_t i = 0; i < cell->size; ++i) h = h * 1000003 ^ Hash(&cell->data[i]);
        return h;
      }
      case kTVMFFIFunction: {
        const TVMFFIFunctionCell* cell = TVMFFIFunctionGetCell(v->v_obj);
        return std::hash<const void*>()(cell->self) ^
               std::hash<const void*>()(reinterpret_cast<const void*>(cell->safe_call));
      }
      case kTVMFFIOpaquePyObject:
        return std::hash<const void*>()(TVMFFIOpaqueObjectGetCell(v->v_obj)->handle);
      default:
        return details::HashInt(v->v_int64) ^ (static_cast<size_t>(v->type_index) << 48);
    }
  }
};

/*! Equality of keys, consistent with AnyHash. */
struct AnyEqual {
  bool operator()(const Any& a, const Any& b) const {
    const TVMFFIAny* x = a.raw();
    const TVMFFIAny* y = b.raw();
    if (x->type_index == kTVMFFIInt && y->type_index == kTVMFFIInt) return x->v_int64 == y->v_int64;
    return Equal(x, y);
  }
  static bool Equal(const TVMFFIAny* x, const TVMFFIAny* y) {
    std::string_view sx, sy;
    for (bool bytes : {false, true}) {
      bool hx = details::GetStringView(x, bytes, &sx);
      bool hy = details::GetStringView(y, bytes, &sy);
      if (hx || hy) return hx && hy && sx == sy;
    }
    if (details::IsNumberIndex(x->type_index) && details::IsNumberIndex(y->type_index)) {
      return details::NumberEqual(x, y);
    }
    if (x->type_index != y->type_index) return false;
    if (x->v_int64 == y->v_int64) return true;  // the same POD value or the same object
    switch (x->type_index) {
      case kTVMFFIArray: {
        const TVMFFISeqCell* a = TVMFFIArrayGetCell(x->v_obj);
        const TVMFFISeqCell* b = TVMFFIArrayGetCell(y->v_obj);
        if (a->size != b->size) return false;
        for (int64_t i = 0; i < a->size; ++i) {
          if (!Equal(&a->data[i], &b->data[i])) return false;
        }
        return true;
      }
      case kTVMFFIFunction:
      case kTVMFFIOpaquePyObject:
        return details::SameIdentity(x, y);
      default:
        return false;
    }
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ANY_HASH_H_
