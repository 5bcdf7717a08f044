"""unpack_dataclass_to_tuple: dataclass values as nested tuples, the shape FFI functions take."""

from __future__ import annotations

import dataclasses
import threading

# The schema marker for a field whose value is unpacked by dispatching on its type at run time.
UNPACK = "unpack"

# Per thread: class -> the function unpacking its instances (no lock on the hot path).
_CACHE = threading.local()


def _leaf(x):
    return x


def _unpacker_for(cls):
    """The function unpacking one instance of `cls` (built once per class and thread)."""
    if dataclasses.is_dataclass(cls):
        names = tuple(f.name for f in dataclasses.fields(cls))

        def unpack(x, _names=names):
            return tuple(unpack_dataclass_to_tuple(getattr(x, n)) for n in _names)

        return unpack
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):  # a named tuple: one argument a field
        return lambda x: cls(*(unpack_dataclass_to_tuple(e) for e in x))
    if issubclass(cls, (list, tuple)):
        return lambda x: cls(unpack_dataclass_to_tuple(e) for e in x)
    if issubclass(cls, dict):
        return lambda x: {k: unpack_dataclass_to_tuple(v) for k, v in x.items()}
    return _leaf


def unpack_dataclass_to_tuple(x):
    """Recursively unpack a dataclass value to its tuple representation.

    A dataclass instance becomes the tuple of its (unpacked) field values, in field order;
    lists and tuples are unpacked element-wise and keep their type (named tuples too); dicts
    keep their keys and have their values unpacked; anything else is returned as it is (leaf
    values are not copied). Unlike ``dataclasses.astuple`` nothing is deep-copied.
    """
    try:
        cache = _CACHE.by_class
    except AttributeError:
        cache = _CACHE.by_class = {}
    cls = type(x)
    unpack = cache.get(cls)
    if unpack is None:
        unpack = cache[cls] = _unpacker_for(cls)
    return unpack(x)


__all__ = ["UNPACK", "unpack_dataclass_to_tuple"]
