"""tvm_ffi.dataclasses.gen_abi_cpp: C++ views of registered types that read live objects."""

import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers the testing.* types)
from native_build import build_library, run_python
from tvm_ffi.dataclasses.gen_abi_cpp import gen_abi_cpp

_READER = r"""
#include "views.h"

namespace ffi = tvm::ffi;

static ffi::Array<ffi::Any> ReadDerived(ffi::ObjectRef obj) {
  const auto* d = obj.as<testing::TestObjectDerivedObj>();
  TVM_FFI_ICHECK(d != nullptr) << "not a TestObjectDerived";
  return {d->v_i64, d->v_f64, d->v_str, d->v_map, d->v_array};
}
static ffi::Array<ffi::Any> ReadCxx(ffi::ObjectRef obj) {
  const auto* d = obj.as<testing::TestCxxClassDerivedDerivedObj>();
  TVM_FFI_ICHECK(d != nullptr) << "not a TestCxxClassDerivedDerived";
  return {d->v_i64, static_cast<int64_t>(d->v_i32), d->v_f64, static_cast<double>(d->v_f32),
          d->v_str, d->v_bool};
}
static bool IsBase(ffi::ObjectRef obj) { return obj.as<testing::TestObjectBaseObj>() != nullptr; }
static ffi::ObjectRef HeldValue(ffi::ObjectRef obj) {
  return obj.as<testing::TestObjectPtrHolderObj>()->value;
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(read_derived, ReadDerived)
TVM_FFI_DLL_EXPORT_TYPED_FUNC(read_cxx, ReadCxx)
TVM_FFI_DLL_EXPORT_TYPED_FUNC(is_base, IsBase)
TVM_FFI_DLL_EXPORT_TYPED_FUNC(held_value, HeldValue)
"""

_CHECK = r"""
import sys
import tvm_ffi, tvm_ffi.testing as t
mod = tvm_ffi.load_module(sys.argv[1])
d = t.TestObjectDerived({"k": 1}, [2, "x"], 7, 1.5, "hello")
i64, f64, s, m, a = mod.read_derived(d)
assert (i64, f64, s, dict(m), list(a)) == (7, 1.5, "hello", {"k": 1}, [2, "x"])
c = t._TestCxxClassDerivedDerived(1, 2, 3.5, True, 4.5, "cx")
assert list(mod.read_cxx(c)) == [1, 2, 3.5, 4.5, "cx", True]
assert mod.is_base(d) and not mod.is_base(c)
base = t.TestObjectBase()
assert mod.held_value(t.TestObjectPtrHolder(base)).same_as(base)
print("ok")
"""


def test_views_read_live_objects(tmp_path):
    header = gen_abi_cpp(
        [
            "testing.TestObjectDerived",
            "testing.TestCxxClassDerivedDerived",
            "testing.TestObjectPtrHolder",
        ]
    )
    (tmp_path / "views.h").write_text(header)
    lib = build_library(tmp_path, "views", f"#include <cstdint>\n{_READER}", "cc", link_ffi=True)
    # A child process: a loaded library stays loaded.
    done = run_python(_CHECK, lib, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stdout + done.stderr


def test_header_shape():
    header = gen_abi_cpp("testing.TestObjectDerived")
    # The ancestor comes along, first; the derived view derives from it.
    assert header.index("struct TestObjectBaseObj : public ::tvm::ffi::Object {") < header.index(
        "struct TestObjectDerivedObj : public ::testing::TestObjectBaseObj {"
    )
    assert 'TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("testing.TestObjectDerived", 2);' in header
    assert "  ::tvm::ffi::Map<::tvm::ffi::Any, ::tvm::ffi::Any> v_map;" in header
    assert "static_assert(offsetof(TestObjectDerivedObj, v_array) ==" in header
    assert gen_abi_cpp(["testing.TestObjectDerived"]) == header  # deterministic
    assert "TestIntPairObj" in gen_abi_cpp("testing.TestInt*")  # shell-style patterns
    assert tvm_ffi.dataclasses.gen_abi_cpp is gen_abi_cpp  # as upstream exports it


@pytest.mark.parametrize(
    "selector, error, match",
    [
        (5, TypeError, "`type_keys` must be a str or a sequence of str, got int"),
        (["testing.TestIntPair", 3], TypeError, "`type_keys` must be a str or a sequence"),
        ("no.such.*", ValueError, "selector 'no.such.\\*' did not match any registered type"),
    ],
)
def test_bad_selectors(selector, error, match):
    with pytest.raises(error, match=match):
        gen_abi_cpp(selector)


def test_types_without_a_cpp_view_are_refused():
    from tvm_ffi.dataclasses import py_class

    @py_class("gen_abi.bad-key")
    class BadKey(tvm_ffi.Object):
        x: int

    with pytest.raises(ValueError, match="type key 'gen_abi.bad-key' does not map to C\\+\\+"):
        gen_abi_cpp("gen_abi.bad-key")

    @py_class("gen_abi.PyInt")
    class PyInt(tvm_ffi.Object):
        x: int

    # A Python-defined field is an Any slot: no int carrier has its layout.
    with pytest.raises(ValueError, match=r"gen_abi.PyInt.x: a int field with layout \(16, 8\)"):
        gen_abi_cpp("gen_abi.PyInt")
