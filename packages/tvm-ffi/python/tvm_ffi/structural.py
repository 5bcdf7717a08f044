"""structural_equal/hash, get_first_structural_mismatch, StructuralKey (C++: src/structural.cc)."""

from __future__ import annotations

from typing import Any

from . import access_path as _access_path  # noqa: F401  (registers the AccessPath classes)

# The structural visit/mutate/walk API, under tvm_ffi.structural as apache-tvm-ffi has it.
from ._structural_visit import (
    DefRegionKind,
    InplaceMode,
    StructuralMutator,
    StructuralVisitor,
    VisitInterrupt,
    WalkOrder,
    WalkResult,
    structural_map,
    structural_mutate,
    structural_visit,
    structural_walk,
)
from .registry import get_global_func

_equal = get_global_func("ffi.StructuralEqual")
_hash = get_global_func("ffi.StructuralHash")
_mismatch = get_global_func("ffi.GetFirstStructuralMismatch")


def _check_flags(func, map_free_vars, skip_tensor_content):
    for name, value in (
        ("map_free_vars", map_free_vars),
        ("skip_tensor_content", skip_tensor_content),
    ):
        if not isinstance(value, bool):
            raise TypeError(f"{func}: argument `{name}` must be a bool, got {type(value).__name__}")


def structural_equal(
    lhs: Any, rhs: Any, map_free_vars: bool = False, skip_tensor_content: bool = False
) -> bool:
    """Check structural equality between two values.

    Containers compare element by element, registered objects field by field (by their
    structural kind: tree, var, dag, const-tree, singleton); fields marked ``ignore`` are
    skipped and ``def`` fields bind free variables. A type without a structural kind raises
    TypeError; a cyclic value raises ValueError.
    """
    _check_flags("structural_equal", map_free_vars, skip_tensor_content)
    return _equal(lhs, rhs, map_free_vars, skip_tensor_content)


def structural_hash(
    value: Any, map_free_vars: bool = False, skip_tensor_content: bool = False
) -> int:
    """A hash consistent with structural_equal (an unsigned 64-bit int)."""
    _check_flags("structural_hash", map_free_vars, skip_tensor_content)
    return _hash(value, map_free_vars, skip_tensor_content) & 0xFFFFFFFFFFFFFFFF


def get_first_structural_mismatch(
    lhs: Any, rhs: Any, map_free_vars: bool = False, skip_tensor_content: bool = False
):
    """None when structurally equal, else the (lhs, rhs) AccessPaths of the first difference."""
    _check_flags("get_first_structural_mismatch", map_free_vars, skip_tensor_content)
    result = _mismatch(lhs, rhs, map_free_vars, skip_tensor_content)
    return None if result is None else (result[0], result[1])


class StructuralKey:
    """Wraps a value so dicts and sets key it by structure (structural_equal, structural_hash)."""

    __slots__ = ("hash_i64", "key")

    def __init__(self, key: Any):
        self.key = key
        self.hash_i64 = structural_hash(key)

    def __hash__(self):
        return self.hash_i64

    def __eq__(self, other):
        if not isinstance(other, StructuralKey):
            return NotImplemented
        return self.hash_i64 == other.hash_i64 and structural_equal(self.key, other.key)

    def __repr__(self):
        return f"StructuralKey({self.key!r})"


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
