"""Keyword-argument wrappers for positional-only callables (FFI functions)."""

import inspect
from collections.abc import Callable, Iterable
from typing import Any

from ..core import MISSING as MISSING
from .unpack_dataclass import unpack_dataclass_to_tuple as unpack_dataclass_to_tuple

def make_kwargs_wrapper(
    target_func: Callable[..., Any],
    arg_names: list[str],
    arg_defaults: tuple[Any, ...] = (),
    kwonly_names: list[str] | None = None,
    kwonly_defaults: dict[str, Any] | None = None,
    prototype: Callable[..., Any] | None = None,
    map_dataclass_to_tuple: list[str] | None = None,
) -> Callable[..., Any]: ...
def make_kwargs_wrapper_from_signature(
    target_func: Callable[..., Any],
    signature: inspect.Signature,
    prototype: Callable[..., Any] | None = None,
    exclude_arg_names: Iterable[str] | None = None,
    map_dataclass_to_tuple: list[str] | None = None,
) -> Callable[..., Any]: ...

__all__ = [
    "MISSING",
    "make_kwargs_wrapper",
    "make_kwargs_wrapper_from_signature",
    "unpack_dataclass_to_tuple",
]
