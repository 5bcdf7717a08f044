"""tvm_ffi.stub.lib_state / tvm_ffi.stub.utils: what the registry holds, as stubgen reads it."""

import pytest
import tvm_ffi.testing  # noqa: F401 - registers the testing.* globals and types
from tvm_ffi.core import TypeSchema
from tvm_ffi.stub import lib_state
from tvm_ffi.stub.utils import MISSING, FuncInfo, NamedTypeSchema, ObjectInfo, Options


def test_registered_type_keys_and_global_funcs():
    keys = list(lib_state.GetRegisteredTypeKeys())
    assert "ffi.Object" in keys and "testing.TestIntPair" in keys
    groups = lib_state.collect_type_keys()
    assert "testing.TestIntPair" in groups["testing"]
    funcs = lib_state.collect_global_funcs()
    names = [f.schema.name for f in funcs["testing"]]
    assert "testing.add_one" in names and names == sorted(names)


def test_object_info_carries_the_field_layout_facts():
    info = lib_state.object_info_from_type_key("testing.TestIntPair")
    assert info is lib_state.object_info_from_type_key("testing.TestIntPair")  # cached
    assert info.parent_type_key == "ffi.Object" and info.ancestors == ["ffi.Object"]
    a, b = info.fields
    assert (a.name, a.offset, a.size, a.alignment, a.frozen) == ("a", 24, 8, 8, True)
    assert b.offset == 32 and a.default is MISSING and not a.default_is_factory
    assert a.repr() == "int"
    assert info.has_init and not info.has_overloaded_methods()
    # This registry does not publish sizeof / finality (but the root header's): unknown.
    assert info.total_size is None and info.is_final is None


def test_toposort_puts_ancestors_first_and_drops_duplicates():
    keys = ["testing.TestCxxClassDerived", "testing.TestObjectDerived", "testing.TestCxxClassBase"]
    order = [o.type_key for o in lib_state.toposort_objects([*keys, keys[0]])]
    assert order == [
        "testing.TestCxxClassBase",
        "testing.TestCxxClassDerived",
        "testing.TestObjectDerived",
    ]
    order = [o.type_key for o in lib_state.toposort_objects(["testing.TestIntPair", "ffi.Object"])]
    assert order == ["ffi.Object", "testing.TestIntPair"]


def test_unknown_type_key_is_a_value_error():
    with pytest.raises(ValueError, match="Cannot find type key: no.such"):
        lib_state.object_info_from_type_key("no.such")
    with pytest.raises(ValueError, match="Cannot find type key: no.such"):
        lib_state.toposort_objects(["testing.TestIntPair", "no.such"])


def test_data_model_values():
    schema = NamedTypeSchema("f", TypeSchema("int"), size=4, alignment=4, offset=24)
    assert (schema.origin, schema.size, schema.structural_eq) == ("int", 4, None)
    func = FuncInfo.from_schema("m", TypeSchema("Callable"), is_member=True)
    twice = ObjectInfo(fields=[], methods=[func, func], type_key="a.A")
    assert twice.has_overloaded_methods()
    opt = Options()
    assert (opt.target, opt.coverage_out, opt.indent, opt.init) == ("python", None, 4, None)
