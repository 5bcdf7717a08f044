"""tvm_ffi.dataclasses.init_property: a py_class field computed once at construction."""

from typing import Any

import pytest
import tvm_ffi
from tvm_ffi.dataclasses import fields, init_property, py_class


@py_class("testing.init_property.Rect")
class Rect(tvm_ffi.Object):
    w: int
    h: int

    @init_property
    def area(self) -> int:
        return self.w * self.h


@py_class("testing.init_property.Frozen", frozen=True)
class FrozenRect(tvm_ffi.Object):
    w: int

    @init_property
    def double(self):
        return self.w * 2


def test_computed_at_init_and_stored():
    r = Rect(3, 4)
    assert r.area == 12
    r.w = 10  # stored once: later changes to the inputs do not recompute it
    assert r.area == 12
    r.area = 7  # a non-frozen class may overwrite it
    assert r.area == 7


def test_field_options():
    f = fields(Rect)[2]
    assert f.name == "area" and f.type is int
    assert (f.init, f.repr, f.compare, f.hash, f.structural_eq) == (
        False,
        False,
        False,
        False,
        "ignore",
    )
    assert repr(Rect(1, 2)) == "testing.init_property.Rect(w=1, h=2)"
    assert fields(FrozenRect)[1].type is Any  # no return annotation


def test_not_an_init_argument():
    with pytest.raises(TypeError, match="unexpected keyword argument 'area'"):
        Rect(1, 2, area=3)
    with pytest.raises(TypeError, match="positional argument"):
        Rect(1, 2, 3)


def test_frozen_class_refuses_assignment():
    r = FrozenRect(2)
    assert r.double == 4
    with pytest.raises(AttributeError, match="read-only"):
        r.double = 5


def test_subclass_computes_inherited_and_own():
    @py_class("testing.init_property.Box")
    class Box(Rect):
        d: int = 1

        @init_property
        def volume(self) -> int:
            return self.area * self.d

    b = Box(2, 3, 4)
    assert (b.area, b.volume) == (6, 24)


def test_bad_argument():
    with pytest.raises(TypeError, match="init_property: argument `func` must be callable, got int"):
        init_property(3)
