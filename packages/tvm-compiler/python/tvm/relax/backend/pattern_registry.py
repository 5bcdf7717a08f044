"""The table of fusion patterns backends register (relax.backend.pattern_registry): later
registrations take priority, and lookups return the highest-priority pattern first."""

from __future__ import annotations

# Every registered FusionPattern, in order of registration (the last has the highest priority).
_REGISTRY: list = []


def _as_fusion_pattern(item, i):
    from ..transform.fuse_ops_by_pattern import FusionPattern

    if isinstance(item, FusionPattern):
        return item
    if isinstance(item, tuple) and 2 <= len(item) <= 5:
        return FusionPattern(*item)
    raise TypeError(
        f"register_patterns: patterns[{i}] must be a FusionPattern or a tuple (name, pattern"
        f"[, annotation_patterns[, check]]), got {type(item).__name__}"
    )


def register_patterns(patterns):
    """Register patterns (FusionPatterns or tuples FusionPattern takes); the ones later in the
    list get higher priority when FuseOpsByPattern partitions a dataflow block."""
    if not isinstance(patterns, (list, tuple)) or (
        isinstance(patterns, tuple) and patterns and isinstance(patterns[0], str)
    ):
        raise TypeError(
            f"register_patterns: patterns must be a list of FusionPattern or tuples, got "
            f"{type(patterns).__name__}"
        )
    entries = [_as_fusion_pattern(p, i) for i, p in enumerate(patterns)]
    _REGISTRY.extend(entries)


def get_patterns_with_prefix(prefix: str) -> list:
    """The registered patterns whose names start with prefix, highest priority first."""
    if not isinstance(prefix, str):
        raise TypeError(
            f"get_patterns_with_prefix: prefix must be a str, got {type(prefix).__name__}"
        )
    return [p for p in reversed(_REGISTRY) if p.name.startswith(prefix)]


def get_pattern(name: str):
    """The registered pattern called name (the latest registered), or None."""
    if not isinstance(name, str):
        raise TypeError(f"get_pattern: name must be a str, got {type(name).__name__}")
    for p in reversed(_REGISTRY):
        if p.name == name:
            return p
    return None
