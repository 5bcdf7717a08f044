"""List and Dict: mutable FFI containers shared by reference (no copy-on-write), as upstream's."""

import collections.abc
import copy
import pickle
import threading

import pytest
import tvm_ffi
from tvm_ffi import Dict, List, testing


def test_list_is_a_mutable_sequence_shared_through_the_ffi():
    lst = List([1, 2, 3])
    assert isinstance(lst, collections.abc.MutableSequence)
    back = testing.echo(lst)
    assert isinstance(back, List) and back.__ffi_handle__ == lst.__ffi_handle__
    back.append(4)  # a change through the returned reference is seen through the first one
    assert list(lst) == [1, 2, 3, 4]
    assert lst == [1, 2, 3, 4] and lst == List([1, 2, 3, 4])


def test_list_mutators_match_python_list():
    lst, ref = List([1, 2, 3, 4, 5]), [1, 2, 3, 4, 5]
    for target in (lst, ref):
        target[0] = 10
        target[1:3] = [7, 8, 9]
        del target[0]
        target.insert(100, 6)
        target.insert(-100, 0)
        target.extend([1, 2])
        target.reverse()
        target.remove(1)
        target[::2] = [0] * len(target[::2])
        del target[::3]
    assert list(lst) == ref
    assert lst.pop() == ref.pop() and lst.pop(0) == ref.pop(0)
    assert lst.index(ref[0]) == 0 and lst.count(0) == ref.count(0)
    assert lst[::-1] == ref[::-1] and list(reversed(lst)) == ref[::-1]
    lst.clear()
    assert len(lst) == 0 and list(lst) == []


def test_list_keeps_nested_values_and_pickles():
    lst = List([1, "a", [2, 3], {"k": 1}])
    assert isinstance(lst[2], tvm_ffi.Array) and isinstance(lst[3], tvm_ffi.Map)
    again = pickle.loads(pickle.dumps(List([1, 2])))
    assert isinstance(again, List) and again == [1, 2]
    assert isinstance(List([1]) + [2], List)


@pytest.mark.parametrize(
    "bad", [lambda: List([1]) + 5, lambda: 5 + List([1]), lambda: List([1]) + None]
)
def test_list_concatenation_with_a_non_sequence_is_unsupported(bad):
    with pytest.raises(TypeError, match="unsupported operand"):
        bad()


def test_list_extend_with_itself_doubles_once():
    lst = List([1, 2])
    lst.extend(lst)
    assert lst == [1, 2, 1, 2]


@pytest.mark.parametrize(
    "bad, exc",
    [
        (lambda lst: lst[100], IndexError),
        (lambda lst: lst.pop(100), IndexError),
        (lambda lst: List().pop(), IndexError),
        (lambda lst: lst.__setitem__(100, 1), IndexError),
        (lambda lst: lst["x"], TypeError),
        (lambda lst: lst.insert("x", 1), TypeError),
        (lambda lst: lst.remove(99), ValueError),
        (lambda lst: lst.index(99), ValueError),
        (lambda lst: lst.__setitem__(slice(None, None, 2), [1, 2, 3, 4, 5]), ValueError),
        (lambda lst: List(5), TypeError),
    ],
)
def test_list_bad_input(bad, exc):
    with pytest.raises(exc):
        bad(List([1, 2, 3]))


def test_list_index_error_names_the_function():
    with pytest.raises(IndexError, match="ListGetItem.*out of range"):
        List([1])[5]


def test_dict_is_a_shared_mutable_mapping():
    d = Dict({"a": 1})
    assert isinstance(d, collections.abc.MutableMapping)
    back = testing.echo(d)
    back["b"] = 2
    assert d == {"a": 1, "b": 2}
    assert list(d.keys()) == ["a", "b"] and list(d.values()) == [1, 2]
    assert d.items() == [("a", 1), ("b", 2)]
    assert "a" in d and "zz" not in d and d.get("zz") is None and d.get("a") == 1


def test_dict_mutators_match_python_dict():
    d, ref = Dict({"a": 1, "b": 2}), {"a": 1, "b": 2}
    for target in (d, ref):
        target["c"] = 3
        del target["a"]
        target.setdefault("x", 9)
        target.update({"y": 5}, z=6)
    assert d == ref
    assert d.pop("b") == ref.pop("b") and d.pop("nope", None) is None
    assert d.popitem() == ref.popitem()
    d.clear()
    assert len(d) == 0


def test_dict_keeps_insertion_order_and_pickles():
    d = Dict({3: "c", 1: "a", 2: "b"})
    assert list(d) == [3, 1, 2]
    again = pickle.loads(pickle.dumps(d))
    assert isinstance(again, Dict) and again == {3: "c", 1: "a", 2: "b"}


@pytest.mark.parametrize(
    "bad, exc",
    [
        (lambda d: d["nope"], KeyError),
        (lambda d: d.pop("nope"), KeyError),
        (lambda d: d.__delitem__("nope"), KeyError),
        (lambda d: Dict().popitem(), KeyError),
        (lambda d: Dict(5), TypeError),
        (lambda d: Dict([("a", 1)]), TypeError),
    ],
)
def test_dict_bad_input(bad, exc):
    with pytest.raises(exc):
        bad(Dict({"a": 1}))


def test_mutable_containers_hash_by_contents():
    # As apache-tvm-ffi: equal Lists (Dicts) hash equal, consistently with ==.
    a, b = List([1]), List([1])
    assert a == b and hash(a) == hash(b)
    assert hash(testing.echo(a)) == hash(a)
    d = Dict()
    assert hash(testing.echo(d)) == hash(d) == hash(Dict())


def test_native_functions_check_the_container_kind():
    size = tvm_ffi.get_global_func("ffi.ListSize")
    with pytest.raises(TypeError, match="ffi.ListSize: argument #0 must be an ffi.List"):
        size(tvm_ffi.Array([1]))
    with pytest.raises(TypeError, match="ffi.DictSize: argument #0 must be an ffi.Dict"):
        tvm_ffi.get_global_func("ffi.DictSize")({"a": 1})


def test_list_is_shared_where_a_list_is_expected_and_copied_where_an_array_is():
    lst = List([1, 2])
    assert testing.schema_id_list_int(lst).same_as(lst)  # the same object crosses the FFI
    snapshot = testing.schema_id_arr_int(lst)  # an Array<int> parameter gets a copy
    assert isinstance(snapshot, tvm_ffi.Array) and not snapshot.same_as(lst)
    lst.append(3)
    assert list(snapshot) == [1, 2]
    from_python = testing.schema_id_list_int([1, 2])  # a Python list becomes a new List
    assert isinstance(from_python, List) and list(from_python) == [1, 2]
    assert list(testing.schema_id_list_str(List(["a"]))) == ["a"]
    with pytest.raises(TypeError, match="testing.schema_id_list_int"):
        testing.schema_id_list_int(List(["x"]))


def test_dict_is_shared_where_a_dict_is_expected_and_copied_where_a_map_is():
    d = Dict({"a": 1})
    assert testing.schema_id_dict_str_int(d).same_as(d)
    frozen = testing.schema_id_map_str_int(d)
    assert isinstance(frozen, tvm_ffi.Map) and not frozen.same_as(d)
    d["b"] = 2
    assert list(frozen.keys()) == ["a"]
    assert isinstance(testing.schema_id_dict_str_int({"a": 1}), Dict)
    assert testing.schema_id_dict_str_str(Dict({"k": "v"}))["k"] == "v"
    with pytest.raises(TypeError, match="testing.schema_id_dict_str_int"):
        testing.schema_id_dict_str_int(Dict({"a": "not an int"}))


def test_repr_as_upstream_prints_it():
    assert repr(List([1, "a", 2.5, [3], None])) == '[1, "a", 2.5, (3,), None]'
    assert repr(Dict({"a": 1, 2: "b"})) == '{"a": 1, 2: "b"}'
    assert repr(List([Dict({"k": List([1])})])) == '[{"k": [1]}]'
    assert repr(List()) == "[]" and repr(Dict()) == "{}" and str(List([1])) == "[1]"


def test_containers_holding_themselves_repr_copy_and_compare_without_crashing():
    lst = List([1])
    lst.append(lst)
    assert repr(lst) == "[1, ...]"
    d = Dict({"a": 1})
    d["self"] = d
    assert repr(d) == '{"a": 1, "self": ...}'
    deep = copy.deepcopy(lst)
    assert not deep.same_as(lst) and deep[1].same_as(deep)  # the cycle is rebuilt, not followed
    deep_d = copy.deepcopy(d)
    assert deep_d["self"].same_as(deep_d) and not deep_d.same_as(d)
    lst.clear()  # break the cycles so the objects can be freed
    d.clear()
    deep.clear()
    deep_d.clear()


def test_copy_is_a_new_container():
    lst = List([1, [2]])
    shallow = copy.copy(lst)
    assert isinstance(shallow, List) and not shallow.same_as(lst) and shallow[1].same_as(lst[1])
    shallow.append(3)
    assert len(lst) == 2
    d = Dict({"a": [1]})
    d2 = copy.copy(d)
    d2["b"] = 2
    assert "b" not in d and isinstance(d2, Dict)


def test_changes_during_iteration_never_crash():
    lst = List([1, 2, 3])
    for v in lst:  # iterates a snapshot, like iterating list(lst)
        lst.append(v)
        del lst[0]
    assert list(lst) == [1, 2, 3]
    d = Dict({"a": 1, "b": 2})
    for k in d:
        del d[k]
        d[k + "x"] = 0
    assert sorted(d) == ["ax", "bx"]


def test_list_radd_and_concatenation():
    assert isinstance([0] + List([1]), List) and list([0] + List([1])) == [0, 1]
    assert list((0,) + List([1])) == [0, 1]


def test_list_from_threads_is_consistent():
    lst = List()

    def work():
        for i in range(200):
            lst.append(i)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(lst) == 800 and sorted(lst) == sorted(list(range(200)) * 4)
