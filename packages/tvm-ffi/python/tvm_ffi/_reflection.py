"""Reflection introspection: TypeInfo, TypeField, TypeMethod and TypeSchema of registered types."""

from __future__ import annotations

import sys as _sys

TYPE_CHECKING = False  # typing (and the re and enum it imports) would slow `import tvm_ffi`
if TYPE_CHECKING:
    from typing import Any

from . import _core

# Field flag bits (c_api.h)
FLAG_WRITABLE = 1
FLAG_SEQ_IGNORE = 1 << 3
FLAG_SEQ_DEF = 1 << 4
# Left out of repr / the field-wise == and ordering / the field-wise hash (upstream's values).
FLAG_REPR_OFF = 1 << 6
FLAG_COMPARE_OFF = 1 << 7
FLAG_HASH_OFF = 1 << 8
# The generated __ffi_init__ (ABI 1.4): the field may be left out / takes no argument / is
# taken only by name.
FLAG_HAS_DEFAULT = 1 << 1
FLAG_INIT_OFF = 1 << 9
FLAG_KW_ONLY = 1 << 10

# TVMFFISEqHashKind, by the names py_class(structural_eq=...) takes
SEQ_KINDS = {None: 0, "tree": 1, "var": 2, "dag": 3, "const-tree": 4, "singleton": 5}

_POD_KEYS = {0: "None", 1: "int", 2: "bool", 3: "float", 5: "DataType", 6: "Device"}
_PY_TYPES = {0: type(None), 1: int, 2: bool, 3: float}


class _MissingType:
    """The marker of an absent value: a field without a default (dataclasses.MISSING's
    counterpart), a missing key. One instance, kept across copies and pickling."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "<MISSING>"

    def __bool__(self):
        return False

    def __reduce__(self):
        return (_MissingType, ())


MISSING = _MissingType()


class _Factory:
    """A record field's default made fresh per instance (dataclasses' default_factory)."""

    def __init__(self, make):
        self.make = make


def _record(repr: bool = True):  # noqa: A002
    """A small @dataclass: __init__, __repr__, __eq__ and __match_args__ from the annotations.

    The standard dataclasses module costs more to import than the rest of tvm_ffi together.
    """

    def wrap(cls):
        names = list(cls.__dict__.get("__annotations__", {}))
        env: dict = {"_Factory": _Factory}
        params, body = ["self"], []
        for i, name in enumerate(names):
            if name in cls.__dict__:
                env[f"_d{i}"] = cls.__dict__[name]
                params.append(f"{name}=_d{i}")
                body.append(
                    f"    self.{name} = {name}.make() if type({name}) is _Factory else {name}"
                )
                delattr(cls, name)
            else:
                params.append(name)
                body.append(f"    self.{name} = {name}")
        exec(f"def __init__({', '.join(params)}):\n" + "\n".join(body or ["    pass"]) + "\n", env)  # noqa: S102
        cls.__init__ = env["__init__"]
        cls.__match_args__ = tuple(names)
        if repr:
            cls.__repr__ = lambda self: (
                f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"
            )

        def __eq__(self, other):
            if type(other) is not type(self):
                return NotImplemented
            return all(getattr(self, n) == getattr(other, n) for n in names)

        cls.__eq__ = __eq__
        cls.__hash__ = None
        if _sys.version_info >= (3, 13):
            # copy.replace() support, as @dataclass gives it from Python 3.13 on.
            def __replace__(self, **changes):
                unknown = set(changes) - set(names)
                if unknown:
                    raise TypeError(
                        f"{type(self).__name__}.__replace__() got unexpected field(s) "
                        f"{sorted(unknown)}"
                    )
                return type(self)(**{n: changes.get(n, getattr(self, n)) for n in names})

            cls.__replace__ = __replace__
        return cls

    return wrap


# Type keys of the registry's schemas (C++ signatures) folded into the names stubs use.
_ORIGIN_CONVERTER = {
    "Variant": "Union",
    "Optional": "Optional",
    "ffi.Function": "Callable",
    "ffi.Array": "Array",
    "ffi.List": "List",
    "ffi.Map": "Map",
    "ffi.Dict": "Dict",
    "ffi.OpaquePyObject": "Any",
    "ffi.Object": "Object",
    "ffi.Tensor": "Tensor",
    "ffi.BigInt": "int",
    "DLTensor*": "Tensor",
    "void*": "ctypes.c_void_p",
    "TVMFFIByteArray*": "bytes",
    "ffi.SmallBytes": "bytes",
    "ffi.Bytes": "bytes",
    "std::string": "str",
    "const char*": "str",
    "ffi.SmallStr": "str",
    "ffi.String": "str",
    "DataType": "dtype",
}


@_record(repr=False)
class TypeSchema:
    """The type of a field or argument: an origin type key and its type arguments.

    ``args`` holds positional type arguments; ``named_args`` maps a name to an ordered tuple of
    schemas (a typed function has ``return`` and ``params``).
    """

    origin: str
    args: tuple = ()
    named_args: dict | None = None

    @property
    def type_key(self) -> str:
        return self.origin

    @staticmethod
    def from_type_index(type_index: int) -> TypeSchema:
        """The schema of values of the type with this index (-1: Any)."""
        if type_index == -1:
            return TypeSchema("Any")
        if type_index in _POD_KEYS:
            return TypeSchema(_POD_KEYS[type_index])
        return TypeSchema(_core.type_info(type_index)["type_key"] if type_index >= 0 else "Any")

    @staticmethod
    def from_json_obj(obj: dict) -> TypeSchema:
        """The schema of a parsed JSON object such as ``{"type": "ffi.Array", "args": [...]}``."""
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise TypeError(
                "TypeSchema.from_json_obj: argument `obj` must be a dict with a str 'type', "
                f"got {obj!r}"
            )
        origin = _ORIGIN_CONVERTER.get(obj["type"], obj["type"])
        named = None
        if "named_args" in obj:
            raw = obj["named_args"]
            if not isinstance(raw, dict) or not all(isinstance(v, list) for v in raw.values()):
                raise TypeError(
                    "TypeSchema.from_json_obj: 'named_args' must map names to lists of schemas, "
                    f"got {raw!r}"
                )
            named = {k: tuple(TypeSchema.from_json_obj(v) for v in vs) for k, vs in raw.items()}
        args = obj.get("args", ())
        if not isinstance(args, (list, tuple)):
            args = ()
        args = tuple(TypeSchema.from_json_obj(a) for a in args if isinstance(a, dict))
        if origin in ("Array", "List") and not args:
            args = (TypeSchema("Any"),)
        elif origin in ("Map", "Dict") and not args:
            args = (TypeSchema("Any"), TypeSchema("Any"))
        return TypeSchema(origin, args, named)

    @staticmethod
    def from_json_str(s: str) -> TypeSchema:
        """The schema of a JSON text (what get_global_func_metadata's "type_schema" holds)."""
        import json

        try:
            obj = json.loads(s)
        except (TypeError, ValueError) as err:
            raise ValueError(
                f"TypeSchema.from_json_str: argument `s` must be a JSON schema, got {s!r}: {err}"
            ) from None
        return TypeSchema.from_json_obj(obj)

    def to_json(self) -> dict:
        """The schema as a JSON-compatible dict (origins stay in their folded form)."""
        out: dict = {"type": self.origin}
        if self.args:
            out["args"] = [a.to_json() for a in self.args]
        if self.named_args is not None:
            out["named_args"] = {k: [v.to_json() for v in vs] for k, vs in self.named_args.items()}
        return out

    def _render(self, ty_map, input_mode: bool) -> str:
        origin = self.origin if ty_map is None else ty_map(self.origin)
        if origin == "Callable":
            named = self.named_args
            if not named or "return" not in named:
                return "Callable[..., Any]"
            ret = named["return"][0]._render(ty_map, input_mode)
            if "params" not in named:
                return f"Callable[..., {ret}]"
            params = ", ".join(p._render(ty_map, input_mode) for p in named["params"])
            return f"Callable[[{params}], {ret}]"
        args = [a._render(ty_map, input_mode) for a in self.args]
        if origin == "Union":
            return " | ".join(args)
        if origin == "Optional":
            return args[0] + " | None"
        return f"{origin}[{', '.join(args)}]" if args else origin

    def repr(self, ty_map=None) -> str:
        """The schema as upstream prints it: `Array[int]`, `int | None`, `Callable[[int], str]`.

        `ty_map` (a function of the origin name) renames origins before printing.
        """
        return self._render(ty_map, False)

    def input_repr(self, ty_map=None) -> str:
        """The annotation of what a parameter of this schema accepts."""
        return self._render(ty_map, True)

    def output_repr(self, ty_map=None) -> str:
        """The annotation of what a value of this schema is when returned."""
        return self._render(ty_map, False)

    def __repr__(self):
        return self.repr()


@_record()
class TypeField:
    """A reflected field: its name, layout, flags, descriptor and dataclass options."""

    name: str
    doc: str | None
    size: int
    alignment: int
    offset: int
    field_static_type_index: int
    frozen: bool
    metadata: dict = _Factory(dict)
    getter: Any = None
    setter: Any = None
    ty: Any = None
    c_init: bool = True
    c_kw_only: bool = False
    c_has_default: bool = False
    c_default: Any = MISSING
    c_default_factory: Any = MISSING
    c_repr: bool = True
    c_compare: bool = True
    c_hash: bool = True
    c_structural_eq: str | None = None
    dataclass_field: Any = None

    def as_property(self, cls):
        """The attribute to install on `cls` (the reflected field descriptor)."""
        return self.getter


@_record()
class TypeMethod:
    """A reflected method: a Function; an instance method takes the object first."""

    name: str
    doc: str | None
    func: Any
    metadata: dict = _Factory(dict)
    is_static: bool = False

    def as_callable(self, cls):
        """What to install on `cls`: a staticmethod, or a method passing self."""
        if self.is_static:
            return staticmethod(self.func)
        func = self.func

        def method(obj, *args):
            return func(obj, *args)

        method.__name__ = self.name
        method.__doc__ = self.doc
        return method


@_record()
class TypeInfo:
    """Aggregated type information required to build a proxy class."""

    type_cls: Any
    type_index: int
    type_key: str
    type_ancestors: list
    fields: list
    methods: list
    parent_type_info: TypeInfo | None
    structural_eq_hash_kind: int = 0

    def all_fields(self) -> list:
        """Fields of the ancestors first, then this type's own."""
        parent = self.parent_type_info.all_fields() if self.parent_type_info else []
        return parent + list(self.fields)

    def find_method(self, name: str):
        """The method `name` of this type or its nearest ancestor, or None."""
        info: TypeInfo | None = self
        while info is not None:
            for m in info.methods:
                if m.name == name:
                    return m
            info = info.parent_type_info
        return None


_cache: dict[int, TypeInfo] = {}


def _seq_name(flags: int) -> str | None:
    if flags & FLAG_SEQ_IGNORE:
        return "ignore"
    if flags & FLAG_SEQ_DEF:
        return "def"
    return None


def _field_default(type_index: int, name: str, flags: int):
    """The default a C++ field registered (reflection::default_value), else MISSING."""
    if not flags & FLAG_HAS_DEFAULT:
        return MISSING
    found, value = _core.field_default(type_index, name)
    return value if found else MISSING


def _metadata_dict(text: str | None) -> dict:
    """The registry's metadata JSON of a function, field or method as a dict ({} when none)."""
    if not text:
        return {}
    import json

    return json.loads(text)


def type_info_of(type_index: int, cls=None) -> TypeInfo:
    """The TypeInfo of a registered type index.

    Cached: lookups without `cls` (repr, copy, serialization: once per object) return the cached
    entry; registering a class (which passes `cls`) refreshes it when fields or methods grew.
    """
    cached = _cache.get(type_index)
    if cached is not None and cls is None:
        return cached
    raw = _core.type_info(type_index)
    if (
        cached is not None
        and len(cached.fields) == len(raw["fields"])
        and len(cached.methods) == len(raw["methods"])
        and (cls is None or cached.type_cls is cls)
    ):
        return cached
    ancestors = [_core.type_key_to_index(k) for k in raw["ancestors"]]
    parent = type_info_of(ancestors[-1]) if ancestors else None
    fields = []
    member_metadata = _core.member_metadata
    for (name, doc, descriptor), (flags, size, offset, static_index) in zip(
        raw["fields"], raw["field_meta"]
    ):
        fields.append(
            TypeField(
                name=name,
                doc=doc or None,
                size=size,
                alignment=min(size, 8),
                offset=offset,
                field_static_type_index=static_index,
                frozen=not (flags & FLAG_WRITABLE),
                metadata=_metadata_dict(member_metadata(type_index, 0, name)),
                getter=descriptor,
                setter=descriptor,
                ty=_PY_TYPES.get(static_index),
                c_repr=not (flags & FLAG_REPR_OFF),
                c_compare=not (flags & FLAG_COMPARE_OFF),
                # A field left out of == is left out of the hash too, so the two agree.
                c_hash=not (flags & (FLAG_HASH_OFF | FLAG_COMPARE_OFF)),
                c_structural_eq=_seq_name(flags),
                c_init=not (flags & FLAG_INIT_OFF),
                c_kw_only=bool(flags & FLAG_KW_ONLY),
                c_has_default=bool(flags & FLAG_HAS_DEFAULT),
                c_default=_field_default(type_index, name, flags),
            )
        )
    methods = [
        TypeMethod(
            name, doc or None, func, _metadata_dict(member_metadata(type_index, 1, name)), is_static
        )
        for name, doc, is_static, func in raw["methods"]
    ]
    meta = _core.type_metadata(type_index)
    if cls is None:
        cls = cached.type_cls if cached is not None else _core.class_for_type_index(type_index)
    info = TypeInfo(
        cls, type_index, raw["type_key"], ancestors, fields, methods, parent, meta[1] if meta else 0
    )
    if cached is not None and cached.fields:
        # Keep the dataclass options py_class / c_class attached to the fields.
        for new, old in zip(info.fields, cached.fields):
            for attr in (
                "c_init",
                "c_kw_only",
                "c_has_default",
                "c_default",
                "c_default_factory",
                "c_repr",
                "c_compare",
                "c_hash",
                "dataclass_field",
                "ty",
                "metadata",
            ):
                setattr(new, attr, getattr(old, attr))
    _cache[type_index] = info
    return info
