"""tvm_ffi.access_path: building, printing and comparing AccessPaths."""

import pytest
from tvm_ffi.access_path import AccessKind, AccessPath, AccessStep


def test_printing_matches_upstream():
    p = (
        AccessPath.root()
        .attr("a")
        .array_item(1)
        .map_item("k")
        .array_item_missing(3)
        .map_item_missing(2)
    )
    p = p.attr_missing("zz")
    assert repr(p) == '<root>.a[1]["k"][<missing:3>][<missing:2>][<missing:"zz">]'
    assert str(AccessPath.root()) == "<root>"


def test_steps_parent_and_depth():
    p = AccessPath.root().attr("a").array_item(2)
    assert p.depth == 2
    steps = list(p.to_steps())
    assert all(isinstance(s, AccessStep) for s in steps)
    assert [(s.kind, s.key) for s in steps] == [(AccessKind.ATTR, "a"), (AccessKind.ARRAY_ITEM, 2)]
    assert repr(p.parent) == "<root>.a"
    assert AccessPath.root().parent is None and AccessPath.root().step is None


def test_equality_and_prefix():
    a = AccessPath.root().attr("a")
    assert a == AccessPath.root().attr("a")
    assert a != AccessPath.root().attr("b")
    assert a.is_prefix_of(a.array_item(0))
    assert not a.array_item(0).is_prefix_of(a)


def test_bad_arguments():
    with pytest.raises(TypeError, match="attr"):
        AccessPath.root().attr(3)
    with pytest.raises(TypeError, match="array_item"):
        AccessPath.root().array_item("x")
    with pytest.raises(TypeError, match="is_prefix_of"):
        AccessPath.root().is_prefix_of("x")


def test_json_graph_round_trip():
    # The root's None parent and step were written but could not be read back: the fields
    # were ObjectRefs, whose setter refuses None.
    from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str

    for p in (AccessPath.root(), AccessPath.root().attr("a").array_item(2).map_item("k")):
        back = from_json_graph_str(to_json_graph_str(p))
        assert isinstance(back, AccessPath) and back == p and repr(back) == repr(p)
        assert back.depth == p.depth
