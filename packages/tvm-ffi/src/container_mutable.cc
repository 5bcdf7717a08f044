// Global functions that build, read and change the mutable containers List and Dict.
#include <tvm_ffi/ffi.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

namespace tvm {
namespace ffi {
namespace {

template <typename T>
T* ArgAs(const PackedArgs& args, int32_t i, int32_t want_index, const char* func,
         const char* what) {
  if (i >= args.size() || args[i].type_index() != want_index) {
    TVM_FFI_THROW(TypeError) << func << ": argument #" << i << " must be " << what << ", got `"
                             << (i < args.size() ? args[i].GetTypeKey() : std::string("nothing"))
                             << "`";
  }
  return static_cast<T*>(details::ObjectUnsafe::FromHeader(args[i].raw()->v_obj));
}

ListObj* ListArg(const PackedArgs& args, const char* func) {
  return ArgAs<ListObj>(args, 0, kTVMFFIList, func, "an ffi.List");
}

DictObj* DictArg(const PackedArgs& args, const char* func) {
  return ArgAs<DictObj>(args, 0, kTVMFFIDict, func, "an ffi.Dict");
}

int64_t IntArg(const PackedArgs& args, int32_t i, const char* func) {
  std::optional<int64_t> v = i < args.size() ? args[i].try_cast<int64_t>() : std::nullopt;
  if (!v.has_value()) {
    TVM_FFI_THROW(TypeError) << func << ": argument #" << i << " must be an int";
  }
  return *v;
}

void CheckArgCount(const PackedArgs& args, int32_t n, const char* func) {
  if (args.size() != n) {
    TVM_FFI_THROW(TypeError) << func << ": expects " << n << " arguments, got " << args.size();
  }
}

int64_t ListIndex(int64_t i, int64_t size, const char* func) {
  int64_t j = i < 0 ? i + size : i;
  if (j < 0 || j >= size) {
    TVM_FFI_THROW(IndexError) << func << ": index " << i << " out of range for size " << size;
  }
  return j;
}

Any NewList(std::vector<Any> items) {
  return Any(ObjectRef(make_object<ListObj>(std::move(items))));
}

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef()
      .def_packed("ffi.List",
                  [](PackedArgs args, Any* rv) {
                    *rv = NewList(std::vector<Any>(args.data(), args.data() + args.size()));
                  })
      .def_packed("ffi.ListSize",
                  [](PackedArgs args, Any* rv) {
                    CheckArgCount(args, 1, "ffi.ListSize");
                    *rv = static_cast<int64_t>(ListArg(args, "ffi.ListSize")->items.size());
                  })
      .def_packed("ffi.ListGetItem",
                  [](PackedArgs args, Any* rv) {
                    CheckArgCount(args, 2, "ffi.ListGetItem");
                    ListObj* l = ListArg(args, "ffi.ListGetItem");
                    int64_t i = IntArg(args, 1, "ffi.ListGetItem");
                    *rv = l->items[ListIndex(i, l->items.size(), "ffi.ListGetItem")];
                  })
      .def_packed("ffi.ListSetItem",
                  [](PackedArgs args, Any*) {
                    CheckArgCount(args, 3, "ffi.ListSetItem");
                    ListObj* l = ListArg(args, "ffi.ListSetItem");
                    int64_t i = IntArg(args, 1, "ffi.ListSetItem");
                    l->items[ListIndex(i, l->items.size(), "ffi.ListSetItem")] = Any(args[2]);
                  })
      .def_packed("ffi.ListAppend",
                  [](PackedArgs args, Any*) {
                    CheckArgCount(args, 2, "ffi.ListAppend");
                    ListObj* l = ListArg(args, "ffi.ListAppend");
                    l->items.emplace_back(args[1]);
                    l->Sync();
                  })
      .def_packed("ffi.ListInsert",
                  [](PackedArgs args, Any*) {
                    // Like list.insert: the position is clamped into [0, size].
                    CheckArgCount(args, 3, "ffi.ListInsert");
                    ListObj* l = ListArg(args, "ffi.ListInsert");
                    int64_t size = l->items.size();
                    int64_t i = IntArg(args, 1, "ffi.ListInsert");
                    if (i < 0) i += size;
                    i = std::clamp<int64_t>(i, 0, size);
                    l->items.insert(l->items.begin() + i, Any(args[2]));
                    l->Sync();
                  })
      .def_packed("ffi.ListPop",
                  [](PackedArgs args, Any* rv) {
                    CheckArgCount(args, 2, "ffi.ListPop");
                    ListObj* l = ListArg(args, "ffi.ListPop");
                    if (l->items.empty()) TVM_FFI_THROW(IndexError) << "pop from empty List";
                    int64_t i =
                        ListIndex(IntArg(args, 1, "ffi.ListPop"), l->items.size(), "ffi.ListPop");
                    *rv = std::move(l->items[i]);
                    l->items.erase(l->items.begin() + i);
                    l->Sync();
                  })
      .def_packed("ffi.ListReplaceSlice",
                  [](PackedArgs args, Any*) {
                    // items[start:stop] = values (an Array or List), start <= stop already clamped.
                    CheckArgCount(args, 4, "ffi.ListReplaceSlice");
                    ListObj* l = ListArg(args, "ffi.ListReplaceSlice");
                    int64_t size = l->items.size();
                    int64_t start =
                        std::clamp<int64_t>(IntArg(args, 1, "ffi.ListReplaceSlice"), 0, size);
                    int64_t stop =
                        std::clamp<int64_t>(IntArg(args, 2, "ffi.ListReplaceSlice"), start, size);
                    int32_t vi = args[3].type_index();
                    if (vi != kTVMFFIArray && vi != kTVMFFIList) {
                      TVM_FFI_THROW(TypeError)
                          << "ffi.ListReplaceSlice: argument #3 must be an Array or List";
                    }
                    const TVMFFISeqCell* cell = TVMFFIArrayGetCell(args[3].raw()->v_obj);
                    std::vector<Any> values(reinterpret_cast<const Any*>(cell->data),
                                            reinterpret_cast<const Any*>(cell->data) + cell->size);
                    // The replaced items are released only once the List is whole again: a
                    // release can run a Python __del__ that reads or changes this List.
                    std::vector<Any> dropped(std::make_move_iterator(l->items.begin() + start),
                                             std::make_move_iterator(l->items.begin() + stop));
                    l->items.erase(l->items.begin() + start, l->items.begin() + stop);
                    l->items.insert(l->items.begin() + start, values.begin(), values.end());
                    l->Sync();
                  })
      .def_packed("ffi.ListReverse",
                  [](PackedArgs args, Any*) {
                    CheckArgCount(args, 1, "ffi.ListReverse");
                    ListObj* l = ListArg(args, "ffi.ListReverse");
                    std::reverse(l->items.begin(), l->items.end());
                  })
      .def_packed("ffi.ListClear",
                  [](PackedArgs args, Any*) {
                    CheckArgCount(args, 1, "ffi.ListClear");
                    ListObj* l = ListArg(args, "ffi.ListClear");
                    std::vector<Any> old;
                    old.swap(l->items);  // values are released after the List is consistent
                    l->Sync();
                  })
      .def_packed("ffi.ListToArray",
                  [](PackedArgs args, Any* rv) {
                    CheckArgCount(args, 1, "ffi.ListToArray");
                    *rv =
                        Array<Any>(make_object<ArrayObj>(ListArg(args, "ffi.ListToArray")->items));
                  })
      .def_packed("ffi.Dict",
                  [](PackedArgs args, Any* rv) {
                    if (args.size() % 2 != 0) {
                      TVM_FFI_THROW(ValueError) << "ffi.Dict: expects key, value pairs, got "
                                                << args.size() << " arguments";
                    }
                    auto d = make_object<DictObj>();
                    for (int32_t i = 0; i < args.size(); i += 2)
                      d->Set(Any(args[i]), Any(args[i + 1]));
                    *rv = ObjectRef(std::move(d));
                  })
      .def_packed("ffi.DictSize",
                  [](PackedArgs args, Any* rv) {
                    CheckArgCount(args, 1, "ffi.DictSize");
                    *rv = static_cast<int64_t>(DictArg(args, "ffi.DictSize")->entries.size());
                  })
      .def_packed("ffi.DictCount",
                  [](PackedArgs args, Any* rv) {
                    CheckArgCount(args, 2, "ffi.DictCount");
                    *rv = DictArg(args, "ffi.DictCount")->Find(Any(args[1])) != nullptr;
                  })
      .def_packed("ffi.DictGetItem",
                  [](PackedArgs args, Any* rv) {
                    CheckArgCount(args, 2, "ffi.DictGetItem");
                    const Any* v = DictArg(args, "ffi.DictGetItem")->Find(Any(args[1]));
                    if (v == nullptr) TVM_FFI_THROW(KeyError) << "ffi.DictGetItem: key not in Dict";
                    *rv = *v;
                  })
      .def_packed("ffi.DictSetItem",
                  [](PackedArgs args, Any*) {
                    CheckArgCount(args, 3, "ffi.DictSetItem");
                    DictArg(args, "ffi.DictSetItem")->Set(Any(args[1]), Any(args[2]));
                  })
      .def_packed("ffi.DictErase",
                  [](PackedArgs args, Any* rv) {
                    CheckArgCount(args, 2, "ffi.DictErase");
                    *rv = DictArg(args, "ffi.DictErase")->Erase(Any(args[1]));
                  })
      .def_packed("ffi.DictClear",
                  [](PackedArgs args, Any*) {
                    CheckArgCount(args, 1, "ffi.DictClear");
                    DictArg(args, "ffi.DictClear")->Clear();
                  })
      .def_packed("ffi.DictItems", [](PackedArgs args, Any* rv) {
        // Flattened key, value, key, value ... in insertion order (a snapshot).
        CheckArgCount(args, 1, "ffi.DictItems");
        DictObj* d = DictArg(args, "ffi.DictItems");
        std::vector<Any> flat;
        flat.reserve(d->entries.size() * 2);
        for (const auto& kv : d->entries) {
          flat.push_back(kv.first);
          flat.push_back(kv.second);
        }
        *rv = Array<Any>(make_object<ArrayObj>(std::move(flat)));
      });
});

}  // namespace
}  // namespace ffi
}  // namespace tvm
