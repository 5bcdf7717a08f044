// Function: packed and typed calls, the TypeError message, and the global registry from C++.
#include <tvm_ffi/ffi.h>

#include "test_assertions.h"

using namespace tvm::ffi;  // NOLINT

namespace {
int ContextSafeCall(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->v_int64 = *static_cast<int*>(self) + n;
  return 0;
}
int context_freed = 0;
void FreeContext(void*) { ++context_freed; }
}  // namespace

int main() {
  Function packed = Function::FromPacked([](PackedArgs args, Any* rv) {
    int64_t total = 0;
    for (int32_t i = 0; i < args.size(); ++i) total += args[i].cast<int64_t>();
    *rv = total;
  });
  CHECK_EQ(packed(1, 2, 3).cast<int64_t>(), 6);
  CHECK_EQ(packed().cast<int64_t>(), 0);

  Function typed = Function::FromTyped(
      [](int64_t a, std::string b) { return b + std::to_string(a); }, "cpptest.concat");
  CHECK_EQ(typed(7, "n").cast<std::string>(), "n7");
  CHECK_THROWS(
      typed("x", "y"), "TypeError",
      "Mismatched type on argument #0 when calling: `cpptest.concat(0: int, 1: str) -> str`. "
      "Expected `int` but got `str`");
  CHECK_THROWS(typed(1), "TypeError", "Expected 2 but got 1 arguments");

  TypedFunction<int64_t(int64_t)> twice([](int64_t x) { return 2 * x; }, "cpptest.twice");
  CHECK_EQ(twice(21), 42);
  Function erased = twice;
  CHECK_EQ(erased(int64_t(4)).cast<int64_t>(), 8);

  // Exceptions in a body travel as the raised error and come back as Error.
  Function thrower = Function::FromTyped([]() { TVM_FFI_THROW(NotImplementedError) << "later"; });
  CHECK_THROWS(thrower(), "NotImplementedError", "later");

  // A C safe call with a context freed with the Function.
  static int base = 100;
  {
    Function c = Function::FromCSafeCall(&base, ContextSafeCall, FreeContext);
    CHECK_EQ(c(1, 2).cast<int64_t>(), 102);
  }
  CHECK_EQ(context_freed, 1);

  // The C entry points: create and call.
  TVMFFIObjectHandle handle = nullptr;
  CHECK_EQ(TVMFFIFunctionCreate(&base, ContextSafeCall, nullptr, &handle), 0);
  TVMFFIAny args[1];
  args[0].type_index = kTVMFFINone;
  args[0].v_int64 = 0;
  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  CHECK_EQ(TVMFFIFunctionCall(handle, args, 1, &result), 0);
  CHECK_EQ(result.v_int64, 101);
  TVMFFIObjectDecRef(handle);

  // Global registry.
  Function::SetGlobal("cpptest.add",
                      Function::FromTyped([](int64_t a, int64_t b) { return a + b; }));
  Optional<Function> got = Function::GetGlobal("cpptest.add");
  CHECK(got.has_value());
  CHECK_EQ((*got)(2, 3).cast<int64_t>(), 5);
  CHECK_THROWS(Function::SetGlobal("cpptest.add", packed), "KeyError", "cpptest.add");
  Function::SetGlobal("cpptest.add", packed, /*override=*/true);
  CHECK_EQ(Function::GetGlobalRequired("cpptest.add")(1, 1, 1).cast<int64_t>(), 3);
  CHECK(!Function::GetGlobal("cpptest.missing").has_value());
  CHECK_THROWS(Function::GetGlobalRequired("cpptest.missing"), "ValueError", "cpptest.missing");
  TVMFFIObjectHandle names = nullptr;
  CHECK_EQ(TVMFFIFunctionListGlobalNames(&names), 0);
  Array<String> list(
      details::ObjectUnsafe::FromOwnedHeader<Object>(static_cast<TVMFFIObject*>(names)));
  bool found = false;
  for (String n : list)
    found = found || n.view() == "cpptest.add";  // String == "literal" is ambiguous
  CHECK(found);
  TVMFFIByteArray key{"cpptest.add", 11};
  int removed = 0;
  CHECK_EQ(TVMFFIFunctionRemoveGlobal(&key, &removed), 0);
  CHECK_EQ(removed, 1);
  CHECK_EQ(TVMFFIFunctionRemoveGlobal(&key, &removed), 0);
  CHECK_EQ(removed, 0);

  // Built-in globals registered by libtvm_ffi are visible from C++.
  CHECK_EQ(Function::GetGlobalRequired("testing.add_one")(int64_t(1)).cast<int64_t>(), 2);
  return check::Report("function");
}
