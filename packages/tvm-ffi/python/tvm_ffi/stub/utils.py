"""The stub generator's data model: options, and functions / object types read from the registry."""

from __future__ import annotations

import ctypes

from .._reflection import MISSING, TypeInfo, TypeSchema, type_info_of

# TVMFFIObject: a uint64 reference count, an int32 type index, 4 bytes of padding, a deleter.
_OBJECT_HEADER_SIZE = 16 + ctypes.sizeof(ctypes.c_void_p)

# Our registry's structural-equality flag names -> upstream's decoded names.
_STRUCTURAL_EQ_NAMES = {"ignore": "ignore", "def": "def-pattern"}


def parse_type_schema(raw) -> TypeSchema:
    """A TypeSchema from its JSON text or parsed dict."""
    if isinstance(raw, dict):
        return TypeSchema.from_json_obj(raw)
    return TypeSchema.from_json_str(raw)


def _schema_of(metadata: dict, what: str) -> TypeSchema:
    """The "type_schema" of a metadata dict; an untyped callable / Any when there is none."""
    raw = metadata.get("type_schema")
    if raw is None:
        return TypeSchema("Callable" if what == "function" else "Any")
    return parse_type_schema(raw)


class InitConfig:
    """What `--init-*` would scaffold (package, CMake target, prefix); kept for upstream's API."""

    def __init__(self, pkg: str, shared_target: str, prefix: str) -> None:
        self.pkg = pkg
        self.shared_target = shared_target
        self.prefix = prefix


class Options:
    """The command line options of tvm-ffi-stubgen."""

    def __init__(
        self,
        imports=None,
        dlls=None,
        init=None,
        indent: int = 4,
        files=None,
        verbose: bool = False,
        dry_run: bool = False,
        check: bool = False,
        target: str = "python",
        coverage_out: str | None = None,
    ) -> None:
        self.imports = list(imports or [])
        self.dlls = list(dlls or [])
        self.init = init
        self.indent = indent
        self.files = list(files or [])
        self.verbose = verbose
        self.dry_run = dry_run
        self.check = check
        self.target = target
        self.coverage_out = coverage_out

    def __repr__(self) -> str:
        return f"Options({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


class NamedTypeSchema(TypeSchema):
    """A TypeSchema with the name of the function, field or parameter it types.

    For a reflected field it also carries the registry's facts: `size` / `alignment` / `offset`
    (bytes, the offset from the object header; None for parameters and synthetic schemas),
    `default` (MISSING when none; `default_is_factory` when it is a factory),
    `structural_eq` ("ignore", "def-pattern" or None) and `frozen` (read-only).
    """

    def __init__(
        self,
        name: str,
        schema: TypeSchema,
        *,
        size: int | None = None,
        alignment: int | None = None,
        offset: int | None = None,
        default=MISSING,
        default_is_factory: bool = False,
        structural_eq: str | None = None,
        frozen: bool = False,
    ) -> None:
        super().__init__(schema.origin, schema.args, schema.named_args)
        self.name = name
        self.size = size
        self.alignment = alignment
        self.offset = offset
        self.default = default
        self.default_is_factory = default_is_factory
        self.structural_eq = structural_eq
        self.frozen = frozen

    @staticmethod
    def from_type_field(field) -> NamedTypeSchema:
        """The schema of a reflected TypeField (Any when the registry recorded none)."""
        factory = field.c_default_factory
        return NamedTypeSchema(
            field.name,
            _schema_of(field.metadata, "field"),
            size=field.size,
            alignment=field.alignment,
            offset=field.offset,
            default=factory if factory is not MISSING else field.c_default,
            default_is_factory=factory is not MISSING,
            structural_eq=_STRUCTURAL_EQ_NAMES.get(field.c_structural_eq),
            frozen=field.frozen,
        )


class FuncInfo:
    """A function to stub: its named schema, and whether it is an instance method."""

    def __init__(self, schema: NamedTypeSchema, is_member: bool) -> None:
        self.schema = schema
        self.is_member = is_member

    @staticmethod
    def from_schema(name: str, schema: TypeSchema, *, is_member: bool = False) -> FuncInfo:
        return FuncInfo(NamedTypeSchema(name, schema), is_member)

    def __repr__(self) -> str:
        return f"FuncInfo({self.schema.name!r}, {self.schema.repr()}, is_member={self.is_member})"


class InitFieldInfo:
    """A field that is a parameter of the type's `__init__`."""

    def __init__(self, name: str, schema: TypeSchema, kw_only: bool, has_default: bool) -> None:
        self.name = name
        self.schema = schema
        self.kw_only = kw_only
        self.has_default = has_default


def _is_hook(name: str) -> bool:
    """`__ffi_<x>__` methods but the constructor are hooks (copy, new, hash, eq, compare, repr),
    which upstream keeps as type attributes: not part of a type's Python API."""
    return name.startswith("__ffi_") and name.endswith("__") and name != "__ffi_init__"


class ObjectInfo:
    """An object type to stub: its own fields, its methods, and the fields `__init__` takes."""

    def __init__(
        self,
        fields,
        methods,
        type_key=None,
        parent_type_key=None,
        init_fields=None,
        has_init: bool = False,
        ancestors=None,
        total_size: int | None = None,
        is_final: bool | None = None,
    ) -> None:
        self.fields = fields
        self.methods = methods
        self.type_key = type_key
        self.parent_type_key = parent_type_key
        self.init_fields = init_fields or []
        self.has_init = has_init
        self.ancestors = ancestors or []
        # The native sizeof (header included) and finality: None where the registry does not
        # record them (this registry's C ABI has no such facts yet).
        self.total_size = total_size
        self.is_final = is_final

    def __repr__(self) -> str:
        return f"ObjectInfo(type_key={self.type_key!r}, parent_type_key={self.parent_type_key!r})"

    def has_overloaded_methods(self) -> bool:
        """Whether reflection exposed more than one signature under one method name."""
        names = [m.schema.name for m in self.methods]
        return len(names) != len(set(names))

    @staticmethod
    def from_type_info(type_info) -> ObjectInfo:
        """The ObjectInfo of a reflected TypeInfo.

        Only the root's total_size is known (the TVMFFIObject header the C ABI fixes): this
        registry does not record the native sizeof of other types.
        """
        info = ObjectInfo._from_type_info(type_info)
        if type_info.parent_type_info is None and type_info.type_key == "ffi.Object":
            info.total_size = _OBJECT_HEADER_SIZE
        return info

    @staticmethod
    def _from_type_info(type_info) -> ObjectInfo:
        chain = []
        parent = type_info.parent_type_info
        while parent is not None:
            chain.append(parent)
            parent = parent.parent_type_info
        chain.reverse()
        methods = [m for m in type_info.methods if not _is_hook(m.name)]
        has_init = any(m.name == "__ffi_init__" for m in methods)
        init_fields = []
        if has_init:
            for info in [*chain, type_info]:
                init_fields += [
                    InitFieldInfo(
                        f.name, _schema_of(f.metadata, "field"), f.c_kw_only, f.c_has_default
                    )
                    for f in info.fields
                    if f.c_init
                ]
        return ObjectInfo(
            fields=[NamedTypeSchema.from_type_field(f) for f in type_info.fields],
            methods=[
                FuncInfo(
                    NamedTypeSchema(m.name, _schema_of(m.metadata, "function")), not m.is_static
                )
                for m in methods
            ],
            type_key=type_info.type_key,
            parent_type_key=chain[-1].type_key if chain else None,
            init_fields=init_fields,
            has_init=has_init,
            ancestors=[info.type_key for info in chain],
        )

    @staticmethod
    def from_type_index(type_index: int) -> ObjectInfo:
        return ObjectInfo.from_type_info(type_info_of(type_index))


__all__ = [
    "MISSING",
    "TypeInfo",
    "TypeSchema",
    "FuncInfo",
    "InitConfig",
    "InitFieldInfo",
    "NamedTypeSchema",
    "ObjectInfo",
    "Options",
    "parse_type_schema",
]
