"""The reflected test object types and the helpers built on them (tvm_ffi.testing's classes)."""

import sys

from .._auto_init import is_auto_init, kwargs_tail
from .._core import Object, type_key_to_index
from .._reflection import type_info_of
from ..dataclasses.c_class import c_class
from ..dataclasses.enum import Enum, IntEnum, StrEnum, entry
from ..registry import get_global_func, register_object


def _requires_python(major, minor):
    """A pytest skip mark for tests needing Python >= major.minor (identity without pytest)."""
    try:
        import pytest
    except ImportError:  # tvm_ffi.testing works without pytest; the marks only matter under it
        return lambda test: test
    return pytest.mark.skipif(
        sys.version_info < (major, minor), reason=f"requires Python {major}.{minor}+"
    )


requires_py310 = _requires_python(3, 10)
requires_py312 = _requires_python(3, 12)
requires_py313 = _requires_python(3, 13)


@register_object("testing.TestObjectBase")
class TestObjectBase(Object):
    """Fields v_i64 = 10, v_f64 = 10.0 (read-only), v_str = "hello" and method add_i64."""

    __test__ = False  # not a pytest test class


@register_object("testing.TestObjectDerived")
class TestObjectDerived(TestObjectBase):
    """A subclass adding the writable fields v_map (a Map) and v_array (an Array)."""

    __test__ = False


@register_object("testing.TestIntPair")
class TestIntPair(Object):
    """A pair of ints `a`, `b` (read-only) with method `sum`."""

    __test__ = False


@register_object("testing.TestNonCopyable")
class TestNonCopyable(Object):
    """An object C++ cannot copy: copy.copy raises, references still share it."""

    __test__ = False


@c_class("testing.TestCompare")
class TestCompare(Object):
    """Fields key, name, ignored_field; ignored_field is left out of comparison (and hashing)."""

    __test__ = False


@c_class("testing.TestHash")
class TestHash(Object):
    """Fields key, name, hash_ignored; hash_ignored is compared but left out of hashing."""

    __test__ = False


@c_class("testing.TestFrozenCxx", frozen=True)
class TestFrozenCxx(Object):
    """Fields value, tag: writable in C++, frozen in Python by c_class(frozen=True)."""

    __test__ = False


class _TestEnumVariant(Enum, type_key="testing.TestEnumVariant"):
    """The C++-declared enum testing.TestEnumVariant: variants Alpha, Beta; attribute `code`."""

    __test__ = False


def _ffi_init_of(type_key):
    return type_info_of(type_key_to_index(type_key)).find_method("__ffi_init__").func


@c_class("testing.TestObjectPtrHolder")
class TestObjectPtrHolder(Object):
    """Fields value (a TestObjectBase) and optional_value (a TestObjectBase or None)."""

    __test__ = False

    def __init__(self, value, optional_value=None):
        init = _ffi_init_of("testing.TestObjectPtrHolder")
        self.__init_handle_by_constructor__(init, value, optional_value)


@c_class("testing.TestCustomHash")
class TestCustomHash(Object):
    """Fields key, label; its __ffi_hash__ hook hashes only key (RecursiveHash uses it)."""

    __test__ = False


@c_class("testing.TestCustomCompare")
class TestCustomCompare(Object):
    """Fields key, label; its __ffi_eq__ / __ffi_compare__ / __ffi_hash__ hooks use only key."""

    __test__ = False


@c_class("testing.TestEqWithoutHash")
class TestEqWithoutHash(Object):
    """Fields key, label; an __ffi_eq__ hook but no __ffi_hash__ (RecursiveHash refuses it)."""

    __test__ = False


@c_class("testing.TestCxxClassBase")
class _TestCxxClassBase(Object):
    """Writable fields v_i64, v_i32 (left out of repr)."""

    def __init__(self, v_i64, v_i32):
        self.__init_handle_by_constructor__(_ffi_init_of("testing.TestCxxClassBase"), v_i64, v_i32)


@c_class("testing.TestCxxClassDerived")
class _TestCxxClassDerived(_TestCxxClassBase):
    """Adds v_f64 and v_f32 (a C++ float, default 8.0)."""

    def __init__(self, v_i64, v_i32, v_f64, v_f32=8.0):
        init = _ffi_init_of("testing.TestCxxClassDerived")
        self.__init_handle_by_constructor__(init, v_i64, v_i32, v_f64, v_f32)


@c_class("testing.TestCxxClassDerivedDerived")
class _TestCxxClassDerivedDerived(_TestCxxClassDerived):
    """Adds v_str (default "default") and v_bool; the fields with defaults come last."""

    def __init__(self, v_i64, v_i32, v_f64, v_bool, v_f32=8.0, v_str="default"):
        init = _ffi_init_of("testing.TestCxxClassDerivedDerived")
        self.__init_handle_by_constructor__(init, v_i64, v_i32, v_f64, v_f32, v_str, v_bool)


def create_object(type_key, **kwargs):
    """Makes an object of the registered type `type_key` by reflection.

    Fields are given by keyword. A type whose constructor C++ made from its fields fills in the
    defaults and needs the others; another default-constructible type keeps its C++ values for
    the fields not given; any other type is built by its constructor and needs every field.
    """
    if not isinstance(type_key, str):
        raise TypeError(
            f"create_object: argument `type_key` must be a str, got {type(type_key).__name__}"
        )
    try:
        info = type_info_of(type_key_to_index(type_key))
    except KeyError:
        raise ValueError(f"create_object: no object type is registered as `{type_key}`") from None
    fields = {f.name: f for f in info.all_fields()}
    unknown = [name for name in kwargs if name not in fields]
    if unknown:
        raise TypeError(
            f"create_object: type `{type_key}` has no field(s) {unknown}; fields: {list(fields)}"
        )
    init = info.find_method("__ffi_init__")
    if init is not None and is_auto_init(info.type_index):
        # The constructor made from the fields: pass them by name, it fills in the defaults.
        for f in info.all_fields():
            if f.c_init and not f.c_has_default and f.name not in kwargs:
                raise TypeError(f"Required field `{f.name}` not set in type `{type_key}`")
        return init.func(*kwargs_tail(kwargs))
    new = info.find_method("__ffi_new__")
    if new is not None:
        obj = new.func()
        for name, value in kwargs.items():
            try:
                fields[name].getter.set(obj, value)
            except TypeError as err:  # the setter's message names neither the type nor the field
                raise TypeError(
                    f"create_object: field `{name}` of type `{type_key}`: {err}"
                ) from None
        return obj
    if init is None:
        raise TypeError(
            f"create_object: type `{type_key}` has no constructor (__ffi_new__ or __ffi_init__)"
        )
    missing = [name for name in fields if name not in kwargs]
    if missing:
        raise TypeError(
            f"create_object: type `{type_key}` has no defaults; missing field(s) {missing}"
        )
    return init.func(*[kwargs[name] for name in fields])


def make_unregistered_object():
    """An object of a C++ type with no registered Python class (seen as its nearest base)."""
    return get_global_func("testing.make_unregistered_object")()


def add_one(x):
    """x + 1, computed by the C++ global testing.add_one."""
    return get_global_func("testing.add_one")(x)


__all__ = [
    "IntEnum",
    "Object",
    "StrEnum",
    "TestCompare",
    "TestCustomCompare",
    "TestCustomHash",
    "TestEqWithoutHash",
    "TestFrozenCxx",
    "TestHash",
    "TestIntPair",
    "TestNonCopyable",
    "TestObjectBase",
    "TestObjectDerived",
    "TestObjectPtrHolder",
    "add_one",
    "c_class",
    "create_object",
    "entry",
    "get_global_func",
    "make_unregistered_object",
    "requires_py310",
    "requires_py312",
    "requires_py313",
]
