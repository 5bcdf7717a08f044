"""Stubs of tvm_ffi.dataclasses."""

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from .._core import Object as Object
from .enum import Enum as Enum
from .enum import EnumAttrMap as EnumAttrMap
from .enum import EnumState as EnumState
from .enum import IntEnum as IntEnum
from .enum import StrEnum as StrEnum
from .enum import auto as auto
from .enum import entry as entry
from .gen_abi_cpp import gen_abi_cpp as gen_abi_cpp

_T = TypeVar("_T")

MISSING: Any
KW_ONLY: Any

class Field:
    name: str | None
    type: Any
    default: Any
    default_factory: Any
    frozen: bool
    init: bool
    repr: bool
    hash: bool
    compare: bool
    kw_only: bool | None
    metadata: dict[str, Any]
    structural_eq: str | None
    doc: str | None
    extra_kwargs: dict[str, Any]
    init_func: Callable[[Any], Any] | None
    def __init__(
        self,
        *,
        default: Any = ...,
        default_factory: Any = ...,
        frozen: bool = False,
        init: bool = True,
        repr: bool = True,
        hash: bool | None = None,
        compare: bool = True,
        kw_only: bool | None = None,
        metadata: Any = None,
        structural_eq: str | None = None,
        doc: str | None = None,
        extra_kwargs: dict[str, Any] | None = None,
    ) -> None: ...
    def has_default(self) -> bool: ...

class init_property(Generic[_T]):
    func: Callable[[Any], _T]
    name: str | None
    def __init__(self, func: Callable[[Any], _T]) -> None: ...
    def __get__(self, obj: Any, objtype: Any = None) -> Any: ...
    def __set_name__(self, owner: type, name: str) -> None: ...

def field(
    *,
    default: Any = ...,
    default_factory: Any = ...,
    frozen: bool = False,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    kw_only: bool | None = None,
    metadata: Any = None,
    structural_eq: str | None = None,
    doc: str | None = None,
    converter: Any = None,
    **extra_kwargs: Any,
) -> Any: ...
def py_class(
    cls_or_type_key: Any = None,
    /,
    *,
    type_key: str | None = None,
    frozen: bool = False,
    init: bool = True,
    repr: bool = True,
    eq: bool = False,
    order: bool = False,
    unsafe_hash: bool = False,
    match_args: bool = True,
    kw_only: bool = False,
    structural_eq: str | None = "tree",
    slots: bool = True,
) -> Any: ...
def c_class(
    type_key: str,
    *,
    frozen: bool = False,
    init: bool = True,
    repr: bool = True,
    eq: bool = False,
    order: bool = False,
    unsafe_hash: bool = False,
    match_args: bool = True,
) -> Callable[[_T], _T]: ...
def is_dataclass(obj: Any) -> bool: ...
def fields(obj_or_cls: Any) -> tuple[Field, ...]: ...
def asdict(obj: Any, *, dict_factory: Any = ...) -> Any: ...
def astuple(obj: Any) -> tuple[Any, ...]: ...
def replace(obj: _T, /, **changes: Any) -> _T: ...

__all__ = [
    "KW_ONLY",
    "MISSING",
    "Enum",
    "EnumAttrMap",
    "EnumState",
    "Field",
    "IntEnum",
    "Object",
    "StrEnum",
    "asdict",
    "astuple",
    "auto",
    "c_class",
    "entry",
    "field",
    "fields",
    "gen_abi_cpp",
    "init_property",
    "is_dataclass",
    "py_class",
    "replace",
]
