"""testing.TestObjectDerived's container fields v_map and v_array, laid out as apache-tvm-ffi's."""

import pytest
import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi._ffi_api import RecursiveEq, RecursiveHash


def make(**fields):
    return t.create_object("testing.TestObjectDerived", **fields)


def test_fields_follow_upstream_order_and_types():
    info = t.TestObjectDerived.__tvm_ffi_type_info__
    v_map, v_array = info.fields
    assert [f.name for f in info.all_fields()] == ["v_i64", "v_f64", "v_str", "v_map", "v_array"]
    assert v_map.metadata["type_schema"] == (
        '{"type":"ffi.Map","args":[{"type":"Any"},{"type":"Any"}]}'
    )
    assert v_array.metadata["type_schema"] == '{"type":"ffi.Array","args":[{"type":"Any"}]}'
    assert not v_map.frozen and not v_array.frozen
    assert v_map.offset < v_array.offset


def test_v_map_holds_a_map_and_is_writable():
    obj = make(v_map={"a": 1}, v_array=[])
    assert isinstance(obj.v_map, tvm_ffi.Map) and dict(obj.v_map) == {"a": 1}
    obj.v_map = {"b": [2]}
    assert list(obj.v_map.keys()) == ["b"] and list(obj.v_map["b"]) == [2]
    assert 'v_map={"b": (2,)}' in repr(obj)


def test_v_map_takes_part_in_recursive_eq_and_hash():
    a = make(v_map={"k": 1}, v_array=[1])
    b = make(v_map={"k": 1}, v_array=[1])
    c = make(v_map={"k": 2}, v_array=[1])
    assert RecursiveEq(a, b) and not RecursiveEq(a, c)
    assert RecursiveHash(a) == RecursiveHash(b)


def test_v_map_refuses_a_non_map():
    obj = make(v_map={}, v_array=[])
    with pytest.raises(TypeError, match="Map"):
        obj.v_map = [1, 2]
    with pytest.raises(TypeError, match="v_map"):
        make(v_map=3, v_array=[])
    assert dict(obj.v_map) == {}  # the failed assignment left the field alone
