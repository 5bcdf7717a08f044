"""Container repr and hash as apache-tvm-ffi 0.1.15 has them; equal containers hash equal."""

import numpy as np
import pytest
import tvm_ffi
from tvm_ffi import Array, Dict, List, Map, Shape


def test_array_and_map_print_as_upstream():
    assert repr(Array([])) == "()" and repr(Map({})) == "{}"
    assert repr(Array([1])) == "(1,)"
    assert str(Array([1, 2])) == "(1, 2)"
    assert repr(Array([1, 2.5, "s", None, True, Array([3])])) == '(1, 2.5, "s", None, True, (3,))'
    assert repr(Map({"a": 1, 2: Array([1])})) == '{"a": 1, 2: (1,)}'
    assert repr(Map({"a": Map({1: Array([])})})) == '{"a": {1: ()}}'
    assert repr(List([Array([1]), List([])])) == "[(1,), []]"
    assert repr(Shape((1, 2))) == "(1, 2)" and repr(Shape((1,))) == "(1,)"


def test_values_inside_containers_print_as_upstream():
    # Floats with %g, strings escaped as upstream's printer does, bytes as b"..." with \xHH.
    assert repr(Array([0.1, 1 / 3, 100.0, 1e20, -0.0])) == "(0.1, 0.333333, 100, 1e+20, -0)"
    strings = Array(['a"b', "\\", "é\n", "\t\r\x01\x7f", "😀"])
    assert repr(strings) == r'("a\"b", "\\", "\u00e9\n", "\t\r\x01\x7f", "\U0001f600")'
    assert repr(Array([b'a"b\x00\xff\n\\ ~'])) == r'(b"a\x22b\x00\xff\x0a\x5c ~",)'
    # dtypes and devices bare, a Shape by name, a tensor as dtype[shape]@device.
    assert repr(Array([tvm_ffi.dtype("int8x4"), tvm_ffi.device("cuda", 1)])) == "(int8x4, cuda:1)"
    assert repr(Array([Shape((1, 2))])) == "(Shape(1, 2),)"
    tensor = tvm_ffi.from_dlpack(np.zeros((2, 3), dtype="float32"))
    scalar = tvm_ffi.from_dlpack(np.zeros((), dtype="int8"))
    assert repr(Array([tensor, scalar])) == "(float32[2, 3]@cpu:0, int8[]@cpu:0)"
    # Objects without fields by their type key; Python objects the FFI holds as themselves.
    assert repr(Map({"f": tvm_ffi.get_global_func("testing.nop")})) == '{"f": ffi.Function}'
    assert repr(Array([object()])) == "(ffi.OpaquePyObject,)"
    assert repr(Array([tvm_ffi.convert(ValueError("x"))])) == "(ffi.Error,)"


def test_reflected_objects_inside_containers_print_their_fields():
    from tvm_ffi import testing

    assert repr(Array([testing.TestIntPair(1, 2)])) == "(testing.TestIntPair(a=1, b=2),)"


def test_a_class_with_its_own_repr_keeps_it_inside_containers():
    # A Python class's __repr__ plays the part of upstream's __ffi_repr__ hook.
    assert repr(Array([tvm_ffi.system_lib()])) == f"({tvm_ffi.system_lib()!r},)"


def test_equal_containers_hash_equal_across_kinds():
    a, lst = Array([1, (2, 3), "s"]), List([1, (2, 3), "s"])
    assert a == lst and hash(a) == hash(lst) == hash((1, (2, 3), "s"))
    m, d = Map({"k": 1, 2: (3,)}), Dict({2: (3,), "k": 1})
    assert m == d and hash(m) == hash(d)
    assert len({a, lst}) == 1 and len({m, d}) == 1


def test_mutable_containers_hash_by_contents():
    # As upstream: List and Dict hash by value, so equal ones are one dict key and a change
    # changes the hash (like any key that is mutated while it is used as one).
    one, two = List([1, 2]), List([1, 2])
    assert one is not two and hash(one) == hash(two)
    before = hash(one)
    one.append(3)
    assert hash(one) != before and hash(one) == hash(List([1, 2, 3]))
    assert hash(Dict({"a": 1})) == hash(Dict({"a": 1})) != hash(Dict({"a": 2}))


def test_containers_that_hold_themselves_still_hash():
    lst = List([1])
    lst.append(lst)
    d = Dict({"x": 1})
    d["self"] = d
    assert hash(lst) == hash(lst) and hash(d) == hash(d)
    holder = Array([lst])
    assert hash(holder) == hash(Array([lst]))


def test_containers_with_unhashable_contents_are_unhashable():
    with pytest.raises(TypeError):
        hash(Map({"k": {"a set travels as itself, unhashable"}}))
    with pytest.raises(TypeError):
        hash(List([{"a", "set"}]))
