"""tvm_ffi.dataclasses: py_class (Python-defined FFI types) and c_class, as upstream behaves."""

import copy
import pickle

import pytest
import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import Object
from tvm_ffi.dataclasses import (
    KW_ONLY,
    asdict,
    astuple,
    c_class,
    field,
    fields,
    is_dataclass,
    py_class,
    replace,
)


@py_class("test_dc.Point")
class Point(Object):
    x: float
    y: float = 0.0
    tags: list = field(default_factory=list)
    note: str = field(default="n", repr=False)


@py_class("test_dc.Frozen", frozen=True)
class Frozen(Object):
    a: int


@py_class("test_dc.Ordered", eq=True, order=True, unsafe_hash=True)
class Ordered(Object):
    a: int
    b: str = "x"


@py_class("test_dc.Child")
class Child(Point):
    z: int = 3


@py_class("test_dc.Kw")
class Kw(Object):
    a: int
    _: KW_ONLY
    b: int = 2


def test_init_defaults_and_repr():
    assert repr(Point(1, 2)) == "test_dc.Point(x=1, y=2, tags=())"
    p = Point(x=1)
    assert type(p.x) is float and p.y == 0.0 and list(p.tags) == [] and p.note == "n"
    assert Point(True).x == 1.0


def test_init_bad_arguments():
    with pytest.raises(TypeError, match="expected float, got str"):
        Point("a")
    with pytest.raises(TypeError, match="missing"):
        Point()
    with pytest.raises(TypeError, match="positional"):
        Point(1, 2, [], "a", 5)
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        Point(1, z=3)


def test_field_assignment():
    p = Point(1)
    p.x = 5
    assert p.x == 5.0 and type(p.x) is float
    with pytest.raises(TypeError, match="expected float"):
        p.x = "bad"
    with pytest.raises(AttributeError, match="zz"):
        p.zz = 1


def test_frozen():
    f = Frozen(1)
    with pytest.raises(AttributeError, match="read-only"):
        f.a = 2
    type(f).a.set(f, 5)  # the escape hatch
    assert f.a == 5


def test_eq_order_hash():
    assert Point(1) != Point(1)  # default: identity, like upstream
    assert Ordered(1) == Ordered(1) and Ordered(1) != Ordered(2)
    assert Ordered(1) < Ordered(2)
    assert hash(Ordered(1)) == hash(Ordered(1))


def test_inheritance_and_kw_only():
    c = Child(1, 2, [], "q", 4)
    assert isinstance(c, Point) and c.z == 4
    assert [f.name for f in fields(Child)] == ["x", "y", "tags", "note", "z"]
    with pytest.raises(TypeError):
        Kw(1, 2)
    assert Kw(1, b=5).b == 5


def test_helpers():
    p = Point(1, 2, [1])
    assert is_dataclass(Point) and is_dataclass(p) and not is_dataclass(t.TestObjectBase)
    assert asdict(p) == {"x": 1.0, "y": 2.0, "tags": [1], "note": "n"}
    assert astuple(p) == (1.0, 2.0, [1], "n")
    q = replace(p, y=5)
    assert (q.x, q.y) == (1.0, 5.0) and not q.same_as(p)
    with pytest.raises(TypeError, match="no field 'nope'"):
        replace(p, nope=1)
    with pytest.raises(TypeError, match="fields"):
        fields(int)


def test_copy_deepcopy_pickle():
    p = Point(1, 2, [Point(3)])
    assert repr(copy.copy(p)) == repr(p) and not copy.copy(p).same_as(p)
    d = copy.deepcopy(p)
    assert not d.tags[0].same_as(p.tags[0]) and d.tags[0].x == 3.0
    assert repr(pickle.loads(pickle.dumps(p))) == repr(p)


def test_objects_pass_through_ffi_functions():
    p = Point(1, 2)
    echo = tvm_ffi.get_global_func("testing.echo")
    assert echo(p).same_as(p) and type(echo(p)) is Point
    tvm_ffi.register_global_func("test_dc.make_point", lambda x: Point(x), override=True)
    made = tvm_ffi.get_global_func("test_dc.make_point")(4)
    assert type(made) is Point and made.x == 4.0
    assert tvm_ffi.convert([p])[0].same_as(p)


def test_declaration_errors():
    with pytest.raises(ValueError, match="already registered"):
        py_class("test_dc.Point")(type("Point2", (Object,), {"__annotations__": {"x": int}}))
    with pytest.raises(TypeError, match="must inherit"):
        py_class("test_dc.NotObj")(type("NotObj", (), {"__annotations__": {"x": int}}))
    with pytest.raises(ValueError, match="both default and default_factory"):
        field(default=1, default_factory=list)
    with pytest.raises(ValueError, match="structural_eq"):
        field(structural_eq="bogus")
    with pytest.raises(ValueError, match="structural_eq"):
        py_class("test_dc.BadEq", structural_eq="bogus")(
            type("BadEq", (Object,), {"__annotations__": {"x": int}})
        )
    with pytest.raises(TypeError, match="non-default argument"):
        py_class("test_dc.Order")(
            type("Order", (Object,), {"__annotations__": {"x": int, "y": int}, "x": 1})
        )
    with pytest.raises(TypeError, match="C\\+\\+ type"):
        py_class("test_dc.FromCxx")(
            type("FromCxx", (t.TestObjectBase,), {"__annotations__": {"q": int}})
        )


def test_c_class_view_of_cxx_type():
    @c_class("testing.TestObjectDerived")
    class Derived(t.TestObjectBase):
        pass

    d = t.create_object("testing.TestObjectDerived", v_str="s", v_map={}, v_array=[1])
    assert isinstance(d, Derived)
    assert [f.name for f in fields(Derived)] == ["v_i64", "v_f64", "v_str", "v_map", "v_array"]
    assert asdict(d)["v_str"] == "s"
    # restore the testing module's class for other tests
    tvm_ffi.register_object("testing.TestObjectDerived")(t.TestObjectDerived)
