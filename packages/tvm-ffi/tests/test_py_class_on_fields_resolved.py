"""py_class's phase two, tvm_ffi.dataclasses.py_class.on_fields_resolved, called directly."""

import sys

import pytest
import tvm_ffi
from tvm_ffi._reflection import type_info_of
from tvm_ffi.core import TypeInfo
from tvm_ffi.dataclasses import field

on_fields_resolved = sys.modules["tvm_ffi.dataclasses.py_class"].on_fields_resolved

_OPTIONS = dict(
    frozen=False,
    init=True,
    repr=True,
    eq=True,
    order=False,
    unsafe_hash=False,
    match_args=True,
    kw_only=False,
    structural_eq="tree",
)


def prepared(cls, key, **options):
    """The TypeInfo py_class hands to on_fields_resolved."""
    parent = type_info_of(tvm_ffi._core.type_key_to_index("ffi.Object"))
    info = TypeInfo(cls, -1, key, [], [], [], parent)
    info._decorator_args = {**_OPTIONS, **options}
    return info


def test_finishes_a_class_from_resolved_hints():
    class Point(tvm_ffi.Object):
        y = field(default=2.0)

    on_fields_resolved(
        prepared(Point, "test_ofr.Point"), ([Point], {Point: {"x": int, "y": float}})
    )
    p = Point(1)
    assert (p.x, p.y) == (1, 2.0)
    assert Point(1) == Point(1, 2.0)  # eq=True from _decorator_args
    assert Point.__match_args__ == ("x", "y")
    assert Point.__tvm_ffi_type_info__.type_key == "test_ofr.Point"
    assert [f.name for f in Point.__tvm_ffi_type_info__.fields] == ["x", "y"]


def test_runs_the_field_hooks():
    seen = []

    class Hooked(tvm_ffi.Object):
        def hook(type_info, fields):  # noqa: N805  (called as a plain function)
            seen.append((type_info.type_key, [f.name for f in fields]))

        hook.__ffi_on_fields_resolved__ = True

    on_fields_resolved(prepared(Hooked, "test_ofr.Hooked"), ([Hooked], {Hooked: {"a": int}}))
    assert seen == [("test_ofr.Hooked", ["a"])]


def test_bad_input():
    class Bad(tvm_ffi.Object):
        pass

    info = TypeInfo(Bad, -1, "test_ofr.Bad", [], [], [], None)  # no _decorator_args
    with pytest.raises(TypeError, match="`type_info` must be a TypeInfo with type_cls and"):
        on_fields_resolved(info, ([Bad], {Bad: {}}))
    with pytest.raises(TypeError, match="`resolved_fields` must be \\(owners, hints_by_owner\\)"):
        on_fields_resolved(prepared(Bad, "test_ofr.Bad"), ([Bad], {}))
    with pytest.raises(TypeError, match="`resolved_fields` must be"):
        on_fields_resolved(prepared(Bad, "test_ofr.Bad"), None)
    with pytest.raises(KeyError):
        tvm_ffi._core.type_key_to_index("test_ofr.Bad")  # nothing was registered
