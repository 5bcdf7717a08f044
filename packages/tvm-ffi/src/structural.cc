// Structural equality, hashing and first-mismatch search over Any values and reflected objects.
#include <tvm_ffi/ffi.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "access_path.h"

namespace tvm {
namespace ffi {
namespace {

using reflection::AccessKind;

/*!
 * Deeper nesting than this is either a cycle (reported as such) or a value too deep to walk
 * on the C stack (RecursionError); each level costs a few hundred bytes of stack.
 */
constexpr int kMaxDepth = 8000;

/*! A type's fields, ancestors' first, and its structural kind: computed once per call. */
struct TypeLayout {
  std::vector<const TVMFFIFieldInfo*> fields;
  int32_t kind = kTVMFFISEqHashKindUnsupported;
  uint64_t key_hash = 0;
  std::string_view key;
};

uint64_t HashBytes(std::string_view s) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a: stable across runs and builds
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

inline uint64_t Combine(uint64_t seed, uint64_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 12) + (seed >> 4));
}

class LayoutCache {
 public:
  const TypeLayout& Get(int32_t type_index) {
    if (type_index >= static_cast<int32_t>(slots_.size())) slots_.resize(type_index + 1, -1);
    int32_t slot = slots_[type_index];
    if (slot >= 0) return layouts_[slot];
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    TypeLayout layout;
    if (info != nullptr) {
      for (int32_t d = 0; d <= info->type_depth; ++d) {
        const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
        for (int32_t i = 0; i < t->num_fields; ++i) layout.fields.push_back(&t->fields[i]);
      }
      layout.key = std::string_view(info->type_key.data, info->type_key.size);
      layout.key_hash = HashBytes(layout.key);
    }
    const TVMFFITypeMetadata* meta = TVMFFIGetTypeMetadata(type_index);
    if (meta != nullptr) layout.kind = meta->structural_eq_hash_kind;
    slots_[type_index] = static_cast<int32_t>(layouts_.size());
    layouts_.push_back(std::move(layout));
    return layouts_.back();
  }

 private:
  std::vector<int32_t> slots_;
  std::deque<TypeLayout> layouts_;  // stable addresses while the cache grows
};

/*! A field's value as a borrowed view; `hold` keeps a getter's result alive. */
inline const TVMFFIAny* ReadField(const TVMFFIObject* obj, const TVMFFIFieldInfo* f, TVMFFIAny* tmp,
                                  Any* hold) {
  const char* addr = reinterpret_cast<const char*>(obj) + f->offset;
  if (f->field_static_type_index == kTVMFFIFieldStaticTypeAny && f->size == sizeof(TVMFFIAny)) {
    return reinterpret_cast<const TVMFFIAny*>(addr);
  }
  if (f->field_static_type_index >= kTVMFFIStaticObjectBegin && f->size == sizeof(void*)) {
    TVMFFIObject* p = *reinterpret_cast<TVMFFIObject* const*>(addr);
    tmp->zero_padding = 0;
    if (p == nullptr) {
      tmp->type_index = kTVMFFINone;
      tmp->v_int64 = 0;
    } else {
      tmp->type_index = p->type_index;
      tmp->v_obj = p;
    }
    return tmp;
  }
  TVMFFIAny out;
  details::InitNone(&out);
  if (f->getter(const_cast<char*>(addr), &out) != 0) throw details::MoveFromRaised();
  *hold = Any::FromTVMFFIAny(&out);
  return hold->raw();
}

std::string TypeKeyOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return info ? std::string(info->type_key.data, info->type_key.size) : std::to_string(type_index);
}

[[noreturn]] void ThrowUnsupported(const char* func, int32_t type_index) {
  TVM_FFI_THROW(TypeError)
      << func << ": type `" << TypeKeyOf(type_index)
      << "` does not support structural comparison (_type_s_eq_hash_kind is not set; "
         "register it with a structural kind, e.g. py_class(structural_eq=\"tree\"))";
}

/*! Keeps the chain of objects being compared, to tell a cycle from a deep value. */
class DepthGuard {
 public:
  DepthGuard(std::vector<const TVMFFIObject*>* stack, const TVMFFIObject* obj, const char* func,
             const char* arg)
      : stack_(stack) {
    if (static_cast<int>(stack_->size()) >= kMaxDepth) {
      for (const TVMFFIObject* o : *stack_) {
        if (o == obj) {
          TVM_FFI_THROW(ValueError)
              << func << ": argument `" << arg << "` contains a cycle through an object of type `"
              << TypeKeyOf(obj->type_index) << "`; structural comparison expects an acyclic value";
        }
      }
      TVM_FFI_THROW(RecursionError)
          << func << ": argument `" << arg << "` is nested deeper than " << kMaxDepth << " levels";
    }
    stack_->push_back(obj);
  }
  ~DepthGuard() { stack_->pop_back(); }

 private:
  std::vector<const TVMFFIObject*>* stack_;
};

inline bool IsObject(const TVMFFIAny* v) { return v->type_index >= kTVMFFIStaticObjectBegin; }

/*! Bytes of a CPU tensor's elements in row-major order; false when it is not compact. */
bool CompactBytes(const DLTensor& t, size_t* nbytes) {
  int64_t numel = 1, expected = 1;
  for (int i = t.ndim - 1; i >= 0; --i) {
    if (t.strides != nullptr && t.shape[i] != 1 && t.strides[i] != expected) return false;
    expected *= t.shape[i];
    numel *= t.shape[i];
  }
  *nbytes = static_cast<size_t>(numel) * ((t.dtype.bits * t.dtype.lanes + 7) / 8);
  return true;
}

const DLTensor& TensorOf(const TVMFFIAny* v) {
  return *reinterpret_cast<const DLTensor*>(reinterpret_cast<const char*>(v->v_obj) +
                                            sizeof(TVMFFIObject));
}

// ------------------------------------------------------------------ equality
class StructEqual {
 public:
  StructEqual(bool map_free_vars, bool skip_tensor_content, bool record_path, const char* func)
      : map_free_vars_(map_free_vars),
        skip_tensor_(skip_tensor_content),
        record_(record_path),
        func_(func) {}

  bool Equal(const TVMFFIAny* a, const TVMFFIAny* b, bool def_region) {
    std::string_view sa, sb;
    for (bool bytes : {false, true}) {
      bool ha = details::GetStringView(a, bytes, &sa);
      bool hb = details::GetStringView(b, bytes, &sb);
      if (ha || hb) return ha && hb && sa == sb;
    }
    if (a->type_index != b->type_index) return false;
    switch (a->type_index) {
      case kTVMFFINone:
        return true;
      case kTVMFFIInt:
      case kTVMFFIBool:
        return a->v_int64 == b->v_int64;
      case kTVMFFIFloat:
        return a->v_float64 == b->v_float64 ||
               (std::isnan(a->v_float64) && std::isnan(b->v_float64));
      case kTVMFFIDataType:
        return a->v_dtype.code == b->v_dtype.code && a->v_dtype.bits == b->v_dtype.bits &&
               a->v_dtype.lanes == b->v_dtype.lanes;
      case kTVMFFIDevice:
        return a->v_device.device_type == b->v_device.device_type &&
               a->v_device.device_id == b->v_device.device_id;
      default:
        break;
    }
    if (!IsObject(a)) return a->v_ptr == b->v_ptr;
    return EqualObject(a, b, def_region);
  }

  // Mismatch paths, innermost step first.
  std::vector<std::pair<AccessKind, Any>> lhs_steps, rhs_steps;

 private:
  void Record(AccessKind lk, const Any& lkey, AccessKind rk, const Any& rkey) {
    if (!record_) return;
    lhs_steps.emplace_back(lk, lkey);
    rhs_steps.emplace_back(rk, rkey);
  }

  bool EqualObject(const TVMFFIAny* a, const TVMFFIAny* b, bool def_region) {
    TVMFFIObject* oa = a->v_obj;
    TVMFFIObject* ob = b->v_obj;
    switch (a->type_index) {
      case kTVMFFIArray:
      case kTVMFFIList:  // a List keeps the Array cell layout
        return EqualArray(oa, ob, def_region);
      case kTVMFFIMap:
      case kTVMFFIDict:  // a DictObj is a MapObj
        return EqualMap(oa, ob, def_region);
      case kTVMFFIShape: {
        const TVMFFIShapeCell* ca = TVMFFIShapeGetCell(oa);
        const TVMFFIShapeCell* cb = TVMFFIShapeGetCell(ob);
        int64_t n = std::min(ca->size, cb->size);
        for (int64_t i = 0; i < n; ++i) {
          if (ca->data[i] != cb->data[i]) {
            Record(AccessKind::kArrayItem, Any(i), AccessKind::kArrayItem, Any(i));
            return false;
          }
        }
        return SizeMatch(ca->size, cb->size);
      }
      case kTVMFFITensor:
        return oa == ob || EqualTensor(a, b);
      default:
        break;
    }
    const TypeLayout& layout = cache_.Get(a->type_index);
    switch (layout.kind) {
      case kTVMFFISEqHashKindUnsupported:
        if (oa == ob) return true;
        ThrowUnsupported(func_, a->type_index);
      case kTVMFFISEqHashKindUniqueInstance:
        return oa == ob;
      case kTVMFFISEqHashKindFreeVar:
        return EqualVar(oa, ob, layout, def_region);
      case kTVMFFISEqHashKindDAGNode: {
        auto it = lhs_map_.find(oa);
        if (it != lhs_map_.end()) return it->second == ob;
        if (rhs_map_.count(ob)) return false;
        if (!EqualFields(oa, ob, layout, def_region)) return false;
        Bind(oa, ob);
        return true;
      }
      case kTVMFFISEqHashKindConstTreeNode:
        if (oa == ob) return true;
        return EqualFields(oa, ob, layout, def_region);
      default:
        return EqualFields(oa, ob, layout, def_region);
    }
  }

  bool SizeMatch(int64_t na, int64_t nb) {
    if (na == nb) return true;
    int64_t n = std::min(na, nb);
    if (na < nb) {
      Record(AccessKind::kArrayItemMissing, Any(n), AccessKind::kArrayItem, Any(n));
    } else {
      Record(AccessKind::kArrayItem, Any(n), AccessKind::kArrayItemMissing, Any(n));
    }
    return false;
  }

  bool EqualArray(TVMFFIObject* oa, TVMFFIObject* ob, bool def_region) {
    const TVMFFISeqCell* ca = TVMFFIArrayGetCell(oa);
    const TVMFFISeqCell* cb = TVMFFIArrayGetCell(ob);
    DepthGuard guard(&stack_, oa, func_, "lhs");
    int64_t n = std::min(ca->size, cb->size);
    for (int64_t i = 0; i < n; ++i) {
      if (!Equal(&ca->data[i], &cb->data[i], def_region)) {
        Record(AccessKind::kArrayItem, Any(i), AccessKind::kArrayItem, Any(i));
        return false;
      }
    }
    return SizeMatch(ca->size, cb->size);
  }

  /*! A key of lhs, as it would be spelled in rhs (bound variables map to their partner). */
  Any KeyInRhs(const Any& key) {
    if (IsObject(key.raw())) {
      auto it = lhs_map_.find(key.raw()->v_obj);
      if (it != lhs_map_.end()) {
        TVMFFIAny view = *key.raw();
        view.type_index = it->second->type_index;
        view.v_obj = it->second;
        return Any(*reinterpret_cast<const AnyView*>(&view));
      }
    }
    return key;
  }

  bool EqualMap(TVMFFIObject* oa, TVMFFIObject* ob, bool def_region) {
    const auto* ma = reinterpret_cast<const MapObj*>(oa);
    const auto* mb = reinterpret_cast<const MapObj*>(ob);
    DepthGuard guard(&stack_, oa, func_, "lhs");
    for (const auto& [key, value] : ma->entries) {
      const Any* other = mb->Find(KeyInRhs(key));
      if (other == nullptr) {
        Record(AccessKind::kMapItem, key, AccessKind::kMapItemMissing, key);
        return false;
      }
      if (!Equal(value.raw(), other->raw(), def_region)) {
        Record(AccessKind::kMapItem, key, AccessKind::kMapItem, key);
        return false;
      }
    }
    if (ma->entries.size() == mb->entries.size()) return true;
    for (const auto& [key, value] : mb->entries) {
      bool found = false;
      for (const auto& [lkey, lvalue] : ma->entries) {
        if (AnyEqual()(KeyInRhs(lkey), key)) {
          found = true;
          break;
        }
      }
      if (!found) {
        Record(AccessKind::kMapItemMissing, key, AccessKind::kMapItem, key);
        return false;
      }
    }
    return false;
  }

  bool EqualTensor(const TVMFFIAny* a, const TVMFFIAny* b) {
    const DLTensor& ta = TensorOf(a);
    const DLTensor& tb = TensorOf(b);
    if (ta.ndim != tb.ndim || ta.dtype.code != tb.dtype.code || ta.dtype.bits != tb.dtype.bits ||
        ta.dtype.lanes != tb.dtype.lanes || ta.device.device_type != tb.device.device_type) {
      return false;
    }
    for (int i = 0; i < ta.ndim; ++i) {
      if (ta.shape[i] != tb.shape[i]) return false;
    }
    if (skip_tensor_) return true;
    size_t na, nb;
    if (ta.device.device_type != kDLCPU || !CompactBytes(ta, &na) || !CompactBytes(tb, &nb)) {
      TVM_FFI_THROW(ValueError) << func_
                                << ": comparing tensor contents needs compact CPU tensors; "
                                << "pass skip_tensor_content=True to compare only shape and dtype";
    }
    const char* pa = static_cast<const char*>(ta.data) + ta.byte_offset;
    const char* pb = static_cast<const char*>(tb.data) + tb.byte_offset;
    return na == nb && (na == 0 || std::memcmp(pa, pb, na) == 0);
  }

  void Bind(TVMFFIObject* oa, TVMFFIObject* ob) {
    lhs_map_[oa] = ob;
    rhs_map_[ob] = oa;
  }

  bool EqualVar(TVMFFIObject* oa, TVMFFIObject* ob, const TypeLayout& layout, bool def_region) {
    auto it = lhs_map_.find(oa);
    if (it != lhs_map_.end()) return it->second == ob;
    if (rhs_map_.count(ob)) return false;
    if (oa == ob) {
      Bind(oa, ob);
      return true;
    }
    if (!map_free_vars_ && !def_region) return false;
    if (!EqualFields(oa, ob, layout, def_region)) return false;
    Bind(oa, ob);
    return true;
  }

  bool EqualFields(TVMFFIObject* oa, TVMFFIObject* ob, const TypeLayout& layout, bool def_region) {
    DepthGuard guard(&stack_, oa, func_, "lhs");
    for (const TVMFFIFieldInfo* f : layout.fields) {
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
      TVMFFIAny ta, tb;
      Any ha, hb;
      const TVMFFIAny* va = ReadField(oa, f, &ta, &ha);
      const TVMFFIAny* vb = ReadField(ob, f, &tb, &hb);
      bool def = def_region || (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDef);
      if (!Equal(va, vb, def)) {
        if (record_) {
          Any name = String(std::string_view(f->name.data, f->name.size));
          Record(AccessKind::kAttr, name, AccessKind::kAttr, name);
        }
        return false;
      }
    }
    return true;
  }

  bool map_free_vars_, skip_tensor_, record_;
  const char* func_;
  LayoutCache cache_;
  std::vector<const TVMFFIObject*> stack_;
  std::unordered_map<const TVMFFIObject*, TVMFFIObject*> lhs_map_, rhs_map_;
};

// ------------------------------------------------------------------ hashing
class StructHash {
 public:
  StructHash(bool map_free_vars, bool skip_tensor_content)
      : map_free_vars_(map_free_vars), skip_tensor_(skip_tensor_content) {}

  uint64_t Hash(const TVMFFIAny* v, bool def_region) {
    std::string_view s;
    if (details::GetStringView(v, false, &s)) return Combine(0x5354520000000001ULL, HashBytes(s));
    if (details::GetStringView(v, true, &s)) return Combine(0x4259540000000002ULL, HashBytes(s));
    uint64_t seed = 0x9e3779b97f4a7c15ULL * (static_cast<uint64_t>(v->type_index) + 1);
    switch (v->type_index) {
      case kTVMFFINone:
        return seed;
      case kTVMFFIInt:
      case kTVMFFIBool:
        return Combine(seed, static_cast<uint64_t>(v->v_int64));
      case kTVMFFIFloat: {
        double d = v->v_float64;
        if (std::isnan(d)) return Combine(seed, 0x7ff8000000000000ULL);
        if (d == 0) d = 0;  // -0.0 == 0.0
        uint64_t bits;
        std::memcpy(&bits, &d, sizeof(bits));
        return Combine(seed, bits);
      }
      case kTVMFFIDataType:
        return Combine(seed, (uint64_t(v->v_dtype.code) << 24) | (uint64_t(v->v_dtype.bits) << 16) |
                                 v->v_dtype.lanes);
      case kTVMFFIDevice:
        return Combine(seed,
                       (uint64_t(v->v_device.device_type) << 32) | uint32_t(v->v_device.device_id));
      default:
        break;
    }
    if (!IsObject(v)) return Combine(seed, reinterpret_cast<uintptr_t>(v->v_ptr));
    return HashObject(v, seed, def_region);
  }

 private:
  uint64_t HashObject(const TVMFFIAny* v, uint64_t seed, bool def_region) {
    TVMFFIObject* obj = v->v_obj;
    switch (v->type_index) {
      case kTVMFFIArray:
      case kTVMFFIList: {
        const TVMFFISeqCell* cell = TVMFFIArrayGetCell(obj);
        DepthGuard guard(&stack_, obj, "structural_hash", "value");
        uint64_t h = Combine(seed, static_cast<uint64_t>(cell->size));
        for (int64_t i = 0; i < cell->size; ++i) h = Combine(h, Hash(&cell->data[i], def_region));
        return h;
      }
      case kTVMFFIMap:
      case kTVMFFIDict: {
        const auto* map = reinterpret_cast<const MapObj*>(obj);
        DepthGuard guard(&stack_, obj, "structural_hash", "value");
        uint64_t sum = 0;  // order-free: equal maps may list their entries in another order
        for (const auto& [key, value] : map->entries) {
          sum += Combine(Hash(key.raw(), def_region), Hash(value.raw(), def_region));
        }
        return Combine(Combine(seed, map->entries.size()), sum);
      }
      case kTVMFFIShape: {
        const TVMFFIShapeCell* cell = TVMFFIShapeGetCell(obj);
        uint64_t h = Combine(seed, static_cast<uint64_t>(cell->size));
        for (int64_t i = 0; i < cell->size; ++i)
          h = Combine(h, static_cast<uint64_t>(cell->data[i]));
        return h;
      }
      case kTVMFFITensor: {
        const DLTensor& t = TensorOf(v);
        uint64_t h = Combine(
            seed, (uint64_t(t.dtype.code) << 24) | (uint64_t(t.dtype.bits) << 16) | t.dtype.lanes);
        for (int i = 0; i < t.ndim; ++i) h = Combine(h, static_cast<uint64_t>(t.shape[i]));
        size_t n;
        if (!skip_tensor_ && t.device.device_type == kDLCPU && CompactBytes(t, &n)) {
          h = Combine(
              h, HashBytes(std::string_view(static_cast<const char*>(t.data) + t.byte_offset, n)));
        }
        return h;
      }
      default:
        break;
    }
    const TypeLayout& layout = cache_.Get(v->type_index);
    switch (layout.kind) {
      case kTVMFFISEqHashKindUnsupported:
        ThrowUnsupported("structural_hash", v->type_index);
      case kTVMFFISEqHashKindUniqueInstance:
        return Combine(layout.key_hash, reinterpret_cast<uintptr_t>(obj));
      case kTVMFFISEqHashKindFreeVar: {
        auto it = bound_.find(obj);
        if (it != bound_.end()) return Combine(layout.key_hash, it->second);
        if (!map_free_vars_ && !def_region)
          return Combine(layout.key_hash, reinterpret_cast<uintptr_t>(obj));
        uint64_t h = HashFields(obj, layout, def_region);
        uint64_t index = bound_.size() + 1;
        bound_[obj] = index;
        return Combine(h, index);
      }
      case kTVMFFISEqHashKindDAGNode: {
        auto it = bound_.find(obj);
        if (it != bound_.end()) return Combine(layout.key_hash ^ 0xdad, it->second);
        uint64_t h = HashFields(obj, layout, def_region);
        bound_[obj] = bound_.size() + 1;
        return h;
      }
      default:
        return HashFields(obj, layout, def_region);
    }
  }

  uint64_t HashFields(TVMFFIObject* obj, const TypeLayout& layout, bool def_region) {
    DepthGuard guard(&stack_, obj, "structural_hash", "value");
    uint64_t h = layout.key_hash;
    for (const TVMFFIFieldInfo* f : layout.fields) {
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
      TVMFFIAny tmp;
      Any hold;
      const TVMFFIAny* value = ReadField(obj, f, &tmp, &hold);
      h = Combine(h, Hash(value, def_region || (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDef)));
    }
    return h;
  }

  bool map_free_vars_, skip_tensor_;
  LayoutCache cache_;
  std::vector<const TVMFFIObject*> stack_;
  std::unordered_map<const TVMFFIObject*, uint64_t> bound_;
};

ObjectRef BuildPath(const std::vector<std::pair<AccessKind, Any>>& steps) {
  ObjectRef path = reflection::AccessPathRoot();
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    path = reflection::AccessPathExtend(path, it->first, it->second);
  }
  return path;
}

/*! (lhs, rhs, map_free_vars, skip_tensor_content): the arguments every entry point takes. */
void CheckArgs(const PackedArgs& args, int expected, const char* func) {
  if (args.size() != expected) {
    TVM_FFI_THROW(TypeError) << func << ": expects " << expected << " arguments, got "
                             << args.size();
  }
}

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef()
      .def_packed("ffi.StructuralEqual",
                  [](PackedArgs args, Any* rv) {
                    CheckArgs(args, 4, "structural_equal");
                    StructEqual eq(args[2].cast<bool>(), args[3].cast<bool>(), false,
                                   "structural_equal");
                    *rv = eq.Equal(args[0].raw(), args[1].raw(), false);
                  })
      .def_packed("ffi.StructuralHash",
                  [](PackedArgs args, Any* rv) {
                    CheckArgs(args, 3, "structural_hash");
                    StructHash hasher(args[1].cast<bool>(), args[2].cast<bool>());
                    *rv = static_cast<int64_t>(hasher.Hash(args[0].raw(), false));
                  })
      .def_packed("ffi.GetFirstStructuralMismatch", [](PackedArgs args, Any* rv) {
        CheckArgs(args, 4, "get_first_structural_mismatch");
        StructEqual eq(args[2].cast<bool>(), args[3].cast<bool>(), true,
                       "get_first_structural_mismatch");
        if (eq.Equal(args[0].raw(), args[1].raw(), false)) {
          *rv = Any();
          return;
        }
        *rv = Array<Any>{Any(BuildPath(eq.lhs_steps)), Any(BuildPath(eq.rhs_steps))};
      });
});

}  // namespace
}  // namespace ffi
}  // namespace tvm
