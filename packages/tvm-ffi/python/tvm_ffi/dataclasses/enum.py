"""Enum, IntEnum, StrEnum: FFI object types whose instances are a fixed set of named singletons."""

from __future__ import annotations

import typing
from typing import Any, ClassVar

from .. import _core
from .._core import Object
from .._reflection import MISSING, type_info_of
from ..container import Dict, List
from ..registry import register_object
from .field import field
from .py_class import py_class

ENUM_STATE_ATTR = "__ffi_enum__"
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1

# Python-defined enums keep their variant registry here, keyed by FFI type index (upstream keeps
# it in the `__ffi_enum__` type-attribute column; our runtime has no type attributes).
_STATES: dict[int, Any] = {}


@py_class("ffi.EnumState")
class EnumState(Object):
    """The variant registry of one enum type: variants in order, lookup by index, extra attrs."""

    entries: List = field(default_factory=lambda: List([]))
    indexes: Dict = field(default_factory=lambda: Dict({}))
    attrs: Dict = field(default_factory=lambda: Dict({}))


class _EnumEntry:
    """What `entry(...)` / `auto()` put in a class body; the class turns it into a variant."""

    __slots__ = ("args", "kwargs")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs

    def __repr__(self) -> str:
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return "entry(" + ", ".join(parts) + ")"


def entry(*args: Any, **kwargs: Any) -> Any:
    """Declares one variant in an Enum class body; the arguments fill its declared fields
    (IntEnum / StrEnum variants give their index as ``value=``)."""
    return _EnumEntry(*args, **kwargs)


def auto() -> Any:
    """Declares one variant with no field values; its index comes from its position."""
    return _EnumEntry()


def _check_index(index: Any, func: str) -> int | str:
    if isinstance(index, bool):
        return int(index)
    if isinstance(index, int):
        if not _INT64_MIN <= index <= _INT64_MAX:
            raise OverflowError(f"{func}: enum integer index {index} is outside int64")
        return index
    if isinstance(index, str):
        return index
    raise TypeError(
        f"{func}: argument `index`: enum index must be int or str, got {type(index).__name__}"
    )


def _state(cls: type, create: bool = False) -> Any:
    index = cls.__dict__.get("__ffi_type_index__")
    if index is None:
        return None
    state = _STATES.get(index)
    if state is None and create:
        state = _STATES[index] = EnumState()
    return state


class _ClassProperty:
    """A read-only property of the class itself (Enum.attr_dict)."""

    def __init__(self, fget):
        self.fget = fget
        self.__doc__ = fget.__doc__

    def __get__(self, instance, owner=None):
        return self.fget(owner if owner is not None else type(instance))


class _EnumMeta(type):
    """Makes an enum class iterable over its variants and callable with an index."""

    def __iter__(cls):
        state = _state(cls)
        return iter(() if state is None else list(state.entries))

    def __len__(cls) -> int:
        state = _state(cls)
        return 0 if state is None else len(state.entries)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and not kwargs:
            value = args[0]
            if isinstance(value, cls):
                return value
            if isinstance(value, (int, str)):
                try:
                    return cls.get(value)
                except KeyError:
                    raise ValueError(f"{value!r} is not a valid {cls.__name__}") from None
        return super().__call__(*args, **kwargs)


@py_class("ffi.Enum", frozen=True, init=False, structural_eq="singleton")
class Enum(Object, metaclass=_EnumMeta):
    """Base of FFI enum types: ``class Color(Enum, type_key="my.Color"): red = auto()``.

    Variants are frozen singletons with an integer index (their position) and a string index
    (their name); declared fields are filled per variant by ``entry(field=...)``.
    """

    _int_index: int = field(kw_only=True)
    _str_index: str = field(kw_only=True)

    def __init_subclass__(
        cls,
        *,
        type_key: str | None = None,
        frozen: bool = True,
        init: bool = True,
        repr: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        if type_key is None:
            return  # an abstract intermediate base; only classes with a type key get variants
        if not isinstance(type_key, str):
            raise TypeError(
                f"{cls.__name__}: argument `type_key` must be a str, got {type(type_key).__name__}"
            )
        payload = int if issubclass(cls, IntEnum) else str if issubclass(cls, StrEnum) else None
        own_repr = "__repr__" in cls.__dict__
        binders, declarations = _collect(cls, payload)
        for alias in [*binders, *declarations]:
            _refuse_shadowing(cls, alias)  # before the type key is taken
        _strip_class_vars(cls)
        if _cxx_enum_index(type_key) is not None:
            _bind_cxx_enum(cls, type_key, payload, own_repr, binders, declarations)
            return
        # init / repr are options of C++-declared enums (c_class); a Python enum always gets
        # an __init__ (its variants are made with it) and the `key.name` repr, as upstream.
        py_class(type_key, frozen=frozen, structural_eq="singleton")(cls)
        if payload is not None:
            _install_payload(cls, payload, own_repr)
        _register_variants(cls, payload, binders, declarations)

    @property
    def name(self) -> str:
        """The variant's name (its string index)."""
        return self._str_index

    @property
    def value(self) -> Any:
        """The variant's integer index (its declaration position)."""
        return self._int_index

    def __repr__(self) -> str:
        return f"{type(self).__ffi_type_key__}.{self._str_index}"

    def __copy__(self):
        return self  # variants are singletons

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (type(self).get, (self._str_index,))

    @classmethod
    def get(cls, index: int | str) -> Any:
        """The variant at an integer or string index; KeyError when there is none."""
        index = _check_index(index, f"{cls.__name__}.get")
        state = _state(cls)
        if state is None or index not in state.indexes:
            raise KeyError(index)
        return state.indexes[index]

    @classmethod
    def all_entries(cls):
        """Iterates over the variants in registration order."""
        return iter(cls)

    @classmethod
    def entries(cls):
        """Iterates over the variants in registration order."""
        return iter(cls)

    @_ClassProperty
    def attr_dict(cls) -> Any:
        """The live ``{attr name: {variant: value}}`` Dict of the attributes set by def_attr."""
        state = _state(cls)
        return Dict({}) if state is None else state.attrs

    @classmethod
    def def_attr(cls, name: str, *, default: Any = MISSING) -> EnumAttrMap:
        """A per-variant attribute table, stored with the enum's registry."""
        return EnumAttrMap(cls, name, default=default)


@py_class("ffi.IntEnum", frozen=True, init=False, structural_eq="singleton")
class IntEnum(Enum):
    """Enum whose variants are declared with int values (``low = 10`` or ``entry(value=10)``);
    ``value`` is the integer index and variants compare and hash like their value."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        _refuse_value_field(cls, "IntEnum")
        super().__init_subclass__(**kwargs)


@py_class("ffi.StrEnum", frozen=True, init=False, structural_eq="singleton")
class StrEnum(Enum):
    """Enum whose variants are declared with str values (``add = "+"``); ``name`` and ``value``
    are that string and variants compare and hash like it."""

    @property
    def value(self) -> str:
        return self._str_index

    def __init_subclass__(cls, **kwargs: Any) -> None:
        _refuse_value_field(cls, "StrEnum")
        super().__init_subclass__(**kwargs)


class EnumAttrMap:
    """A table of one extra attribute per variant of one enum class (see Enum.def_attr)."""

    __slots__ = ("_default", "_enum_cls", "_name")

    def __init__(self, enum_cls: type, name: str, *, default: Any = MISSING) -> None:
        if not (isinstance(enum_cls, type) and issubclass(enum_cls, Enum)):
            raise TypeError(
                "EnumAttrMap: argument `enum_cls` must be an Enum subclass, "
                f"got {getattr(enum_cls, '__name__', type(enum_cls).__name__)}"
            )
        if not isinstance(name, str):
            raise TypeError(
                f"EnumAttrMap: argument `name` must be a str, got {type(name).__name__}"
            )
        self._enum_cls = enum_cls
        self._name = name
        self._default = default

    @property
    def name(self) -> str:
        """The attribute's name."""
        return self._name

    def _check(self, variant: object) -> None:
        if not isinstance(variant, self._enum_cls):
            raise TypeError(f"expected {self._enum_cls.__name__}, got {type(variant).__name__}")

    def _column(self, create: bool) -> Any:
        state = _state(self._enum_cls, create=create)
        if state is None:
            return None
        column = state.attrs.get(self._name)
        if column is None and create:
            column = Dict({})
            state.attrs[self._name] = column
        return column

    def __setitem__(self, variant: object, value: Any) -> None:
        self._check(variant)
        self._column(True)[variant] = value

    def __getitem__(self, variant: object) -> Any:
        self._check(variant)
        column = self._column(False)
        if column is not None and variant in column:
            return column[variant]
        if self._default is not MISSING:
            return self._default
        raise KeyError(f"{variant!r} has no extensible attribute {self._name!r}")

    def __contains__(self, variant: object) -> bool:
        if not isinstance(variant, self._enum_cls):
            return False
        column = self._column(False)
        return column is not None and variant in column

    def get(self, variant: object, default: Any = None) -> Any:
        """The value stored for variant, else default."""
        return self[variant] if variant in self else default


def _is_class_var(annotation: Any) -> bool:
    if isinstance(annotation, str):
        return annotation.replace(" ", "").startswith(("ClassVar", "typing.ClassVar"))
    return annotation is ClassVar or typing.get_origin(annotation) is ClassVar


def _collect(cls: type, payload: type | None):
    """Splits the class body into bare `name: ClassVar[Cls]` binders and variant declarations
    (removed from the class; the variants replace them)."""
    annotations = cls.__dict__.get("__annotations__", {})
    binders = [
        name
        for name, ann in annotations.items()
        if not name.startswith("_") and _is_class_var(ann) and name not in cls.__dict__
    ]
    fields = {name for name, ann in annotations.items() if not _is_class_var(ann)}
    declarations: dict[str, _EnumEntry] = {}
    for name, value in list(cls.__dict__.items()):
        if name.startswith("_") or name in fields:
            continue
        if isinstance(value, _EnumEntry):
            declarations[name] = value
        elif payload is not None and not (
            callable(value) or isinstance(value, (staticmethod, classmethod, property))
        ):
            declarations[name] = _EnumEntry(value=value)  # `low = 10` in an IntEnum
        else:
            continue
        delattr(cls, name)
    return binders, declarations


def _strip_class_vars(cls: type) -> None:
    """ClassVar annotations name variants, not fields; py_class must not see them."""
    annotations = cls.__dict__.get("__annotations__")
    if annotations:
        cls.__annotations__ = {k: v for k, v in annotations.items() if not _is_class_var(v)}


def _refuse_value_field(cls: type, base: str) -> None:
    if "value" in cls.__dict__ or "value" in cls.__dict__.get("__annotations__", {}):
        raise TypeError(f"{base} reserves `value` as its canonical index alias")


def _install_payload(cls: type, payload: type, own_repr: bool) -> None:
    def __eq__(self, other):
        if isinstance(other, type(self)):
            return self.value == other.value
        if isinstance(other, payload):
            return self.value == other
        return NotImplemented

    def __ne__(self, other):
        result = __eq__(self, other)
        return result if result is NotImplemented else not result

    methods = {
        "__eq__": __eq__,
        "__ne__": __ne__,
        "__hash__": lambda self: hash(self.value),
        "__str__": lambda self: str(self.value),
    }
    for key, method in methods.items():
        if key not in cls.__dict__:
            setattr(cls, key, method)
    if not own_repr:
        cls.__repr__ = lambda self: f"{type(self).__name__}.{self.name}"


def _indices(cls, alias, ordinal, decl, payload):
    """(int index, str index, the declaration less its value) of one declared variant."""
    kwargs = dict(decl.kwargs)
    for reserved in ("_int_index", "_str_index", "name") + (("value",) if payload is None else ()):
        if reserved in kwargs:
            raise TypeError(
                f"{cls.__name__}.{alias}: `{reserved}` is inferred and cannot be given to entry()"
            )
    if payload is None:
        return ordinal, alias, decl
    if "value" not in kwargs:
        raise TypeError(f"{cls.__name__}.{alias} requires a {payload.__name__} value")
    value = kwargs.pop("value")
    if type(value) is not payload:
        raise TypeError(
            f"{cls.__name__}.{alias} value must be {payload.__name__}, got {type(value).__name__}"
        )
    rest = _EnumEntry(*decl.args, **kwargs)
    if payload is int:
        _check_index(value, f"{cls.__name__}.{alias}")
        return value, alias, rest
    return ordinal, value, rest


def _new_variant(cls, int_index, str_index, decl):
    try:
        return cls(*decl.args, _int_index=int_index, _str_index=str_index, **decl.kwargs)
    except Exception as err:
        raise TypeError(f"{cls.__name__}.{str_index}: invalid enum entry: {err}") from None


def _refuse_shadowing(cls, alias) -> None:
    """A variant is set as a class attribute: one named `name`, `value`, `get`, ... would
    replace that attribute for every variant (C.red.name would be the variant C.name)."""
    for base in cls.__mro__[1:]:
        if alias in base.__dict__:
            raise TypeError(
                f"{cls.__name__}.{alias}: a variant cannot be named {alias!r}, which "
                f"{base.__name__} defines"
            )


def _cxx_enum_index(type_key: str) -> int | None:
    """The index of `type_key` when C++ declares it as an enum (it publishes its variants by the
    static method __ffi_enum_entries__), else None."""
    try:
        index = _core.type_key_to_index(type_key)
    except KeyError:
        return None
    return index if type_info_of(index).find_method("__ffi_enum_entries__") is not None else None


def _bind_cxx_enum(cls, type_key, payload, own_repr, binders, declarations) -> None:
    """Makes `cls` the Python class of the C++-declared enum `type_key`: its variants are the C++
    singletons (``name: ClassVar[Cls]`` binds one by name), its attributes the C++ ones."""
    if declarations:
        names = ", ".join(declarations)
        raise TypeError(
            f"{cls.__name__}: the variants of the C++ enum `{type_key}` are declared in C++; "
            f"bind them with `name: ClassVar[{cls.__name__}]`, not by value ({names})"
        )
    # Before the class takes the key the variants come back as plain Objects: read the name
    # through the reflected field.
    raw = type_info_of(_core.type_key_to_index(type_key))
    name_of = next(f for f in raw.all_fields() if f.name == "_str_index").getter
    names = {name_of.__get__(v) for v in raw.find_method("__ffi_enum_entries__").func()}
    for alias in binders:  # checked before the class takes the key
        if alias not in names:
            raise TypeError(
                f"{cls.__name__}.{alias}: the C++ enum `{type_key}` has no such variant"
            )
    register_object(type_key)(cls)
    if payload is not None:
        _install_payload(cls, payload, own_repr)
    info = cls.__tvm_ffi_type_info__
    # A class bound again (another Python class for the key) gets a registry of its own; the
    # variants come back wrapped by this class.
    state = _STATES[cls.__ffi_type_index__] = EnumState()
    for variant in info.find_method("__ffi_enum_entries__").func():
        state.entries.append(variant)
        state.indexes[variant._int_index] = variant
        state.indexes[variant._str_index] = variant
    attrs_method = info.find_method("__ffi_enum_attrs__")
    for attr, column in (attrs_method.func() if attrs_method is not None else {}).items():
        state.attrs[attr] = Dict({state.indexes[name]: value for name, value in column.items()})
    for variant in state.entries:  # every C++ variant is a class attribute, bound or not
        _refuse_shadowing(cls, variant._str_index)
        setattr(cls, variant._str_index, variant)


def _register_variants(cls, payload, binders, declarations) -> None:
    state = _state(cls, create=True)
    entries, indexes = state.entries, state.indexes

    def add(variant):
        entries.append(variant)
        indexes[variant._int_index] = variant
        indexes[variant._str_index] = variant

    for alias in binders:  # bare `name: ClassVar[Cls]`: a variant with no field values
        if payload is int:
            raise TypeError(f"{cls.__name__}.{alias} requires an integer value")
        variant = _new_variant(cls, len(entries), alias, _EnumEntry())
        add(variant)
        setattr(cls, alias, variant)
    for alias, decl in declarations.items():
        int_index, str_index, rest = _indices(cls, alias, len(entries), decl, payload)
        # A payload value seen before makes this name an alias of that variant.
        canonical = int_index if payload is int else str_index
        variant = indexes.get(canonical) if payload is not None else None
        if variant is None:
            if int_index in indexes or str_index in indexes:
                raise ValueError(f"duplicate enum index in {cls.__name__}.{alias}")
            variant = _new_variant(cls, int_index, str_index, rest)
            add(variant)
        setattr(cls, alias, variant)


__all__ = [
    "ENUM_STATE_ATTR",
    "Enum",
    "EnumAttrMap",
    "EnumState",
    "IntEnum",
    "StrEnum",
    "auto",
    "entry",
]
