"""Global functions and object classes: registering, looking up and binding them to Python."""

from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar, overload

from ._core import Function, Object

_F = TypeVar("_F", bound=Callable[..., Any])
_O = TypeVar("_O", bound=type[Object])

@overload
def register_global_func(
    func_name: str, f: None = None, override: bool = False
) -> Callable[[_F], _F]: ...
@overload
def register_global_func(func_name: str, f: _F, override: bool = False) -> _F: ...

register_func = register_global_func

@overload
def get_global_func(name: str, allow_missing: Literal[False] = False) -> Function: ...
@overload
def get_global_func(name: str, allow_missing: bool) -> Function | None: ...
def remove_global_func(name: str) -> bool: ...
def list_global_func_names() -> list[str]: ...
def convert(value: Any) -> Any: ...
def get_global_func_metadata(name: str) -> dict[str, Any]: ...
def convert_func(pyfunc: Callable[..., Any], tensor_cls: type | None = None) -> Function: ...
@overload
def register_object(type_key: str | None = None) -> Callable[[_O], _O]: ...
@overload
def register_object(type_key: _O) -> _O: ...
def get_registered_type_keys() -> Sequence[str]: ...
def init_ffi_api(namespace: str, target_module_name: str | None = None) -> None: ...

__all__ = [
    "Object",
    "convert",
    "convert_func",
    "get_global_func",
    "get_global_func_metadata",
    "get_registered_type_keys",
    "init_ffi_api",
    "list_global_func_names",
    "register_func",
    "register_global_func",
    "register_object",
    "remove_global_func",
]
