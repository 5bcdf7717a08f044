"""Array, Map and Shape: the FFI's immutable containers, as Python sequences and mappings."""

import collections.abc

from . import _core
from ._core import Object
from .registry import register_object

_MISSING = object()  # what Map.get returns for an absent key, told apart from any value


@register_object("ffi.Array")
class Array(Object):
    """An immutable sequence of FFI values. Lists and tuples passed to functions become Arrays."""

    __slots__ = ()

    def __init__(self, input_list=()):
        self.__move_handle_from__(_core.array_new(input_list))

    def __len__(self):
        return _core.array_size(self)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return Array(_core.array_to_list(self)[index])
        return _core.array_getitem(self, index)

    def __iter__(self):
        return iter(_core.array_to_list(self))

    def __contains__(self, value):
        return value in _core.array_to_list(self)

    def __eq__(self, other):
        if isinstance(other, (Array, list, tuple)):
            return _core.array_to_list(self) == list(other)
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        # By value, like the tuple it equals (apache-tvm-ffi hashes Arrays by value too).
        return hash(tuple(self))

    def __add__(self, other):
        return Array(_core.array_to_list(self) + list(other))

    def __radd__(self, other):
        return Array(list(other) + _core.array_to_list(self))

    def __repr__(self):
        if not self.__ffi_handle__:
            return Object.__repr__(self)
        return "[" + ", ".join(repr(v) for v in self) + "]"

    def __reduce__(self):
        return (Array, (_core.array_to_list(self),))


@register_object("ffi.Map")
class Map(Object):
    """An insertion-ordered, immutable mapping. Dicts passed to functions become Maps."""

    __slots__ = ()

    def __init__(self, input_dict=None):
        if type(input_dict) is not dict:
            input_dict = dict(input_dict or {})
        self.__move_handle_from__(_core.map_new(input_dict))

    def __len__(self):
        return _core.map_size(self)

    def __getitem__(self, key):
        return _core.map_getitem(self, key)

    def __contains__(self, key):
        return _core.map_contains(self, key)

    def __iter__(self):
        return iter(self.keys())

    def get(self, key, default=None):
        return _core.map_get(self, key, default)

    def items(self):
        return _core.map_items(self)

    def keys(self):
        return [k for k, _ in _core.map_items(self)]

    def values(self):
        return [v for _, v in _core.map_items(self)]

    def __eq__(self, other):
        if not isinstance(other, (Map, dict)):
            return NotImplemented
        if len(self) != len(other):
            return False
        # Look other's keys up by this Map's key rules: a tuple key is an Array here.
        for key, value in other.items():
            try:
                mine = _core.map_get(self, key, _MISSING)
            except (TypeError, OverflowError):  # a key no Map can hold is not in this one
                return False
            if mine is _MISSING or not mine == value:
                return False
        return True

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        # By value, consistent with __eq__; unhashable values make the Map unhashable.
        return hash(frozenset(self.items()))

    def __repr__(self):
        if not self.__ffi_handle__:
            return Object.__repr__(self)
        return "{" + ", ".join(f"{k!r}: {v!r}" for k, v in self.items()) + "}"

    def __reduce__(self):
        return (Map, (dict(self.items()),))


@register_object("ffi.Shape")
class Shape(Object):
    """An immutable tuple of int64, e.g. a tensor's shape."""

    __slots__ = ()

    def __init__(self, dims=()):
        self.__move_handle_from__(_core.shape_new(dims))

    def __len__(self):
        return len(_core.shape_to_tuple(self))

    def __getitem__(self, index):
        return _core.shape_to_tuple(self)[index]

    def __iter__(self):
        return iter(_core.shape_to_tuple(self))

    def __eq__(self, other):
        if isinstance(other, (Shape, tuple, list)):
            return _core.shape_to_tuple(self) == tuple(other)
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(_core.shape_to_tuple(self))

    def __repr__(self):
        if not self.__ffi_handle__:
            return Object.__repr__(self)
        return "Shape(" + repr(_core.shape_to_tuple(self)) + ")"

    def __reduce__(self):
        return (Shape, (_core.shape_to_tuple(self),))


collections.abc.Sequence.register(Array)
collections.abc.Mapping.register(Map)
collections.abc.Sequence.register(Shape)
