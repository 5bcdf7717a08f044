"""structural_walk / _map / _visit / _mutate, as upstream 0.1.15 behaves."""

import pytest
import tvm_ffi
from tvm_ffi import Object, VisitInterrupt, WalkResult
from tvm_ffi.dataclasses import field, py_class


@py_class("test_walk.N")
class N(Object):
    v: int
    kids: list = field(default_factory=list)
    d: list = field(default_factory=list, structural_eq="def")
    ig: Object = field(default=None, structural_eq="ignore")


def tree():
    return N(1, [N(2), N(3)], [N(9)], N(100))


def collect(**kwargs):
    seen = []
    assert tvm_ffi.structural_walk(tree(), (N, lambda n: seen.append(n.v)), **kwargs) is None
    return seen


def test_walk_orders_skip_ignored_fields():
    assert collect() == [2, 3, 9, 1]
    assert collect(order="pre") == [1, 2, 3, 9]
    assert collect(order=tvm_ffi.WalkOrder.PREORDER) == [1, 2, 3, 9]


def test_walk_def_region_kind_skip_and_interrupt():
    seen = []
    tvm_ffi.structural_walk(
        tree(), with_def_region_kind=(N, lambda n, k: seen.append((n.v, int(k))))
    )
    assert seen == [(2, 0), (3, 0), (9, 1), (1, 0)]
    seen = []
    tvm_ffi.structural_walk(
        tree(), (N, lambda n: (seen.append(n.v), WalkResult.SKIP)[1]), order="pre"
    )
    assert seen == [1]
    result = tvm_ffi.structural_walk(
        tree(), (N, lambda n: VisitInterrupt(n.v) if n.v == 3 else None)
    )
    assert isinstance(result, VisitInterrupt) and result.value == 3


def test_walk_containers_visit_items_and_map_values():
    seen = []
    tvm_ffi.structural_walk([1, {"a": 2}], (int, lambda x: seen.append(x)))
    assert seen == [1, 2]


def test_map_is_copy_on_write():
    t = tree()
    assert tvm_ffi.structural_map(t, (str, lambda s: s)).same_as(t)
    m = tvm_ffi.structural_map(t, (int, lambda x: x * 10))
    assert (m.v, m.kids[1].v, m.d[0].v, m.ig.v) == (10, 30, 90, 100)
    assert t.v == 1  # the input is untouched
    pre = tvm_ffi.structural_map(N(1, [N(2)]), (N, lambda n: N(n.v + 1, n.kids)), order="pre")
    assert (pre.v, pre.kids[0].v) == (2, 3)


def test_visit_and_mutate():
    seen = []

    def on_node(n, visitor):
        seen.append(n.v)
        for k in n.kids:
            visitor.visit(k)

    assert tvm_ffi.structural_visit(tree(), (N, on_node)) is None
    assert seen == [1, 2, 3]
    out = tvm_ffi.structural_mutate(
        tree(), (N, lambda n, mut: N(n.v * 2, [mut.mutate(k) for k in n.kids]))
    )
    assert [out.v, *(k.v for k in out.kids)] == [2, 4, 6]
    bumped = tvm_ffi.structural_mutate(tree(), ((int,), lambda x, mut, mode: x + 1))
    assert (bumped.v, bumped.d[0].v, bumped.ig.v) == (2, 10, 100)


def test_bad_input():
    with pytest.raises(TypeError, match="structural_walk: callbacks"):
        tvm_ffi.structural_walk(tree(), 5)
    with pytest.raises(TypeError, match="callback type"):
        tvm_ffi.structural_walk(tree(), (5, lambda n: None))
    with pytest.raises(ValueError, match="order"):
        tvm_ffi.structural_walk(tree(), (N, lambda n: None), order="bogus")
    with pytest.raises(TypeError, match="cannot be constructed"):
        tvm_ffi.StructuralVisitor()


def test_cycles_are_value_errors_not_crashes():
    a = N(1)
    a.kids = [a]
    for run in (
        lambda: tvm_ffi.structural_walk(a, lambda x: None),
        lambda: tvm_ffi.structural_map(a, (int, lambda x: x + 1)),
        lambda: tvm_ffi.structural_visit(a, ()),
        lambda: tvm_ffi.structural_mutate(a, ()),
    ):
        with pytest.raises(ValueError, match="cycle"):
            run()
