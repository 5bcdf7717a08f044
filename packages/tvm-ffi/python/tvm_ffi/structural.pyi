"""Stubs of tvm_ffi.structural."""

from typing import Any

from ._structural_visit import (
    DefRegionKind as DefRegionKind,
    InplaceMode as InplaceMode,
    StructuralMutator as StructuralMutator,
    StructuralVisitor as StructuralVisitor,
    VisitInterrupt as VisitInterrupt,
    WalkOrder as WalkOrder,
    WalkResult as WalkResult,
    structural_map as structural_map,
    structural_mutate as structural_mutate,
    structural_visit as structural_visit,
    structural_walk as structural_walk,
)
from .access_path import AccessPath

def structural_equal(lhs: Any, rhs: Any, map_free_vars: bool = False, skip_tensor_content: bool = False) -> bool: ...
def structural_hash(value: Any, map_free_vars: bool = False, skip_tensor_content: bool = False) -> int: ...
def get_first_structural_mismatch(
    lhs: Any, rhs: Any, map_free_vars: bool = False, skip_tensor_content: bool = False
) -> tuple[AccessPath, AccessPath] | None: ...

class StructuralKey:
    key: Any
    hash_i64: int
    def __init__(self, key: Any) -> None: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

__all__ = [
    "StructuralKey",
    "get_first_structural_mismatch",
    "structural_equal",
    "structural_hash",
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
