"""The stub generator's data model: options, and functions / object types read from the registry."""

from __future__ import annotations

from .._reflection import MISSING, TypeSchema, type_info_of


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
    ) -> None:
        self.imports = list(imports or [])
        self.dlls = list(dlls or [])
        self.init = init
        self.indent = indent
        self.files = list(files or [])
        self.verbose = verbose
        self.dry_run = dry_run
        self.check = check

    def __repr__(self) -> str:
        return f"Options({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


class NamedTypeSchema(TypeSchema):
    """A TypeSchema with the name of the function, field or parameter it types."""

    def __init__(self, name: str, schema: TypeSchema, frozen: bool = False) -> None:
        super().__init__(schema.origin, schema.args, schema.named_args)
        self.name = name
        self.frozen = frozen

    @staticmethod
    def from_type_field(field) -> NamedTypeSchema:
        """The schema of a reflected TypeField (Any when the registry recorded none)."""
        return NamedTypeSchema(field.name, _schema_of(field.metadata, "field"), field.frozen)


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
    ) -> None:
        self.fields = fields
        self.methods = methods
        self.type_key = type_key
        self.parent_type_key = parent_type_key
        self.init_fields = init_fields or []
        self.has_init = has_init
        self.ancestors = ancestors or []

    @staticmethod
    def from_type_info(type_info) -> ObjectInfo:
        """The ObjectInfo of a reflected TypeInfo."""
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
    "FuncInfo",
    "InitConfig",
    "InitFieldInfo",
    "NamedTypeSchema",
    "ObjectInfo",
    "Options",
    "parse_type_schema",
]
