"""Stubs of tvm_ffi.dataclasses."""

from collections.abc import Callable
from typing import Any, TypeVar

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
    "Field",
    "asdict",
    "astuple",
    "c_class",
    "field",
    "fields",
    "is_dataclass",
    "py_class",
    "replace",
]
