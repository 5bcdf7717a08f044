// A plugin that touches the C++ API plugins written for apache-tvm-ffi commonly use
// (test_cpp_compat_headers.py).
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/tvm_ffi.h>

#include <string>
namespace ffi = tvm::ffi;
int64_t UseAny(ffi::Any a, ffi::AnyView v) {
  int64_t x = a.cast<int64_t>();
  std::optional<int64_t> y = v.try_cast<int64_t>();
  std::optional<int64_t> z = v.as<int64_t>();
  return x + y.value_or(0) + z.value_or(0);
}
ffi::String UseString(ffi::String s) {
  std::string t = s;
  ffi::String u = s + "!";
  return ffi::String(std::string(u.c_str()) + std::to_string(s.size()) + t.substr(0, 0));
}
ffi::Array<int64_t> UseArray(ffi::Array<int64_t> a) {
  ffi::Array<int64_t> b{1, 2};
  for (int64_t v : a) b.push_back(v);
  b.Set(0, b[0] + static_cast<int64_t>(a.size()));
  return b;
}
ffi::Map<ffi::String, int64_t> UseMap(ffi::Map<ffi::String, int64_t> m) {
  ffi::Map<ffi::String, int64_t> out = m;
  out.Set("n", static_cast<int64_t>(m.size()));
  ffi::Optional<int64_t> got = m.Get("a");
  if (got.has_value()) out.Set("a2", got.value() * 2);
  if (m.count("a")) out.Set("has_a", 1);
  return out;
}
ffi::Shape UseShape(ffi::Shape s) { return ffi::Shape({s.size() > 0 ? s[0] : 0, s.Product()}); }
int64_t UseTensor(ffi::Tensor t) {
  ffi::ShapeView sh = t.shape();
  return sh[0] + t.stride(0) + t.size(-1) + t.dim() + (t.IsContiguous() ? 1 : 0) +
         static_cast<int64_t>(t.byte_offset()) + t.strides()[0];
}
ffi::Optional<ffi::String> UseOptional(ffi::Optional<ffi::String> s) { return s; }
ffi::Function UseFunction() {
  return ffi::Function::FromPacked(
      [](ffi::PackedArgs args, ffi::Any* rv) { *rv = args[0].cast<int64_t>() + 1; });
}
int64_t CallGlobal(ffi::String name) {
  ffi::Function f = ffi::Function::GetGlobalRequired(name);
  ffi::TypedFunction<int64_t(int64_t)> g = f;
  return g(1) + f(2).cast<int64_t>();
}
std::string DtypeStr(DLDataType t) { return std::string(ffi::DLDataTypeToString(t)); }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(use_any, UseAny);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(use_string, UseString);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(use_array, UseArray);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(use_map, UseMap);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(use_shape, UseShape);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(use_tensor, UseTensor);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(use_optional, UseOptional);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(use_function, UseFunction);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_global, CallGlobal);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(dtype_str, DtypeStr);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(lambda_fn, [](int64_t x) { return x * 3; });

struct NodeObj : ffi::Object {
  int64_t v;
  explicit NodeObj(int64_t v) : v(v) {}
  TVM_FFI_DECLARE_OBJECT_INFO("t2.Node", NodeObj, ffi::Object);
};
struct Node : ffi::ObjectRef {
  explicit Node(int64_t v) { data_ = ffi::make_object<NodeObj>(v); }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Node, ffi::ObjectRef, NodeObj);
};
int64_t UseNode(ffi::ObjectRef r) {
  const NodeObj* n = r.as<NodeObj>();
  Node again = ffi::GetRef<Node>(n);
  ffi::ObjectPtr<NodeObj> p = ffi::make_object<NodeObj>(n->v + 1);
  return again->v + p->v;
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(use_node, UseNode);
TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<NodeObj>().def_ro("v", &NodeObj::v).def(refl::init<int64_t>());
}
