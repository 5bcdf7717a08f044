"""Stubs of tvm_ffi.dataclasses.enum."""

from collections.abc import Iterator
from typing import Any, ClassVar

from .._core import Object
from ..container import Dict, List

ENUM_STATE_ATTR: str

class EnumState(Object):
    entries: List
    indexes: Dict
    attrs: Dict
    __match_args__ = ("entries", "indexes", "attrs")
    def __init__(self, entries: Any = ..., indexes: Any = ..., attrs: Any = ...) -> None: ...

class _EnumEntry:
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...

def entry(*args: Any, **kwargs: Any) -> Any: ...
def auto() -> Any: ...

class _EnumMeta(type):
    def __iter__(cls) -> Iterator[Any]: ...
    def __len__(cls) -> int: ...
    def __call__(cls, *args: Any, **kwargs: Any) -> Any: ...

class Enum(Object, metaclass=_EnumMeta):
    _int_index: int
    _str_index: str
    attr_dict: ClassVar[Any]
    __match_args__: ClassVar[tuple[str, ...]]
    def __init_subclass__(
        cls,
        *,
        type_key: str | None = None,
        frozen: bool = True,
        init: bool = True,
        repr: bool = True,
        **kwargs: Any,
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> Any: ...
    @classmethod
    def get(cls, index: int | str) -> Any: ...
    @classmethod
    def all_entries(cls) -> Iterator[Any]: ...
    @classmethod
    def entries(cls) -> Iterator[Any]: ...
    @classmethod
    def def_attr(cls, name: str, *, default: Any = ...) -> EnumAttrMap: ...

class IntEnum(Enum):
    @property
    def value(self) -> int: ...

class StrEnum(Enum):
    @property
    def value(self) -> str: ...

class EnumAttrMap:
    def __init__(self, enum_cls: type, name: str, *, default: Any = ...) -> None: ...
    @property
    def name(self) -> str: ...
    def __setitem__(self, variant: object, value: Any) -> None: ...
    def __getitem__(self, variant: object) -> Any: ...
    def __contains__(self, variant: object) -> bool: ...
    def get(self, variant: object, default: Any = None) -> Any: ...

__all__ = [
    "ENUM_STATE_ATTR",
    "Enum",
    "EnumAttrMap",
    "EnumState",
    "IntEnum",
    "StrEnum",
    "auto",
    "entry",
]
