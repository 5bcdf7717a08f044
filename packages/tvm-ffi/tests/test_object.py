"""Object identity, hashing, repr, reflected fields and methods, and reference counts."""

import pytest
import tvm_ffi
from native_build import build_library, run_python
from tvm_ffi import testing


def make_base():
    return testing.TestObjectBase(1, 2.0, "s")


def test_identity_equality_and_same_as():
    a = make_base()
    b = make_base()
    back = testing.echo(a)
    assert back == a
    assert back.same_as(a)
    assert a != b
    assert not a.same_as(b)
    assert hash(back) == hash(a)
    assert len({a, back, b}) == 2


@pytest.mark.parametrize(
    "make, key",
    [(make_base, "TestObjectBase"), (lambda: tvm_ffi.get_global_func("testing.nop"), "Function")],
    ids=["reflected", "function"],
)
def test_repr_names_type_and_address(make, key):
    obj = make()
    text = repr(obj)
    assert "%" not in text
    assert key in text


def test_repr_as_upstream_prints_it(monkeypatch):
    # Field-less objects by type key, tensors as dtype[shape]@device, reflected objects with
    # their fields; TVM_FFI_REPR_WITH_ADDR=1 adds each object's address, as upstream.
    import numpy as np

    func = tvm_ffi.get_global_func("testing.nop")
    tensor = tvm_ffi.from_dlpack(np.zeros((2, 3), dtype="float32"))
    obj = testing.make_unregistered_object()
    assert repr(func) == "ffi.Function"
    assert repr(tensor) == "float32[2, 3]@cpu:0"
    assert repr(obj) == "testing.TestUnregisteredObject(v1=41, v2=42)"
    monkeypatch.setenv("TVM_FFI_REPR_WITH_ADDR", "1")
    assert repr(func) == f"ffi.Function@{hex(func.__ffi_handle__)}"
    assert repr(tensor) == f"float32[2, 3]@cpu:0@{hex(tensor.__ffi_handle__)}"
    assert repr(obj) == f"testing.TestUnregisteredObject@{hex(obj.__ffi_handle__)}(v1=41, v2=42)"


def test_fields_and_method():
    obj = make_base()
    assert isinstance(obj, tvm_ffi.Object)
    assert obj.v_i64 == 1
    assert obj.v_f64 == 2.0
    assert obj.v_str == "s"
    assert obj.add_i64(41) == 42
    assert obj.__ffi_type_key__ == "testing.TestObjectBase"


def test_writable_field_and_read_only_field():
    obj = make_base()
    obj.v_i64 = 85
    assert obj.v_i64 == 85
    assert testing.echo(obj).v_i64 == 85  # the C++ object itself changed
    with pytest.raises(AttributeError, match="v_f64"):
        obj.v_f64 = 3.0
    with pytest.raises(TypeError):
        obj.v_i64 = "not an int"
    assert obj.v_i64 == 85


def test_constructor_checks_arguments():
    # The constructor C++ made from the fields names the field a bad value was for.
    with pytest.raises(TypeError, match=r"TestObjectBase.__ffi_init__\(\) field 'v_i64'"):
        testing.TestObjectBase("x", 2.0, "s")
    with pytest.raises(TypeError, match=r"takes at most 3 positional argument\(s\), but 4"):
        testing.TestObjectBase(1, 2.0, "s", 4)


def test_derived_object():
    obj = testing.create_object(
        "testing.TestObjectDerived", v_i64=3, v_str="derived", v_map={}, v_array=[1, "two"]
    )
    assert isinstance(obj, testing.TestObjectBase)
    assert isinstance(obj, testing.TestObjectDerived)
    assert obj.v_i64 == 3
    assert obj.v_str == "derived"
    assert isinstance(obj.v_array, tvm_ffi.Array)
    assert obj.v_array == [1, "two"]
    assert obj.add_i64(1) == 4  # inherited method
    assert testing.echo(obj).__class__ is testing.TestObjectDerived


def test_method_called_on_wrong_object_type():
    with pytest.raises(TypeError):
        testing.TestObjectBase.add_i64(tvm_ffi.Array([1]), 1)


def test_use_count_balances_through_containers():
    obj = make_base()
    base = testing.object_use_count(obj)
    assert base >= 1
    arr = tvm_ffi.Array([obj])
    assert testing.object_use_count(obj) == base + 1
    m = tvm_ffi.Map({"k": obj})
    assert testing.object_use_count(obj) == base + 2
    del arr
    assert testing.object_use_count(obj) == base + 1
    del m
    assert testing.object_use_count(obj) == base


def test_use_count_unchanged_by_calls():
    obj = make_base()
    base = testing.object_use_count(obj)
    for _ in range(100):
        testing.echo(obj)
        testing.echo([obj, obj])
        testing.apply(lambda x: x, obj)
    assert testing.object_use_count(obj) == base


def test_register_object_rebinds_the_returned_class():
    @tvm_ffi.register_object("testing.TestObjectBase")
    class Rebound(tvm_ffi.Object):
        pass

    try:
        got = testing.echo(make_base())
        assert type(got) is Rebound
        assert got.v_i64 == 1
    finally:
        tvm_ffi.register_object("testing.TestObjectBase")(testing.TestObjectBase)
    assert type(testing.echo(make_base())) is testing.TestObjectBase


def test_register_object_rejects_non_object_class():
    with pytest.raises(TypeError):

        @tvm_ffi.register_object("testing.TestObjectBase")
        class NotAnObject:
            pass


# A type defined in a header: every library built with it registers its fields at load time.
POINT_LIBRARY = r"""
#include <tvm_ffi/ffi.h>

using namespace tvm::ffi;

class PointObj : public Object {
 public:
  int64_t x, y;
  PointObj(int64_t x, int64_t y) : x(x), y(y) {}
  TVM_FFI_DECLARE_OBJECT_INFO("plugin.Point", PointObj, Object);
};

// The same type key with another layout, registered on request.
class OtherPointObj : public Object {
 public:
  int32_t tag;
  int64_t y, x;
  TVM_FFI_DECLARE_OBJECT_INFO("plugin.Point", OtherPointObj, Object);
};
void RegisterOtherLayout() {
  reflection::ObjectDef<OtherPointObj>().def_ro("x", &OtherPointObj::x);
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(register_other_layout, RegisterOtherLayout);

TVM_FFI_STATIC_INIT_BLOCK({
  reflection::ObjectDef<PointObj>()
      .def_ro("x", &PointObj::x)
      .def_ro("y", &PointObj::y)
      .def_static("__ffi_init__", [](int64_t x, int64_t y) {
        return ObjectRef(make_object<PointObj>(x, y));
      });
});
"""

POINT_SCRIPT = """
import sys, tvm_ffi
first = tvm_ffi.load_module(sys.argv[1])
index = tvm_ffi._core.type_key_to_index("plugin.Point")
early = dict((name, d) for name, _, d in tvm_ffi._core.type_info(index)["fields"])
tvm_ffi.load_module(sys.argv[2])

@tvm_ffi.register_object("plugin.Point")
class Point(tvm_ffi.Object):
    pass

info = tvm_ffi._core.type_info(index)
assert [f[0] for f in info["fields"]] == ["x", "y"], info["fields"]
# ObjectDef adds __ffi_shallow_copy__ (copy.copy) to every copyable type; each name is there once.
assert [m[0] for m in info["methods"]] == ["__ffi_shallow_copy__", "__ffi_init__"], info["methods"]
p = Point(3, 4)
assert (p.x, p.y) == (3, 4)
assert (early["x"].__get__(p), early["y"].__get__(p)) == (3, 4)
try:
    first.register_other_layout()
except ValueError as err:
    assert "plugin.Point" in str(err) and "`x`" in str(err) and "offset" in str(err), err
else:
    raise AssertionError("a field with another layout was accepted")
assert [f[0] for f in tvm_ffi._core.type_info(index)["fields"]] == ["x", "y"]
print("done")
"""


def test_two_libraries_registering_the_same_fields(tmp_path):
    first = build_library(tmp_path, "point_one", POINT_LIBRARY, "c++", link_ffi=True)
    second = build_library(tmp_path, "point_two", POINT_LIBRARY, "c++", link_ffi=True)
    # A child process: the type registry is process-wide.
    result = run_python(POINT_SCRIPT, first, second)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "done"
