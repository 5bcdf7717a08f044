"""The table of ONNX op converters, each registered with the opset version it follows since."""

from __future__ import annotations

from collections.abc import Callable

# op type -> [(since_version, converter)], kept sorted by version.
_CONVERTERS: dict[str, list[tuple[int, Callable]]] = {}


def converter(*op_types: str, since: int = 1):
    """Register fn as the converter of op_types for opsets >= since (until a later one)."""

    def register(fn):
        for op_type in op_types:
            versions = _CONVERTERS.setdefault(op_type, [])
            versions.append((since, fn))
            versions.sort(key=lambda item: item[0])
        return fn

    return register


def lookup(op_type: str, opset: int) -> Callable | None:
    """The converter that follows op_type's semantics at this opset, or None."""
    chosen = None
    for since, fn in _CONVERTERS.get(op_type, ()):
        if since <= opset:
            chosen = fn
    return chosen


def supported_ops() -> list[str]:
    return sorted(_CONVERTERS)
