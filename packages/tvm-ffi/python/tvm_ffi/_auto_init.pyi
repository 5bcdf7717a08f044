"""The Python __init__ of C++ types whose __ffi_init__ is made from their fields, and KWARGS."""

from collections.abc import Callable, Mapping
from typing import Any

from ._core import Function, Object
from ._reflection import TypeInfo

KWARGS: Object

def is_auto_init(type_index: int, method_name: str = "__ffi_init__") -> bool: ...
def kwargs_tail(kwargs: Mapping[str, Any]) -> list[Any]: ...
def make_auto_init(ctor: Function, type_info: TypeInfo) -> Callable[..., None]: ...
