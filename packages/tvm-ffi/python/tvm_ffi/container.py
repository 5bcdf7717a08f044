"""Array, Map, Shape (immutable) and List, Dict (mutable, shared): the FFI's containers."""

import collections.abc
from _thread import get_ident

from . import _core
from ._core import Object
from ._object_hooks import value_repr
from .registry import get_global_func, register_object

_MISSING = object()  # what Map.get returns for an absent key, told apart from any value

# (thread, handle) of each container whose hash is being computed: a container met again
# inside itself (a List holding itself) hashes as a fixed marker instead of recursing forever.
_HASHING = set()
_CYCLE_HASH = hash("...")


def _content_hash(container, contents):
    """hash(contents(container)): containers hash by value, consistently with their ==."""
    key = (get_ident(), container.__ffi_handle__)
    if key in _HASHING:
        return _CYCLE_HASH
    _HASHING.add(key)
    try:
        return hash(contents(container))
    finally:
        _HASHING.discard(key)


def _items(mapping):
    return frozenset(mapping.items())


class CContainerBase:
    """Base of the FFI containers Array, Map, List and Dict (isinstance checks, as upstream)."""

    __slots__ = ()


@register_object("ffi.Array")
class Array(CContainerBase, Object):
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
        return _content_hash(self, tuple)

    def __add__(self, other):
        return Array(_core.array_to_list(self) + list(other))

    def __radd__(self, other):
        return Array(list(other) + _core.array_to_list(self))

    def __repr__(self):
        if not self.__ffi_handle__:
            return Object.__repr__(self)
        return value_repr(self)  # as upstream: `(1, "a", (2,))`

    def __reduce__(self):
        return (Array, (_core.array_to_list(self),))


@register_object("ffi.Map")
class Map(CContainerBase, Object):
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
        return _content_hash(self, _items)

    def __repr__(self):
        if not self.__ffi_handle__:
            return Object.__repr__(self)
        return value_repr(self)  # as upstream: `{"a": 1, 2: (3,)}`

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
        return repr(_core.shape_to_tuple(self))  # as upstream's Shape, a tuple: `(2, 3)`

    def __reduce__(self):
        return (Shape, (_core.shape_to_tuple(self),))


def _api(name):
    return get_global_func("ffi." + name)


def _slice_indices(func, index, size):
    if not isinstance(index, slice):
        raise TypeError(f"{func}: indices must be integers or slices, not {type(index).__name__}")
    return index.indices(size)


# What List + x and x + List concatenate with.
_SEQUENCES = (list, tuple, Array, collections.abc.Sequence)


@register_object("ffi.List")
class List(CContainerBase, Object):
    """A mutable sequence shared by every reference: unlike Array it is never copied on write,
    so a change made through one reference (or by C++) is seen through all of them."""

    __slots__ = ()

    def __init__(self, input_list=()):
        self.__init_handle_by_constructor__(_api("List"), *input_list)

    def __len__(self):
        return _api("ListSize")(self)

    def _index(self, func, index):
        if not isinstance(index, int) and hasattr(index, "__index__"):
            index = index.__index__()
        if not isinstance(index, int):
            raise TypeError(
                f"{func}: indices must be integers or slices, not {type(index).__name__}"
            )
        return index

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._to_list()[index]
        return _api("ListGetItem")(self, self._index("List.__getitem__", index))

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start, stop, step = _slice_indices("List.__setitem__", index, len(self))
            values = list(value)
            if step == 1:
                _api("ListReplaceSlice")(self, start, max(start, stop), Array(values))
                return
            targets = range(start, stop, step)
            if len(values) != len(targets):
                raise ValueError(
                    f"List.__setitem__: attempt to assign sequence of size {len(values)} "
                    f"to extended slice of size {len(targets)}"
                )
            for i, v in zip(targets, values):
                _api("ListSetItem")(self, i, v)
            return
        _api("ListSetItem")(self, self._index("List.__setitem__", index), value)

    def __delitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = _slice_indices("List.__delitem__", index, len(self))
            if step == 1:
                _api("ListReplaceSlice")(self, start, max(start, stop), Array())
                return
            for i in sorted(range(start, stop, step), reverse=True):
                _api("ListPop")(self, i)
            return
        _api("ListPop")(self, self._index("List.__delitem__", index))

    def insert(self, index, value):
        """Inserts `value` before position `index` (clamped into the List, like list.insert)."""
        _api("ListInsert")(self, self._index("List.insert", index), value)

    def append(self, value):
        _api("ListAppend")(self, value)

    def extend(self, values):
        append = _api("ListAppend")
        for v in list(values):  # a snapshot: l.extend(l) doubles l once
            append(self, v)

    def pop(self, index=-1):
        """Removes and returns the item at `index` (default last); IndexError when out of range."""
        return _api("ListPop")(self, self._index("List.pop", index))

    def clear(self):
        _api("ListClear")(self)

    def reverse(self):
        _api("ListReverse")(self)

    def _to_list(self):
        return _core.array_to_list(_api("ListToArray")(self))

    # MutableSequence's mixin methods, written out: an ABC base makes `import tvm_ffi` slower.
    def index(self, value, start=0, stop=None):
        """The first position of `value` in [start, stop); ValueError when absent."""
        items = self._to_list()
        try:
            return items.index(value, start, len(items) if stop is None else stop)
        except ValueError:
            raise ValueError(f"List.index: {value!r} is not in List") from None

    def count(self, value):
        return self._to_list().count(value)

    def remove(self, value):
        """Removes the first `value`; ValueError when absent."""
        try:
            i = self._to_list().index(value)
        except ValueError:
            raise ValueError(f"List.remove: {value!r} is not in List") from None
        _api("ListPop")(self, i)

    def __iter__(self):
        return iter(self._to_list())

    def __reversed__(self):
        return reversed(self._to_list())

    def __contains__(self, value):
        return value in self._to_list()

    def __eq__(self, other):
        if isinstance(other, Object) and other.same_as(self):
            return True  # as list: a List holding itself equals itself (no endless recursion)
        if isinstance(other, (List, Array, list, tuple)):
            return self._to_list() == list(other)
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        # By value, as upstream and consistently with ==: a List equal to an Array or tuple
        # hashes as it does. The hash changes when the List does, like any mutable key's.
        return _content_hash(self, tuple)

    def __add__(self, other):
        if not isinstance(other, _SEQUENCES):
            return NotImplemented  # as list: "unsupported operand type(s)", not "not iterable"
        return List(self._to_list() + list(other))

    def __radd__(self, other):
        if not isinstance(other, _SEQUENCES):
            return NotImplemented
        return List(list(other) + self._to_list())

    def __iadd__(self, other):
        self.extend(other)
        return self

    def __repr__(self):
        if not self.__ffi_handle__:
            return Object.__repr__(self)
        return value_repr(self)

    def __reduce__(self):
        return (List, (self._to_list(),))


@register_object("ffi.Dict")
class Dict(CContainerBase, Object):
    """An insertion-ordered mutable mapping shared by every reference: unlike Map it is never
    copied on write, so all references (and C++) see each change at once."""

    __slots__ = ()

    def __init__(self, input_dict=None):
        if input_dict is None:
            input_dict = {}
        elif not isinstance(input_dict, (dict, collections.abc.Mapping)):
            raise TypeError(
                f"Dict: argument `input_dict` must be a mapping, got {type(input_dict).__name__}"
            )
        flat = []
        for k, v in input_dict.items():
            flat += (k, v)
        self.__init_handle_by_constructor__(_api("Dict"), *flat)

    def __len__(self):
        return _api("DictSize")(self)

    def __getitem__(self, key):
        try:
            return _api("DictGetItem")(self, key)
        except KeyError:
            raise KeyError(key) from None

    def __setitem__(self, key, value):
        _api("DictSetItem")(self, key, value)

    def __delitem__(self, key):
        if not _api("DictErase")(self, key):
            raise KeyError(key)

    def __contains__(self, key):
        try:
            return _api("DictCount")(self, key)
        except TypeError:  # a key no Dict can hold is not in this one
            return False

    def get(self, key, default=None):
        return self[key] if key in self else default

    def items(self):
        flat = _core.array_to_list(_api("DictItems")(self))
        return list(zip(flat[0::2], flat[1::2]))

    def keys(self):
        return [k for k, _ in self.items()]

    def values(self):
        return [v for _, v in self.items()]

    def __iter__(self):
        return iter(self.keys())

    def clear(self):
        _api("DictClear")(self)

    # MutableMapping's mixin methods, written out: an ABC base makes `import tvm_ffi` slower.
    def pop(self, key, default=_MISSING):
        """Removes `key` and returns its value; `default` (or KeyError) when absent."""
        try:
            value = self[key]
        except KeyError:
            if default is _MISSING:
                raise
            return default
        del self[key]
        return value

    def setdefault(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            self[key] = default
            return default

    def update(self, other=(), **kwargs):
        """Like dict.update: from a mapping, an iterable of pairs, and keyword arguments."""
        if hasattr(other, "keys"):
            for key in other.keys():
                self[key] = other[key]
        else:
            for key, value in other:
                self[key] = value
        for key, value in kwargs.items():
            self[key] = value

    def popitem(self):
        """Removes and returns the newest (key, value) pair, like dict.popitem."""
        items = self.items()
        if not items:
            raise KeyError("popitem(): Dict is empty")
        key, value = items[-1]
        del self[key]
        return key, value

    def __eq__(self, other):
        if isinstance(other, Object) and other.same_as(self):
            return True  # a Dict holding itself equals itself (no endless recursion)
        if not isinstance(other, (Dict, Map, dict)):
            return NotImplemented
        return dict(self.items()) == dict(other.items())

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        # By value, as upstream and consistently with == (a Dict equal to a Map hashes as it).
        return _content_hash(self, _items)

    def __repr__(self):
        if not self.__ffi_handle__:
            return Object.__repr__(self)
        return value_repr(self)

    def __reduce__(self):
        return (Dict, (dict(self.items()),))


collections.abc.Sequence.register(Array)
collections.abc.MutableSequence.register(List)
collections.abc.MutableMapping.register(Dict)
collections.abc.Mapping.register(Map)
collections.abc.Sequence.register(Shape)

__all__ = ["Array", "CContainerBase", "Dict", "List", "Map", "Shape"]
