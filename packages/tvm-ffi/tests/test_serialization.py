"""tvm_ffi.serialization: the JSON graph format (docs/ffi-serialization.md), bad-input errors."""

import json

import pytest
import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import Object, structural_equal
from tvm_ffi.dataclasses import py_class
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str


@py_class("test_ser.Node")
class Node(Object):
    value: int
    kids: list = ()


def test_builtin_values_match_upstream_format():
    assert to_json_graph_str(1) == '{"root_index":0,"nodes":[{"type":"int","data":1}]}'
    assert to_json_graph_str("a") == '{"root_index":0,"nodes":[{"type":"ffi.String","data":"a"}]}'
    assert to_json_graph_str(None) == '{"root_index":0,"nodes":[{"type":"None"}]}'
    assert to_json_graph_str([1, 1.5, 1.5]) == (
        '{"root_index":2,"nodes":[{"type":"int","data":1},{"type":"float","data":1.5},'
        '{"type":"ffi.Array","data":[0,1,1]}]}'
    )
    assert json.loads(to_json_graph_str({"a": 1}))["nodes"][-1] == {
        "type": "ffi.Map",
        "data": [0, 1],
    }
    assert to_json_graph_str(tvm_ffi.device("cuda", 1)).endswith(
        '[{"type":"Device","data":[2,1]}]}'
    )


@pytest.mark.parametrize(
    "value",
    [1, 1.5, "a", True, None, b"ab", [1, "x", [2]], {"a": 1, "b": [1, 2]}, (1, 2)],
)
def test_round_trip(value):
    back = from_json_graph_str(to_json_graph_str(value))
    assert structural_equal(back, value) or back == value


def test_round_trip_special_values():
    assert from_json_graph_str(to_json_graph_str(tvm_ffi.Shape((1, 2)))) == tvm_ffi.Shape((1, 2))
    assert from_json_graph_str(to_json_graph_str(tvm_ffi.dtype("float32"))) == tvm_ffi.dtype(
        "float32"
    )
    dev = from_json_graph_str(to_json_graph_str(tvm_ffi.device("cpu", 0)))
    assert (dev.device_type, dev.device_id) == (1, 0)


def test_registered_objects_and_sharing():
    shared = Node(2)
    tree = Node(1, [shared, shared])
    back = from_json_graph_str(to_json_graph_str(tree))
    assert type(back) is Node and structural_equal(back, tree)
    assert back.kids[0].same_as(back.kids[1])
    cxx = t.create_object("testing.TestObjectDerived", v_i64=1, v_map={"k": [2]}, v_array=[1])
    assert repr(from_json_graph_str(to_json_graph_str(cxx))) == repr(cxx)


def test_metadata_is_kept():
    doc = json.loads(to_json_graph_str(1, metadata={"v": 1}))
    assert doc["metadata"] == {"v": 1}
    with pytest.raises(TypeError, match="metadata"):
        to_json_graph_str(1, metadata=[1])


@pytest.mark.parametrize(
    "text, match",
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[]", "expected an object"),
        ('{"root_index":0}', "nodes"),
        ('{"nodes":[]}', "root_index"),
        ('{"root_index":5,"nodes":[]}', "invalid node index 5"),
        ('{"root_index":0,"nodes":[{"type":"nope"}]}', "unknown type `nope`"),
        ('{"root_index":0,"nodes":[{"type":"ffi.Array","data":[0]}]}', "cycle"),
        ('{"root_index":0,"nodes":[{"type":"int","data":"x"}]}', "needs an int"),
        (
            '{"root_index":0,"nodes":[{"type":"test_ser.Node","data":{"value":0,"bogus":0}}]}',
            "bogus",
        ),
        ('{"root_index":0,"nodes":[{"type":"ffi.Map","data":[0]}]}', "odd"),
    ],
)
def test_malformed_input_is_value_error(text, match):
    with pytest.raises(ValueError, match=match) as info:
        from_json_graph_str(text)
    assert "from_json_graph_str" in str(info.value)


def test_wrong_types():
    with pytest.raises(TypeError, match="json_str"):
        from_json_graph_str(3)
    with pytest.raises(TypeError, match="to_json_graph_str"):
        to_json_graph_str(object())
    with pytest.raises(TypeError, match="ffi.Function"):
        to_json_graph_str(tvm_ffi.get_global_func("testing.echo"))
    with pytest.raises(ValueError, match="cannot carry"):
        to_json_graph_str(float("nan"))


def test_cycle_is_value_error():
    a = Node(1)
    a.kids = [a]
    with pytest.raises(ValueError, match="cycle"):
        to_json_graph_str(a)


def _graph(*nodes, root=None):
    return json.dumps({"root_index": len(nodes) - 1 if root is None else root, "nodes": nodes})


_BIG = 10**30


@pytest.mark.parametrize(
    "text, match",
    [
        # A py_class field got any value: py_class's type checks ran only in __init__.
        (
            _graph(
                {"type": "ffi.String", "data": "x"},
                {"type": "test_ser.Node", "data": {"value": 0, "kids": 0}},
            ),
            "field 'value':\n  expected int, got str",
        ),
        (
            _graph(
                {"type": "float", "data": 1.5},
                {"type": "test_ser.Node", "data": {"value": 0, "kids": 0}},
            ),
            "expected int, got float",
        ),
        # Numbers past int64 / float were OverflowErrors naming no function or node.
        (_graph({"type": "int", "data": _BIG}), "node 0: int 1000.* does not fit in int64"),
        (_graph({"type": "float", "data": _BIG**20}), "node 0: int too large"),
        (_graph({"type": "ffi.Shape", "data": [_BIG]}), "node 0"),
        (_graph({"type": "Device", "data": [1, _BIG]}), "node 0: .*device_id"),
        # A C++ field given the wrong type: the TypeError now names the node.
        (
            _graph(
                {"type": "ffi.String", "data": "s"},
                {
                    "type": "testing.TestObjectBase",
                    "data": {"v_i64": "x", "v_f64": 1.0, "v_str": 0},
                },
            ),
            "node 1: .*str",
        ),
    ],
)
def test_hostile_values_are_value_errors_naming_the_node(text, match):
    with pytest.raises(ValueError, match=match) as info:
        from_json_graph_str(text)
    assert "from_json_graph_str" in str(info.value)


def test_py_class_fields_still_round_trip_with_their_checks():
    back = from_json_graph_str(to_json_graph_str(Node(3, [Node(4)])))
    assert back.value == 3 and back.kids[0].value == 4


def test_deep_values_and_long_node_chains_do_not_recurse():
    # Both directions recursed once per level: 10**5 nested arrays raised RecursionError
    # (and a crafted chain of nodes did the same to from_json_graph_str).
    depth = 20_000
    value = tvm_ffi.convert([7])
    for _ in range(depth):
        value = tvm_ffi.convert([value])
    text = to_json_graph_str(value)
    back = from_json_graph_str(text)
    for _ in range(depth):
        back = back[0]
    assert list(back) == [7]
    nodes = [{"type": "ffi.Array", "data": []}]
    nodes += [{"type": "ffi.Array", "data": [i]} for i in range(depth)]
    assert len(from_json_graph_str(json.dumps({"root_index": depth, "nodes": nodes}))) == 1
    # A cycle at the bottom of a long chain is still found.
    nodes[0] = {"type": "ffi.Array", "data": [depth]}
    with pytest.raises(ValueError, match="cycle"):
        from_json_graph_str(json.dumps({"root_index": depth, "nodes": nodes}))


def test_node_order_is_that_of_a_depth_first_walk():
    shared = Node(2)
    text = to_json_graph_str(tvm_ffi.convert([1, Node(5, [shared]), "s", shared]))
    kinds = [(n["type"], n.get("data")) for n in json.loads(text)["nodes"]]
    assert kinds[0] == ("int", 1) and kinds[-1][0] == "ffi.Array"
    assert [k for k, _ in kinds].index("ffi.String") > [k for k, _ in kinds].index("test_ser.Node")
