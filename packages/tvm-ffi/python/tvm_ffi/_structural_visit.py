"""structural_walk/map/visit/mutate: typed traversals over the reflected fields of FFI values."""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from enum import IntEnum
from typing import Any

from . import _core
from ._core import Object
from ._reflection import type_info_of
from .container import Array, Map
from .dataclasses.py_class import py_class

_ARRAY, _MAP = 71, 72


class WalkOrder(IntEnum):
    """Callback placement before or after recursively traversing children."""

    PREORDER = 0
    POSTORDER = 1


class WalkResult(IntEnum):
    """Control signal for structural walks: ADVANCE visits the children, SKIP does not."""

    ADVANCE = 0
    SKIP = 1


class DefRegionKind(IntEnum):
    """Whether a value sits inside a field that defines variables (field(structural_eq="def...")."""

    NONE = 0
    DEF_PATTERN = 1
    DEF_SIMPLE = 2


class InplaceMode(IntEnum):
    """Whether a mutation callback may change its value in place (this implementation: never)."""

    DISALLOW = 0
    ALLOW = 1


@py_class("ffi.VisitInterrupt", structural_eq=None)
class VisitInterrupt(Object):
    """Payload-carrying signal that stops a structural visit: return it from a callback."""

    value: Any = None
    __match_args__ = ("value",)

    def __init__(self, value: Any = None) -> None:
        _core.dyn_init(self, type(self).__ffi_type_index__, value)


_DEF_KIND = {
    "def": DefRegionKind.DEF_PATTERN,
    "def-pattern": DefRegionKind.DEF_PATTERN,
    "def-simple": DefRegionKind.DEF_SIMPLE,
}


def _parse_callbacks(func: str, callbacks) -> list:
    """Entries (types, callback): a bare callable catches all; tuples and sequences as upstream."""
    if callable(callbacks) and not isinstance(callbacks, type):
        return [((object,), callbacks)]
    if (
        isinstance(callbacks, tuple)
        and len(callbacks) == 2
        and callable(callbacks[1])
        and not (
            isinstance(callbacks[0], tuple) and len(callbacks[0]) == 2 and callable(callbacks[0][1])
        )
    ):
        types = callbacks[0] if isinstance(callbacks[0], tuple) else (callbacks[0],)
        for t in types:
            if t is not typing.Any and not isinstance(t, type):
                raise TypeError(
                    f"{func}: callback type must be a builtin, typing.Any/object or an FFI "
                    f"object class, got {t!r}"
                )
        return [(tuple(object if t is typing.Any else t for t in types), callbacks[1])]
    if isinstance(callbacks, (list, tuple)):
        out = []
        for entry in callbacks:
            out += _parse_callbacks(func, entry)
        return out
    raise TypeError(
        f"{func}: callbacks must be callbacks, (type, callback) entries, "
        "((type1, type2, ...), callback) entries, or sequences of them; "
        f"got {type(callbacks).__name__}"
    )


def _as_ffi(root):
    """Python lists, tuples and dicts walk as the Arrays and Maps they convert to."""
    if isinstance(root, (list, tuple, dict)):
        from ._core import convert

        return convert(root)
    return root


def _match(entries, value):
    for types, callback in entries:
        if isinstance(value, types):
            return callback
    return None


def _parse_order(func: str, order) -> WalkOrder:
    if isinstance(order, WalkOrder):
        return order
    if order in ("pre", "post"):
        return WalkOrder.PREORDER if order == "pre" else WalkOrder.POSTORDER
    raise ValueError(
        f"{func}: argument `order` must be 'pre', 'post' or a WalkOrder, got {order!r}"
    )


class _Guard:
    """The chain of objects being traversed: meeting one again is a cycle (a ValueError)."""

    def __init__(self, func: str):
        self.func = func
        self.active: set = set()

    def enter(self, value) -> int:
        handle = value.__ffi_handle__
        if handle in self.active:
            raise ValueError(
                f"{self.func}: argument `root` contains a cycle through an object of type "
                f"`{value.__ffi_type_key__}`"
            )
        self.active.add(handle)
        return handle


def _children(value, kind):
    """(child, def-region kind) pairs: Array items, Map values, non-ignored object fields."""
    if not isinstance(value, Object) or not value.__ffi_handle__:
        return []
    index = value.__ffi_type_index__
    if index == _ARRAY:
        return [(v, kind) for v in value]
    if index == _MAP:
        return [(v, kind) for _k, v in value.items()]
    out = []
    for f in type_info_of(index).all_fields():
        if f.c_structural_eq == "ignore":
            continue
        out.append(
            (f.getter.__get__(value), _DEF_KIND.get(f.c_structural_eq, kind) if kind == 0 else kind)
        )
    return out


def _rebuild(value, kind, mapper):
    """value with each child replaced by mapper(child, kind); value itself when nothing changed."""
    if not isinstance(value, Object) or not value.__ffi_handle__:
        return value
    index = value.__ffi_type_index__
    if index == _ARRAY:
        items = list(value)
        new = [mapper(v, kind) for v in items]
        return value if all(a is b or _same(a, b) for a, b in zip(items, new)) else Array(new)
    if index == _MAP:
        items = list(value.items())
        new = [(k, mapper(v, kind)) for k, v in items]
        return value if all(_same(a[1], b[1]) for a, b in zip(items, new)) else Map(dict(new))
    fields = [f for f in type_info_of(index).all_fields() if f.c_structural_eq != "ignore"]
    if not fields:
        return value
    changed = []
    for f in fields:
        old = f.getter.__get__(value)
        new = mapper(old, _DEF_KIND.get(f.c_structural_eq, kind) if kind == 0 else kind)
        if not _same(old, new):
            changed.append((f, new))
    if not changed:
        return value
    from ._object_hooks import object_copy

    out = object_copy(value)
    for f, new in changed:
        f.getter.set(out, new)
    return out


def _same(a, b) -> bool:
    if isinstance(a, Object) and isinstance(b, Object):
        return a.same_as(b)
    return a is b or (type(a) is type(b) and a == b)


def structural_walk(
    root: Any, callbacks: Any = (), with_def_region_kind: Any = (), order: Any = "post"
):
    """Walk a value (every occurrence, as a tree) and invoke the first matching callback on each.

    Returning VisitInterrupt from a callback stops the walk and is returned; in pre-order,
    WalkResult.SKIP skips the value's children. Cycles are a ValueError.
    """
    plain = _parse_callbacks("structural_walk", callbacks)
    with_kind = _parse_callbacks("structural_walk", with_def_region_kind)
    walk_order = _parse_order("structural_walk", order)
    guard = _Guard("structural_walk")

    def call(value, kind):
        cb = _match(plain, value)
        if cb is not None:
            return cb(value)
        cb = _match(with_kind, value)
        return cb(value, DefRegionKind(kind)) if cb is not None else None

    def walk(value, kind):
        if walk_order == WalkOrder.PREORDER:
            result = call(value, kind)
            if isinstance(result, VisitInterrupt):
                return result
            if isinstance(result, WalkResult) and result == WalkResult.SKIP:
                return None
        if isinstance(value, Object) and value.__ffi_handle__:
            handle = guard.enter(value)
            try:
                for child, child_kind in _children(value, kind):
                    stop = walk(child, child_kind)
                    if stop is not None:
                        return stop
            finally:
                guard.active.discard(handle)
        if walk_order == WalkOrder.POSTORDER:
            result = call(value, kind)
            if isinstance(result, VisitInterrupt):
                return result
        return None

    return walk(_as_ffi(root), 0)


def structural_map(
    root: Any, callbacks: Any = (), with_def_region_kind: Any = (), order: Any = "post"
):
    """Map a value with replacement callbacks: mutate(x) = post(D(pre(x))), copy-on-write.

    Callbacks return their input unchanged or a replacement; they must not mutate it.
    A value nothing changes under is returned as the same object.
    """
    plain = _parse_callbacks("structural_map", callbacks)
    with_kind = _parse_callbacks("structural_map", with_def_region_kind)
    map_order = _parse_order("structural_map", order)
    guard = _Guard("structural_map")

    def call(value, kind):
        cb = _match(plain, value)
        if cb is not None:
            return cb(value)
        cb = _match(with_kind, value)
        return cb(value, DefRegionKind(kind)) if cb is not None else value

    def mapper(value, kind):
        if map_order == WalkOrder.PREORDER:
            value = call(value, kind)
        if isinstance(value, Object) and value.__ffi_handle__:
            handle = guard.enter(value)
            try:
                value = _rebuild(value, kind, mapper)
            finally:
                guard.active.discard(handle)
        if map_order == WalkOrder.POSTORDER:
            value = call(value, kind)
        return value

    return mapper(_as_ffi(root), 0)


class _Traversal:
    """What visitor and mutator share: callback entries, the cycle guard, the def-region kind."""

    _entries: list
    _guard: _Guard
    _kind: DefRegionKind
    _func = ""

    @classmethod
    def _make(cls, entries):
        self = object.__new__(cls)
        self._entries = entries
        self._guard = _Guard(cls._func)
        self._kind = DefRegionKind.NONE
        return self

    @property
    def def_region_kind(self) -> DefRegionKind:
        """The def-region kind of the value being traversed."""
        return self._kind

    def with_def_region_kind(self, kind: int, func: Callable[[], Any]) -> Any:
        """Run func with the def-region kind set to kind."""
        old, self._kind = self._kind, DefRegionKind(kind)
        try:
            return func()
        finally:
            self._kind = old


class StructuralVisitor(_Traversal):
    """The visitor a structural_visit callback receives: visit(child) or default_visit(value)."""

    _func = "structural_visit"

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "`StructuralVisitor` cannot be constructed directly; structural_visit supplies one"
        )

    def visit(self, value: Any) -> None:
        """Visit value: the first matching callback owns its descent; else default_visit."""
        cb = _match(self._entries, value)
        if cb is None:
            self.default_visit(value)
            return
        result = cb(value, self)
        if isinstance(result, VisitInterrupt):
            raise _Interrupt(result)

    def default_visit(self, value: Any) -> None:
        """Visit every child of value (Array items, Map values, non-ignored fields)."""
        if not (isinstance(value, Object) and value.__ffi_handle__):
            return
        handle = self._guard.enter(value)
        try:
            for child, kind in _children(value, int(self._kind)):
                self.with_def_region_kind(kind, functools.partial(self.visit, child))
        finally:
            self._guard.active.discard(handle)


class _Interrupt(Exception):
    def __init__(self, payload):
        super().__init__()
        self.payload = payload


def structural_visit(root: Any, callbacks: Any = ()):
    """Visit a value with callbacks(value, visitor) owning child traversal; VisitInterrupt stops."""
    visitor = StructuralVisitor._make(_parse_callbacks("structural_visit", callbacks))
    try:
        visitor.visit(_as_ffi(root))
    except _Interrupt as stop:
        return stop.payload
    return None


class StructuralMutator(_Traversal):
    """The mutator a structural_mutate callback receives: mutate(child) or default_mutate(value)."""

    _func = "structural_mutate"
    _remap: dict

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "`StructuralMutator` cannot be constructed directly; structural_mutate supplies one"
        )

    @classmethod
    def _make(cls, entries):
        self = super()._make(entries)
        self._remap = {}
        return self

    def var_remap_get(self, var: Any) -> Any:
        """The replacement recorded for var, or None."""
        return self._remap.get(var.__ffi_handle__ if isinstance(var, Object) else id(var))

    def var_remap_set(self, var: Any, value: Any) -> None:
        """Record value as var's replacement."""
        self._remap[var.__ffi_handle__ if isinstance(var, Object) else id(var)] = value

    def mutate(self, value: Any) -> Any:
        """The mutated value: the first matching callback's result (final), else default_mutate."""
        cb = _match(self._entries, value)
        if cb is None:
            return self.default_mutate(value)
        if _takes_mode(cb):
            return cb(value, self, InplaceMode.DISALLOW)
        return cb(value, self)

    def default_mutate(self, value: Any) -> Any:
        """value with every child mutated (copy-on-write)."""
        if not (isinstance(value, Object) and value.__ffi_handle__):
            return value
        handle = self._guard.enter(value)
        try:
            return _rebuild(
                value,
                int(self._kind),
                lambda child, kind: self.with_def_region_kind(kind, lambda: self.mutate(child)),
            )
        finally:
            self._guard.active.discard(handle)


def _takes_mode(callback) -> bool:
    """True when a mutate callback takes the third (inplace_mode) argument."""
    try:
        params = inspect.signature(callback).parameters.values()
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 3 or any(p.kind == p.VAR_POSITIONAL for p in params)


def structural_mutate(root: Any, callbacks: Any = ()) -> Any:
    """Mutate a value with callbacks(value, mutator[, inplace_mode]) that own recursive mutation."""
    return StructuralMutator._make(_parse_callbacks("structural_mutate", callbacks)).mutate(
        _as_ffi(root)
    )


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
