"""Modules: shared libraries exporting FFI functions, loaded with load_module(path)."""

import enum
import os
from typing import Literal, overload

from ._core import Function, Object

class Module(Object):
    """A collection of functions, e.g. a loaded library. ``mod["name"]`` or ``mod.name``."""

    @property
    def kind(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def imports(self) -> list[Module]: ...
    def import_module(self, other: Module) -> None: ...
    @overload
    def get_function(
        self, name: str, allow_missing: Literal[False] = False, query_imports: bool = True
    ) -> Function: ...
    @overload
    def get_function(
        self, name: str, allow_missing: bool, query_imports: bool = True
    ) -> Function | None: ...
    def __getitem__(self, name: str) -> Function: ...
    def __getattr__(self, name: str) -> Function: ...
    def __contains__(self, name: object) -> bool: ...

def load_module(path: str | os.PathLike[str]) -> Module: ...
def system_lib(symbol_prefix: str = "") -> Module: ...

class ModulePropertyMask(enum.IntEnum):
    BINARY_SERIALIZABLE = 1
    RUNNABLE = 2
    COMPILATION_EXPORTABLE = 4

__all__ = ["Module", "ModulePropertyMask", "load_module", "system_lib"]
