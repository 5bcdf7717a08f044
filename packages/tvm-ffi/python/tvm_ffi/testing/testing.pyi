"""The reflected test object types and the helpers built on them (tvm_ffi.testing's classes)."""

from typing import Any, ClassVar

from .._core import Object as Object
from .._reflection import _MissingType
from ..dataclasses.c_class import c_class as c_class
from ..dataclasses.enum import Enum as Enum
from ..dataclasses.enum import IntEnum as IntEnum
from ..dataclasses.enum import StrEnum as StrEnum
from ..dataclasses.enum import entry as entry
from ..registry import get_global_func as get_global_func

requires_py310: Any
requires_py312: Any
requires_py313: Any

class TestObjectBase(Object):
    """Fields v_i64 = 10, v_f64 = 10.0 (read-only), v_str = "hello" and method add_i64."""

    __test__: bool
    v_i64: int
    v_f64: float
    v_str: str
    # Fields left out (default <MISSING>) take their C++ defaults.
    def __init__(
        self,
        v_i64: int | _MissingType = ...,
        v_f64: float | _MissingType = ...,
        v_str: str | _MissingType = ...,
    ) -> None: ...
    def add_i64(self, other: int) -> int: ...

class TestObjectDerived(TestObjectBase):
    """A subclass adding the writable fields v_map (a Map) and v_array (an Array)."""

    __test__: bool
    v_map: Any
    v_array: Any
    def __init__(
        self,
        v_map: Any,
        v_array: Any,
        v_i64: int | _MissingType = ...,
        v_f64: float | _MissingType = ...,
        v_str: str | _MissingType = ...,
    ) -> None: ...

class _TestEnumVariant(Enum):
    """The C++-declared enum testing.TestEnumVariant: variants Alpha, Beta; attribute `code`."""

    __test__: bool
    Alpha: ClassVar[_TestEnumVariant]
    Beta: ClassVar[_TestEnumVariant]
    # The C++ type's static methods that publish its variants and their attributes.
    __ffi_enum_entries__: ClassVar[Any]
    __ffi_enum_attrs__: ClassVar[Any]

class TestIntPair(Object):
    """A pair of ints `a`, `b` (read-only) with method `sum`."""

    __test__: bool
    a: int
    b: int
    def __init__(self, a: int, b: int) -> None: ...
    def sum(self, *args: Any) -> int: ...  # a reflected method: its arguments are checked natively

class TestNonCopyable(Object):
    """An object C++ cannot copy: copy.copy raises, references still share it."""

    __test__: bool
    value: int
    def __init__(self, value: int) -> None: ...

class TestCompare(Object):
    """Fields key, name, ignored_field; ignored_field is left out of comparison (and hashing)."""

    __test__: bool
    key: int
    name: str
    ignored_field: int
    __match_args__ = ("key", "name", "ignored_field")
    def __init__(self, key: int, name: str, ignored_field: int) -> None: ...

class TestHash(Object):
    """Fields key, name, hash_ignored; hash_ignored is compared but left out of hashing."""

    __test__: bool
    key: int
    name: str
    hash_ignored: int
    __match_args__ = ("key", "name", "hash_ignored")
    def __init__(self, key: int, name: str, hash_ignored: int) -> None: ...

class TestObjectPtrHolder(Object):
    """Fields value (a TestObjectBase) and optional_value (a TestObjectBase or None)."""

    __test__: bool
    value: TestObjectBase
    optional_value: TestObjectBase | None
    __match_args__ = ("value", "optional_value")
    def __init__(
        self, value: TestObjectBase, optional_value: TestObjectBase | None = None
    ) -> None: ...

class TestCustomHash(Object):
    """Fields key, label; its __ffi_hash__ hook hashes only key (RecursiveHash uses it)."""

    __test__: bool
    __ffi_hash__: Any
    key: int
    label: str
    __match_args__ = ("key", "label")
    def __init__(self, key: int, label: str) -> None: ...

class TestCustomCompare(Object):
    """Fields key, label; its __ffi_eq__ / __ffi_compare__ / __ffi_hash__ hooks use only key."""

    __test__: bool
    __ffi_hash__: Any
    __ffi_eq__: Any
    __ffi_compare__: Any
    key: int
    label: str
    __match_args__ = ("key", "label")
    def __init__(self, key: int, label: str) -> None: ...

class TestEqWithoutHash(Object):
    """Fields key, label; an __ffi_eq__ hook but no __ffi_hash__ (RecursiveHash refuses it)."""

    __test__: bool
    __ffi_eq__: Any
    key: int
    label: str
    __match_args__ = ("key", "label")
    def __init__(self, key: int, label: str) -> None: ...

def create_object(type_key: str, **kwargs: Any) -> Object: ...
def make_unregistered_object() -> Object: ...
def add_one(x: int) -> int: ...

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

class TestFrozenCxx(Object):
    """Fields value, tag: writable in C++, frozen in Python by c_class(frozen=True)."""

    __test__: bool
    value: int
    tag: str
    __match_args__ = ("value", "tag")
    def __init__(self, value: int, tag: str) -> None: ...
