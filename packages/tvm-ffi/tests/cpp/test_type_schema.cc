// Type schemas: what the C++ registration records about signatures and fields (ABI 1.3 metadata).
#include <tvm_ffi/ffi.h>

#include <string>

#include "test_assertions.h"

using namespace tvm::ffi;  // NOLINT

namespace {
class Point : public Object {
 public:
  int64_t x = 0;
  Optional<String> label;
  int64_t Scaled(double k) const { return static_cast<int64_t>(x * k); }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cpptest.schema.Point", Point, Object);
};

/*! The metadata JSON of a global function, or "" when none. */
std::string GlobalMetadata(const std::string& name) {
  TVMFFIByteArray key{name.data(), name.size()};
  Any out;
  if (TVMFFIFunctionGetGlobalMetadata(&key, out.raw_mutable()) != 0)
    throw details::MoveFromRaised();
  return out.type_index() == kTVMFFINone ? "" : out.cast<std::string>();
}

std::string MemberMetadata(int32_t kind, const std::string& name) {
  TVMFFIByteArray key{name.data(), name.size()};
  Any out;
  if (TVMFFITypeGetMemberMetadata(Point::RuntimeTypeIndex(), kind, &key, out.raw_mutable()) != 0)
    throw details::MoveFromRaised();
  return out.type_index() == kTVMFFINone ? "" : out.cast<std::string>();
}

void RegisterMember(int32_t kind, const std::string& name) {
  TVMFFIByteArray key{name.data(), name.size()};
  TVMFFIByteArray meta{"{}", 2};
  if (TVMFFITypeRegisterMemberMetadata(Point::RuntimeTypeIndex(), kind, &key, &meta) != 0)
    throw details::MoveFromRaised();
}
}  // namespace

int main() {
  using details::TypeSchemaOf;
  CHECK_EQ(TypeSchemaOf<int32_t>(), R"({"type":"int"})");
  CHECK_EQ(TypeSchemaOf<const String&>(), R"({"type":"ffi.String"})");
  CHECK_EQ(TypeSchemaOf<std::string>(), R"({"type":"ffi.String"})");
  CHECK_EQ(TypeSchemaOf<Bytes>(), R"({"type":"ffi.Bytes"})");
  CHECK_EQ(TypeSchemaOf<DLDataType>(), R"({"type":"DataType"})");
  CHECK_EQ(TypeSchemaOf<void>(), R"({"type":"None"})");
  CHECK_EQ((TypeSchemaOf<Map<String, Array<Optional<int64_t>>>>()),
           R"({"type":"ffi.Map","args":[{"type":"ffi.String"},{"type":"ffi.Array","args":)"
           R"([{"type":"Optional","args":[{"type":"int"}]}]}]})");
  CHECK_EQ((TypeSchemaOf<TypedFunction<void(bool)>>()),
           R"({"type":"ffi.Function","named_args":{"return":[{"type":"None"}],)"
           R"("params":[{"type":"bool"}]}})");
  CHECK_EQ(details::JsonQuote("a\"b\\\n"), "\"a\\\"b\\\\\\u000a\"");

  reflection::GlobalDef()
      .def("cpptest.schema.add", [](int64_t a, double b) { return a + b; })
      .def_packed("cpptest.schema.packed", [](PackedArgs, Any*) {});
  CHECK_EQ(GlobalMetadata("cpptest.schema.add"),
           R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
           R"([{\"type\":\"float\"}],\"params\":[{\"type\":\"int\"},{\"type\":\"float\"}]}}"})");
  CHECK_EQ(GlobalMetadata("cpptest.schema.packed"),
           R"({"type_schema":"{\"type\":\"ffi.Function\"}"})");
  CHECK_EQ(GlobalMetadata("cpptest.schema.missing"), "");
  // A plain SetGlobal replaces the function and its metadata; removing it drops both.
  Function::SetGlobal("cpptest.schema.add", Function::FromPacked([](PackedArgs, Any*) {}), true);
  CHECK_EQ(GlobalMetadata("cpptest.schema.add"), "");
  reflection::GlobalDef().def("cpptest.schema.add", [](int64_t a) { return a; });
  CHECK(!GlobalMetadata("cpptest.schema.add").empty());
  int removed = 0;
  TVMFFIByteArray add{"cpptest.schema.add", 18};
  CHECK_EQ(TVMFFIFunctionRemoveGlobal(&add, &removed), 0);
  CHECK_EQ(GlobalMetadata("cpptest.schema.add"), "");

  reflection::ObjectDef<Point>()
      .def_rw("x", &Point::x)
      .def_ro("label", &Point::label)
      .def("scaled", &Point::Scaled);
  CHECK_EQ(MemberMetadata(kTVMFFIMemberField, "x"), R"({"type_schema":"{\"type\":\"int\"}"})");
  CHECK_EQ(MemberMetadata(kTVMFFIMemberField, "label"),
           R"({"type_schema":"{\"type\":\"Optional\",\"args\":[{\"type\":\"ffi.String\"}]}"})");
  CHECK_EQ(MemberMetadata(kTVMFFIMemberMethod, "scaled"),
           R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
           R"([{\"type\":\"int\"}],\"params\":[{\"type\":\"cpptest.schema.Point\"},)"
           R"({\"type\":\"float\"}]}}"})");
  CHECK_EQ(MemberMetadata(kTVMFFIMemberField, "scaled"), "");  // a method, not a field
  CHECK_THROWS(RegisterMember(kTVMFFIMemberField, "nope"), "ValueError", "has no field `nope`");
  CHECK_THROWS(RegisterMember(7, "x"), "ValueError", "argument `kind`");
  RegisterMember(kTVMFFIMemberField, "x");  // registering again replaces it
  CHECK_EQ(MemberMetadata(kTVMFFIMemberField, "x"), "{}");
  return check::Report("type_schema");
}
