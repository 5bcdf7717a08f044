"""Stubs of tvm_ffi.structural."""

from typing import Any

from ._structural_visit import (
    DefRegionKind as DefRegionKind,
)
from ._structural_visit import (
    InplaceMode as InplaceMode,
)
from ._structural_visit import (
    StructuralMutator as StructuralMutator,
)
from ._structural_visit import (
    StructuralVisitor as StructuralVisitor,
)
from ._structural_visit import (
    VisitInterrupt as VisitInterrupt,
)
from ._structural_visit import (
    WalkOrder as WalkOrder,
)
from ._structural_visit import (
    WalkResult as WalkResult,
)
from ._structural_visit import (
    structural_map as structural_map,
)
from ._structural_visit import (
    structural_mutate as structural_mutate,
)
from ._structural_visit import (
    structural_visit as structural_visit,
)
from ._structural_visit import (
    structural_walk as structural_walk,
)
from .access_path import AccessPath

def structural_equal(
    lhs: Any, rhs: Any, map_free_vars: bool = False, skip_tensor_content: bool = False
) -> bool: ...
def structural_hash(
    value: Any, map_free_vars: bool = False, skip_tensor_content: bool = False
) -> int: ...
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
