"""Error kinds across the FFI: builtin exceptions by name, registered kinds."""

from collections.abc import Callable
from typing import TypeVar, overload

_E = TypeVar("_E", bound=type[BaseException])

@overload
def register_error(name_or_cls: _E, cls: None = None) -> _E: ...
@overload
def register_error(name_or_cls: str | None = None, cls: None = None) -> Callable[[_E], _E]: ...
@overload
def register_error(name_or_cls: str | None, cls: _E) -> _E: ...
def error_class(kind: str) -> type[BaseException] | None: ...
