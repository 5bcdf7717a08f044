"""Reflection introspection (TypeInfo and friends), reflected repr, copy, deepcopy and pickling."""

import copy
import pickle
import sys

import pytest
import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi.core import TypeField, TypeInfo, TypeMethod, TypeSchema


def test_type_info_of_registered_class():
    info = t.TestObjectDerived.__tvm_ffi_type_info__
    assert isinstance(info, TypeInfo)
    assert info.type_key == "testing.TestObjectDerived"
    assert info.type_cls is t.TestObjectDerived
    assert [f.name for f in info.fields] == ["v_map", "v_array"]
    assert info.parent_type_info.type_key == "testing.TestObjectBase"
    assert [f.name for f in info.parent_type_info.fields] == ["v_i64", "v_f64", "v_str"]
    assert info.type_ancestors[-1] == info.parent_type_info.type_index
    assert info.parent_type_info.parent_type_info.type_key == "ffi.Object"


def test_type_field_attributes():
    v_i64, v_f64, v_str = t.TestObjectBase.__tvm_ffi_type_info__.fields
    assert isinstance(v_i64, TypeField)
    assert (v_i64.frozen, v_f64.frozen, v_str.frozen) == (False, True, False)  # upstream's
    # default_value(...) of the C++ registration; the generated __ffi_init__ takes every field.
    assert [(f.c_has_default, f.c_default) for f in (v_i64, v_f64, v_str)] == [
        (True, 10),
        (True, 10.0),
        (True, "hello"),
    ]
    assert all(f.c_init and not f.c_kw_only for f in (v_i64, v_f64, v_str))
    assert v_i64.doc == "i64 field"
    assert v_i64.ty is int and v_f64.ty is float
    assert (v_i64.field_static_type_index, v_f64.field_static_type_index) == (1, 3)
    assert v_i64.size == 8 and v_i64.offset > 0 and v_str.offset > v_f64.offset
    obj = t.TestObjectBase(5, 1.5, "s")
    assert v_i64.getter.__get__(obj) == 5


def test_type_method_attributes():
    methods = {m.name: m for m in t.TestObjectBase.__tvm_ffi_type_info__.methods}
    assert isinstance(methods["add_i64"], TypeMethod)
    assert methods["__ffi_init__"].is_static and not methods["add_i64"].is_static
    assert methods["add_i64"].func(t.TestObjectBase(1, 2.0, "a"), 2) == 3


def test_type_schema():
    assert TypeSchema.from_type_index(1).repr() == "int"
    assert TypeSchema.from_type_index(-1).repr() == "Any"
    assert TypeSchema("ffi.Array", (TypeSchema("int"),)).repr() == "ffi.Array[int]"


def test_reflected_repr_matches_upstream_format():
    obj = t.create_object(
        "testing.TestObjectDerived", v_i64=1, v_f64=2.0, v_str="x", v_map={"k": 1}, v_array=[1, "a"]
    )
    assert repr(obj) == (
        'testing.TestObjectDerived(v_i64=1, v_f64=2, v_str="x", v_map={"k": 1}, v_array=(1, "a"))'
    )


def test_frozen_field_assignment_is_refused():
    obj = t.TestObjectBase(1, 2.0, "s")
    with pytest.raises(AttributeError, match="v_f64"):
        obj.v_f64 = 3.0
    obj.v_i64 = 4
    assert obj.v_i64 == 4
    # The escape hatch writes a read-only field.
    type(obj).v_f64.set(obj, 9.0)
    assert obj.v_f64 == 9.0


def test_unknown_attribute_is_attribute_error():
    with pytest.raises(AttributeError):
        _ = t.TestObjectBase(1, 2.0, "s").no_such_field


def test_copy_is_a_new_object_with_the_same_fields():
    obj = t.TestObjectBase(1, 2.0, "s")
    dup = copy.copy(obj)
    assert not dup.same_as(obj)
    assert (dup.v_i64, dup.v_f64, dup.v_str) == (1, 2.0, "s")


def test_deepcopy_copies_nested_objects():
    inner = t.TestObjectBase(1, 2.0, "s")
    obj = t.create_object("testing.TestObjectDerived", v_map={"k": inner}, v_array=[inner, inner])
    dup = copy.deepcopy(obj)
    assert not dup.v_array[0].same_as(inner)
    assert dup.v_array[0].same_as(dup.v_array[1])  # sharing is kept
    assert dup.v_array[0].v_str == "s"


def test_pickle_round_trip():
    obj = t.create_object(
        "testing.TestObjectDerived",
        v_i64=3,
        v_map={"a": 1},
        v_array=[1, t.TestObjectBase(1, 2.0, "s")],
    )
    back = pickle.loads(pickle.dumps(obj))
    assert type(back) is t.TestObjectDerived
    assert repr(back) == repr(obj)


def test_copy_of_uncopyable_type_is_type_error():
    with pytest.raises(TypeError, match="copy"):
        copy.copy(tvm_ffi.get_global_func("testing.echo"))


@pytest.mark.skipif(
    sys.version_info < (3, 13), reason="copy.replace needs Python 3.13 (this interpreter is older)"
)
def test_reflection_records_support_copy_replace():
    schema = TypeSchema("list", ())
    changed = copy.replace(schema, origin="dict")
    assert changed.origin == "dict" and schema.origin == "list"
    with pytest.raises(TypeError, match="unexpected field"):
        copy.replace(schema, nonsense=1)
