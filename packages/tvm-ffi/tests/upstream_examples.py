"""apache-tvm-ffi's documented quick-start plugins (its include paths) and the checks they pass."""

# The quick start: add_one over TensorView, exported with TVM_FFI_DLL_EXPORT_TYPED_FUNC.
ADD_ONE = r"""
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>

namespace quickstart {
void AddOne(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  TVM_FFI_ICHECK(x.ndim() == 1) << "x must be a 1D tensor";
  DLDataType f32_dtype{kDLFloat, 32, 1};
  TVM_FFI_ICHECK(x.dtype() == f32_dtype) << "x must be a float tensor";
  TVM_FFI_ICHECK_EQ(x.size(0), y.size(0)) << "x and y must have the same shape";
  float* x_data = static_cast<float*>(x.data_ptr());
  float* y_data = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0; i < x.size(0); ++i) y_data[i] = x_data[i] + 1;
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one_cpu, quickstart::AddOne);
}  // namespace quickstart
"""

# The packaging guide's extension: a typed global function and a registered object type with fields.
INT_PAIR = r"""
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace my_ffi_extension {
namespace ffi = tvm::ffi;

static int AddTwo(int x) { return x + 2; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_two, AddTwo)

static int AddOne(int x) { return x + 1; }
static void RaiseError(const ffi::String& msg) { TVM_FFI_THROW(RuntimeError) << msg; }

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def("my_ffi_extension.add_one", AddOne)
      .def("my_ffi_extension.raise_error", RaiseError);
}

class IntPairObj : public ffi::Object {
 public:
  int64_t a;
  int64_t b;
  IntPairObj(int64_t a, int64_t b) : a(a), b(b) {}
  int64_t Sum() const { return a + b; }
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("my_ffi_extension.IntPair", IntPairObj, ffi::Object);
};

class IntPair : public ffi::ObjectRef {
 public:
  IntPair(int64_t a, int64_t b) { data_ = ffi::make_object<IntPairObj>(a, b); }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(IntPair, ffi::ObjectRef, IntPairObj);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<IntPairObj>()
      .def(refl::init<int64_t, int64_t>())
      .def_rw("a", &IntPairObj::a, "the first field")
      .def_ro("b", &IntPairObj::b, "the second field")
      .def("sum", &IntPairObj::Sum, "IntPairObj::Sum() method");
  refl::GlobalDef().def("my_ffi_extension.pair_sum", [](const IntPair& p) { return p->Sum(); });
}
}  // namespace my_ffi_extension
"""

# Run in a child Python with the library path as argv[1]: every documented behaviour of ADD_ONE.
CHECK_ADD_ONE = r"""
import sys
import numpy as np
import tvm_ffi
mod = tvm_ffi.load_module(sys.argv[1])
x = np.arange(5, dtype="float32"); y = np.empty_like(x)
mod.add_one_cpu(x, y)
assert (y == x + 1).all(), y
mod.add_one_cpu(tvm_ffi.from_dlpack(x), tvm_ffi.from_dlpack(y))
for bad, text in (
    (np.zeros((2, 2), "float32"), "Check failed: (x.ndim() == 1) is false: x must be a 1D tensor"),
    (np.arange(5), "x must be a float tensor"),
    (np.zeros(3, "float32"), "Check failed: x.size(0) == y.size(0) (3 vs. 5): x and y must"),
):
    try:
        mod.add_one_cpu(bad, y)
    except RuntimeError as err:
        assert text in str(err), err
    else:
        raise AssertionError("no error for " + text)
try:
    mod.add_one_cpu(1, y)
except TypeError as err:
    assert "argument #0" in str(err) and "DLTensor*" in str(err), err
else:
    raise AssertionError("no TypeError")
print("ok")
"""

# Run in a child Python with the library path as argv[1]: the object, its fields and the globals.
CHECK_INT_PAIR = r"""
import sys
import tvm_ffi
mod = tvm_ffi.load_module(sys.argv[1])
assert mod.add_two(40) == 42
assert tvm_ffi.get_global_func("my_ffi_extension.add_one")(41) == 42

@tvm_ffi.register_object("my_ffi_extension.IntPair")
class IntPair(tvm_ffi.Object):
    pass

p = IntPair(1, 2)
assert (p.a, p.b, p.sum()) == (1, 2, 3)
p.a = 10
assert tvm_ffi.get_global_func("my_ffi_extension.pair_sum")(p) == 12
try:
    p.b = 3
except AttributeError:
    pass
else:
    raise AssertionError("a read-only field was assigned")
try:
    tvm_ffi.get_global_func("my_ffi_extension.raise_error")("boom")
except RuntimeError as err:
    assert "boom" in str(err)
else:
    raise AssertionError("no RuntimeError")
try:
    IntPair("x", 2)
except TypeError as err:
    assert "argument #0" in str(err), err
else:
    raise AssertionError("no TypeError")
print("ok")
"""
