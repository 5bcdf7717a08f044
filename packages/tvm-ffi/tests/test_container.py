"""Array, Map and Shape: sequence and mapping behaviour, conversion and pickling."""

import pickle

import pytest
import tvm_ffi
from tvm_ffi import testing


def test_array_sequence_protocol():
    arr = tvm_ffi.Array([10, "b", 2.5, None])
    assert len(arr) == 4
    assert arr[0] == 10
    assert arr[-1] is None
    assert arr[-4] == 10
    assert list(arr) == [10, "b", 2.5, None]
    assert "b" in arr
    assert "zz" not in arr
    assert [x for x in arr] == [10, "b", 2.5, None]


@pytest.mark.parametrize("index", [4, -5, 100])
def test_array_index_out_of_range(index):
    arr = tvm_ffi.Array([1, 2, 3, 4])
    with pytest.raises(IndexError):
        arr[index]


def test_array_slices_are_arrays():
    arr = tvm_ffi.Array(range(6))
    part = arr[1:5:2]
    assert isinstance(part, tvm_ffi.Array)
    assert part == [1, 3]
    assert arr[::-1] == [5, 4, 3, 2, 1, 0]
    assert arr[10:] == []


def test_array_equality():
    arr = tvm_ffi.Array([1, 2])
    assert arr == [1, 2]
    assert arr == (1, 2)
    assert arr == tvm_ffi.Array([1, 2])
    assert arr != [2, 1]
    assert arr != [1, 2, 3]


def test_array_concatenation_returns_new_array():
    a = tvm_ffi.Array([1])
    b = tvm_ffi.Array(["x"])
    both = a + b
    assert isinstance(both, tvm_ffi.Array)
    assert both == [1, "x"]
    assert a == [1]
    assert a + [2, 3] == [1, 2, 3]
    assert [0] + a == [0, 1]


def test_array_repr():
    # As apache-tvm-ffi prints it: an Array is a tuple, strings are double-quoted.
    assert repr(tvm_ffi.Array([1, "a", [2]])) == '(1, "a", (2,))'


def test_array_is_a_sequence():
    import collections.abc

    assert isinstance(tvm_ffi.Array([]), collections.abc.Sequence)
    assert isinstance(tvm_ffi.Map({}), collections.abc.Mapping)


def test_map_mapping_protocol():
    m = tvm_ffi.Map({"z": 1, "a": 2, 5: "five"})
    assert len(m) == 3
    assert list(m.keys()) == ["z", "a", 5]  # insertion order, not sorted
    assert list(m.values()) == [1, 2, "five"]
    assert list(m.items()) == [("z", 1), ("a", 2), (5, "five")]
    assert list(m) == ["z", "a", 5]
    assert m["a"] == 2
    assert m[5] == "five"
    assert "z" in m
    assert "missing" not in m
    assert m.get("missing", 7) == 7
    assert m.get("z", 7) == 1
    assert dict(m.items()) == {"z": 1, "a": 2, 5: "five"}


def test_map_get_without_default_gives_none():
    m = tvm_ffi.Map({"a": 1})
    assert m.get("missing") is None
    assert m.get("a") == 1


def test_map_missing_key_is_key_error():
    with pytest.raises(KeyError):
        tvm_ffi.Map({"a": 1})["b"]


def test_map_equality_and_repr():
    m = tvm_ffi.Map({"b": 1, "a": [2]})
    assert m == {"a": [2], "b": 1}
    assert m != {"a": [2]}
    assert repr(m) == '{"b": 1, "a": (2,)}'


def test_map_long_string_keys_hash_by_value():
    key = "a long key that is not inline"
    m = tvm_ffi.Map({key: 1})
    assert m["a long key that is not " + "inline"] == 1


def test_shape():
    s = tvm_ffi.Shape((2, 3, 4))
    assert len(s) == 3
    assert s[0] == 2
    assert s[-1] == 4
    assert tuple(s) == (2, 3, 4)
    assert s == (2, 3, 4)
    assert s == [2, 3, 4]
    assert hash(s) == hash((2, 3, 4))
    assert repr(s) == "(2, 3, 4)"  # upstream's Shape is a tuple and prints as one
    back = testing.echo(s)
    assert isinstance(back, tvm_ffi.Shape)
    assert back == (2, 3, 4)


def test_shape_rejects_non_ints():
    with pytest.raises(TypeError):
        tvm_ffi.Shape(("a",))


def test_nested_containers_built_directly():
    m = tvm_ffi.Map({"arr": tvm_ffi.Array([tvm_ffi.Map({"x": 1})])})
    assert m["arr"][0]["x"] == 1


@pytest.mark.parametrize(
    "value",
    [
        tvm_ffi.Array([1, "two", [3.0, None], {"k": b"v"}]),
        tvm_ffi.Map({"a": [1, 2], 3: {"x": "y"}}),
        tvm_ffi.Shape((1, 2, 3)),
        tvm_ffi.dtype("bfloat16"),
        tvm_ffi.dtype("int8x4"),
        tvm_ffi.device("cuda", 1),
        tvm_ffi.device("cpu"),
    ],
    ids=["array", "map", "shape", "dtype", "dtype-lanes", "device-cuda", "device-cpu"],
)
def test_pickle_round_trip(value):
    out = pickle.loads(pickle.dumps(value))
    assert type(out) is type(value)
    assert out == value
    if isinstance(value, tvm_ffi.Object):
        assert not out.same_as(value)


def test_map_lookup_follows_python_key_rules():
    # Each of these lookups disagreed with the dict the Map came from.
    token, func = object(), (lambda: None)
    d = {
        token: "object",
        (1, (2, "x")): "tuple",
        1: "one",
        0.0: "zero",
        func: "callable",
        2.5: "float",
    }
    m = tvm_ffi.Map(d)
    for key, value in d.items():
        assert key in m and m[key] == value
    assert m[1.0] == "one" and m[True] == "one"  # numbers compare as Python numbers
    assert m[-0.0] == "zero" and m[0] == "zero" and m[False] == "zero"
    assert (1, (2, "x")) in m and (1, (2.0, "x")) in m
    assert 2 not in m and 1.5 not in m and (1, 2) not in m and object() not in m
    for key in m.keys():  # the keys Python gets back find their entries
        assert key in m
    assert m.keys()[0] is token
    assert m == d and d == m
    assert m != {**d, 1: "other"} and m != {token: "object"}
    assert tvm_ffi.Map({0: 1}) != {2**70: 1}  # a key no Map can hold is not in it


def test_map_nan_key_is_found_by_the_same_nan():
    nan = float("nan")
    m = tvm_ffi.Map({nan: 1})
    assert m[nan] == 1 and m.keys()[0] in m


def test_equal_containers_hash_equal():
    # __eq__ compares values, so __hash__ must too: equal Arrays and Maps were two dict keys.
    a, b = tvm_ffi.Array([1, (2, 3), "s"]), tvm_ffi.Array([1, (2, 3), "s"])
    assert a == b and hash(a) == hash(b) and hash(a) == hash((1, (2, 3), "s"))
    assert len({a, b, (1, (2, 3), "s")}) == 1
    m, n = tvm_ffi.Map({"k": 1, 2: (3,)}), tvm_ffi.Map({2: (3,), "k": 1})
    assert m == n and hash(m) == hash(n)
    assert len({m, n}) == 1
    with pytest.raises(TypeError):
        hash(tvm_ffi.Map({"k": {"a set travels as itself, unhashable"}}))
