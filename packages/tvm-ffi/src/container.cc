// Global functions that build and read Array, Map and Shape from any language.
#include <tvm_ffi/ffi.h>

namespace tvm {
namespace ffi {
namespace {

int64_t NormalizeIndex(int64_t i, int64_t size, const char* func) {
  int64_t j = i < 0 ? i + size : i;
  if (j < 0 || j >= size) {
    TVM_FFI_THROW(IndexError) << func << ": index " << i << " out of range for size " << size;
  }
  return j;
}

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::GlobalDef()
      .def_packed("ffi.Array",
                  [](PackedArgs args, Any* rv) {
                    std::vector<Any> items(args.data(), args.data() + args.size());
                    *rv = Array<Any>(make_object<ArrayObj>(std::move(items)));
                  })
      .def("ffi.ArraySize", [](Array<Any> a) { return static_cast<int64_t>(a.size()); })
      .def("ffi.ArrayGetItem",
           [](Array<Any> a, int64_t i) {
             return a->items[NormalizeIndex(i, a.size(), "ffi.ArrayGetItem")];
           })
      .def_packed("ffi.Map",
                  [](PackedArgs args, Any* rv) {
                    if (args.size() % 2 != 0) {
                      TVM_FFI_THROW(ValueError) << "ffi.Map: expects key, value pairs, got "
                                                << args.size() << " arguments";
                    }
                    Map<Any, Any> m;
                    MapObj* obj = m.CopyOnWrite();
                    for (int32_t i = 0; i < args.size(); i += 2)
                      obj->Set(Any(args[i]), Any(args[i + 1]));
                    *rv = m;
                  })
      .def("ffi.MapSize", [](Map<Any, Any> m) { return static_cast<int64_t>(m.size()); })
      .def("ffi.MapCount", [](Map<Any, Any> m, Any key) { return m->Find(key) != nullptr; })
      .def("ffi.MapGetItem",
           [](Map<Any, Any> m, Any key) {
             const Any* v = m->Find(key);
             if (v == nullptr) TVM_FFI_THROW(KeyError) << "ffi.MapGetItem: key not in Map";
             return *v;
           })
      .def("ffi.MapItems",
           [](Map<Any, Any> m) {
             std::vector<Any> flat;
             flat.reserve(m.size() * 2);
             for (const auto& kv : m->entries) {
               flat.push_back(kv.first);
               flat.push_back(kv.second);
             }
             return Array<Any>(make_object<ArrayObj>(std::move(flat)));
           })
      .def_packed("ffi.Shape", [](PackedArgs args, Any* rv) {
        std::vector<int64_t> dims(args.size());
        for (int32_t i = 0; i < args.size(); ++i) {
          std::optional<int64_t> d = args[i].try_cast<int64_t>();
          if (!d.has_value()) {
            TVM_FFI_THROW(TypeError) << "ffi.Shape: argument #" << i << " must be int, got `"
                                     << args[i].GetTypeKey() << "`";
          }
          dims[i] = *d;
        }
        *rv = Shape(dims);
      });
});

}  // namespace
}  // namespace ffi
}  // namespace tvm
