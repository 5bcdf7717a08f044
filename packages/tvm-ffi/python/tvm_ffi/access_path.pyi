"""Stubs of tvm_ffi.access_path."""

from enum import IntEnum
from typing import Any

from ._core import Object as Object
from .registry import register_object as register_object

class AccessKind(IntEnum):
    ATTR = 0
    ARRAY_ITEM = 1
    MAP_ITEM = 2
    ATTR_MISSING = 3
    ARRAY_ITEM_MISSING = 4
    MAP_ITEM_MISSING = 5

class AccessStep(Object):
    kind: int
    key: Any

class AccessPath(Object):
    parent: AccessPath | None
    step: AccessStep | None
    depth: int
    @staticmethod
    def root() -> AccessPath: ...
    def attr(self, name: str) -> AccessPath: ...
    def attr_missing(self, name: str) -> AccessPath: ...
    def array_item(self, index: int) -> AccessPath: ...
    def array_item_missing(self, index: int) -> AccessPath: ...
    def map_item(self, key: Any) -> AccessPath: ...
    def map_item_missing(self, key: Any) -> AccessPath: ...
    def to_steps(self) -> Any: ...
    def is_prefix_of(self, other: AccessPath) -> bool: ...

__all__ = ["AccessKind", "AccessPath", "AccessStep", "Object", "register_object"]
