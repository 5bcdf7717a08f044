"""AccessPath and AccessStep: where in a value something is (structural mismatches report them)."""

from __future__ import annotations

import json
from enum import IntEnum
from typing import Any

from ._core import Object
from .registry import get_global_func, register_object

_root = get_global_func("ffi.reflection.AccessPathRoot")
_extend = get_global_func("ffi.reflection.AccessPathExtend")


class AccessKind(IntEnum):
    """The kind of one step of an AccessPath."""

    ATTR = 0
    ARRAY_ITEM = 1
    MAP_ITEM = 2
    ATTR_MISSING = 3
    ARRAY_ITEM_MISSING = 4
    MAP_ITEM_MISSING = 5


def _key_text(key) -> str:
    return json.dumps(str(key), ensure_ascii=False) if isinstance(key, str) else repr(key)


@register_object("ffi.reflection.AccessStep")
class AccessStep(Object):
    """One step: an attribute, array index or map key, present or missing (fields kind, key)."""

    __slots__ = ()
    kind: int
    key: Any

    def __repr__(self):
        kind, key = self.kind, self.key
        if kind == AccessKind.ATTR:
            return f".{key}"
        if kind in (AccessKind.ARRAY_ITEM, AccessKind.MAP_ITEM):
            return f"[{_key_text(key)}]"
        return f"[<missing:{_key_text(key)}>]"

    def __eq__(self, other):
        if not isinstance(other, AccessStep):
            return NotImplemented
        return (
            self.kind == other.kind and type(self.key) is type(other.key) and self.key == other.key
        )

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = Object.__hash__


@register_object("ffi.reflection.AccessPath")
class AccessPath(Object):
    """A path from a root value: the parent path plus one step (fields parent, step, depth)."""

    __slots__ = ()
    parent: AccessPath | None
    step: AccessStep | None
    depth: int

    @staticmethod
    def root() -> AccessPath:
        """The empty path (prints as `<root>`)."""
        return _root()

    def _ext(self, kind, key) -> AccessPath:
        return _extend(self, int(kind), key)

    def attr(self, name: str) -> AccessPath:
        """This path followed by attribute `name`."""
        if not isinstance(name, str):
            raise TypeError(
                f"AccessPath.attr: argument `name` must be a str, got {type(name).__name__}"
            )
        return self._ext(AccessKind.ATTR, name)

    def attr_missing(self, name: str) -> AccessPath:
        """This path followed by an attribute `name` that is absent."""
        if not isinstance(name, str):
            raise TypeError(
                f"AccessPath.attr_missing: argument `name` must be a str, got {type(name).__name__}"
            )
        return self._ext(AccessKind.ATTR_MISSING, name)

    def array_item(self, index: int) -> AccessPath:
        """This path followed by array index `index`."""
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(
                "AccessPath.array_item: argument `index` must be an int, "
                f"got {type(index).__name__}"
            )
        return self._ext(AccessKind.ARRAY_ITEM, index)

    def array_item_missing(self, index: int) -> AccessPath:
        """This path followed by an array index `index` past the end."""
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(
                "AccessPath.array_item_missing: argument `index` must be an int, "
                f"got {type(index).__name__}"
            )
        return self._ext(AccessKind.ARRAY_ITEM_MISSING, index)

    def map_item(self, key) -> AccessPath:
        """This path followed by map key `key`."""
        return self._ext(AccessKind.MAP_ITEM, key)

    def map_item_missing(self, key) -> AccessPath:
        """This path followed by a map key `key` that is absent."""
        return self._ext(AccessKind.MAP_ITEM_MISSING, key)

    def to_steps(self) -> Any:
        """The steps from the root, as an Array of AccessStep."""
        from .container import Array

        steps = []
        path: AccessPath | None = self
        while path is not None and path.step is not None:
            steps.append(path.step)
            path = path.parent
        return Array(steps[::-1])

    def is_prefix_of(self, other: AccessPath) -> bool:
        """True when `other` starts with every step of this path."""
        if not isinstance(other, AccessPath):
            raise TypeError(
                "AccessPath.is_prefix_of: argument `other` must be an AccessPath, "
                f"got {type(other).__name__}"
            )
        if self.depth > other.depth:
            return False
        node: AccessPath | None = other
        while node is not None and node.depth > self.depth:
            node = node.parent
        return self == node

    def __eq__(self, other):
        if not isinstance(other, AccessPath):
            return NotImplemented
        return self.depth == other.depth and list(self.to_steps()) == list(other.to_steps())

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = Object.__hash__

    def __repr__(self):
        return "<root>" + "".join(repr(s) for s in self.to_steps())

    __str__ = __repr__


__all__ = ["AccessKind", "AccessPath", "AccessStep", "Object", "register_object"]
