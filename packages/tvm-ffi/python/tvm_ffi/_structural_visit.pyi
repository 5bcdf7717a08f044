"""Stubs of tvm_ffi._structural_visit."""

from collections.abc import Callable
from enum import IntEnum
from typing import Any

from ._core import Object

class WalkOrder(IntEnum):
    PREORDER = 0
    POSTORDER = 1

class WalkResult(IntEnum):
    ADVANCE = 0
    SKIP = 1

class DefRegionKind(IntEnum):
    NONE = 0
    DEF_PATTERN = 1
    DEF_SIMPLE = 2

class InplaceMode(IntEnum):
    DISALLOW = 0
    ALLOW = 1

class VisitInterrupt(Object):
    value: Any
    __match_args__ = ("value",)
    def __init__(self, value: Any = None) -> None: ...

class StructuralVisitor:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    @property
    def def_region_kind(self) -> DefRegionKind: ...
    def with_def_region_kind(self, kind: int, func: Callable[[], Any]) -> Any: ...
    def visit(self, value: Any) -> None: ...
    def default_visit(self, value: Any) -> None: ...

class StructuralMutator:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    @property
    def def_region_kind(self) -> DefRegionKind: ...
    def with_def_region_kind(self, kind: int, func: Callable[[], Any]) -> Any: ...
    def var_remap_get(self, var: Any) -> Any: ...
    def var_remap_set(self, var: Any, value: Any) -> None: ...
    def mutate(self, value: Any) -> Any: ...
    def default_mutate(self, value: Any) -> Any: ...

def structural_walk(
    root: Any, callbacks: Any = (), with_def_region_kind: Any = (), order: Any = "post"
) -> Any: ...
def structural_map(
    root: Any, callbacks: Any = (), with_def_region_kind: Any = (), order: Any = "post"
) -> Any: ...
def structural_visit(root: Any, callbacks: Any = ()) -> Any: ...
def structural_mutate(root: Any, callbacks: Any = ()) -> Any: ...

__all__ = [
    "DefRegionKind",
    "InplaceMode",
    "StructuralMutator",
    "StructuralVisitor",
    "VisitInterrupt",
    "WalkOrder",
    "WalkResult",
    "structural_map",
    "structural_mutate",
    "structural_visit",
    "structural_walk",
]
