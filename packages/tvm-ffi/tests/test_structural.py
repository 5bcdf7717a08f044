"""structural_equal / structural_hash / get_first_structural_mismatch / StructuralKey (C++ core)."""

import subprocess
import sys

import pytest
import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import (
    Object,
    StructuralKey,
    get_first_structural_mismatch,
    structural_equal,
    structural_hash,
)
from tvm_ffi.dataclasses import field, py_class


@py_class("test_structural.Node")
class Node(Object):
    value: int
    kids: list = field(default_factory=list)
    span: str = field(default="", structural_eq="ignore")


@py_class("test_structural.Var", structural_eq="var")
class Var(Object):
    name: str = field(structural_eq="ignore")


@py_class("test_structural.Lambda")
class Lambda(Object):
    params: list = field(structural_eq="def")
    body: Object = None


def test_containers_and_pods():
    assert structural_equal([1, 2, 3], [1, 2, 3])
    assert not structural_equal([1, 2, 3], [1, 2, 4])
    assert structural_equal({"a": [1, "x"]}, {"a": [1, "x"]})
    assert structural_equal({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert structural_hash({"a": 1, "b": 2}) == structural_hash({"b": 2, "a": 1})
    assert not structural_equal(1, 1.0) and not structural_equal(1, True)
    assert structural_equal(None, None) and structural_equal(float("nan"), float("nan"))
    assert structural_equal(tvm_ffi.Shape((1, 2)), tvm_ffi.Shape((1, 2)))
    assert structural_equal(tvm_ffi.dtype("int32"), tvm_ffi.dtype("int32"))
    assert structural_hash([1, 2]) == structural_hash([1, 2]) != structural_hash([2, 1])
    assert 0 <= structural_hash("a") < 2**64


def test_registered_objects_and_ignored_fields():
    assert structural_equal(Node(1, [Node(2)]), Node(1, [Node(2)]))
    assert not structural_equal(Node(1, [Node(2)]), Node(1, [Node(3)]))
    assert structural_equal(Node(1, span="a"), Node(1, span="b"))
    assert structural_hash(Node(1, span="a")) == structural_hash(Node(1, span="b"))


def test_mismatch_paths():
    assert get_first_structural_mismatch([1], [1]) is None
    lhs, rhs = get_first_structural_mismatch([1, [2, 3]], [1, [2, 4]])
    assert (repr(lhs), repr(rhs)) == ("<root>[1][1]", "<root>[1][1]")
    lhs, rhs = get_first_structural_mismatch({"a": 1}, {"b": 1})
    assert (repr(lhs), repr(rhs)) == ('<root>["a"]', '<root>[<missing:"a">]')
    lhs, rhs = get_first_structural_mismatch([1, 2], [1, 2, 3])
    assert (repr(lhs), repr(rhs)) == ("<root>[<missing:2>]", "<root>[2]")
    lhs, rhs = get_first_structural_mismatch(Node(1, [Node(2)]), Node(1, [Node(5)]))
    assert repr(lhs) == "<root>.kids[0].value"
    assert repr(get_first_structural_mismatch(1, 2)[0]) == "<root>"


def test_free_vars_and_def_regions():
    x, y = Var("x"), Var("y")
    assert structural_equal(Lambda([x], x), Lambda([y], y))
    assert structural_hash(Lambda([x], x)) == structural_hash(Lambda([y], y))
    assert not structural_equal(Lambda([x], x), Lambda([y], x))
    assert not structural_equal(x, y)
    assert structural_equal(x, y, map_free_vars=True)


def test_structural_key():
    keys = {StructuralKey([1, 2]), StructuralKey([1, 2]), StructuralKey([1, 3])}
    assert len(keys) == 2


def test_type_without_structural_kind_is_type_error():
    with pytest.raises(TypeError, match="testing.TestObjectBase"):
        structural_equal(t.TestObjectBase(1, 2.0, "a"), t.TestObjectBase(1, 2.0, "a"))
    with pytest.raises(TypeError, match="structural_hash"):
        structural_hash(object())


def test_bad_flags():
    with pytest.raises(TypeError, match="map_free_vars"):
        structural_equal(1, 1, map_free_vars=1)
    with pytest.raises(TypeError, match="skip_tensor_content"):
        structural_hash(1, skip_tensor_content="no")


def test_cycles_are_value_errors():
    a = Node(1)
    a.kids = [a]
    with pytest.raises(ValueError, match="cycle"):
        structural_equal(a, a)
    with pytest.raises(ValueError, match="cycle"):
        structural_hash(a)
    with pytest.raises(ValueError, match="cycle"):
        get_first_structural_mismatch(a, a)


def test_list_and_dict_compare_by_content():
    # As apache-tvm-ffi: the mutable containers compare and hash like Array and Map (they raised
    # TypeError "does not support structural comparison" before).
    assert structural_equal(tvm_ffi.List([1, "a", [2]]), tvm_ffi.List([1, "a", [2]]))
    assert not structural_equal(tvm_ffi.List([1, 2]), tvm_ffi.List([1, 3]))
    assert not structural_equal(tvm_ffi.List([1]), tvm_ffi.Array([1]))  # another type
    assert structural_hash(tvm_ffi.List([1, 2])) == structural_hash(tvm_ffi.List([1, 2]))
    assert structural_equal(tvm_ffi.Dict({"a": 1, "b": 2}), tvm_ffi.Dict({"b": 2, "a": 1}))
    assert structural_hash(tvm_ffi.Dict({"a": 1, "b": 2})) == structural_hash(
        tvm_ffi.Dict({"b": 2, "a": 1})
    )
    lhs, rhs = get_first_structural_mismatch(tvm_ffi.List([1, 2]), tvm_ffi.List([1, 5]))
    assert repr(lhs) == repr(rhs) == "<root>[1]"
    loop = tvm_ffi.List([1])
    loop.append(loop)
    with pytest.raises(ValueError, match="cycle"):
        structural_hash(loop)
    with pytest.raises(ValueError, match="cycle"):
        structural_equal(loop, loop)


def test_deep_value_is_recursion_error_not_a_crash():
    script = """
import tvm_ffi
from tvm_ffi import Object
from tvm_ffi.dataclasses import py_class
@py_class("deep.Node")
class N(Object):
    next: Object = None
v = None
for _ in range(100000):
    v = N(v)
try:
    tvm_ffi.structural_hash(v)
except RecursionError as err:
    print("RecursionError", "deeper" in str(err))
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "RecursionError True"
