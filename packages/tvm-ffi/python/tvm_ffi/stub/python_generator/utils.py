"""The Python generator's imports (ImportItem, PythonImports) and signature rendering helpers."""

from __future__ import annotations

from ..file_utils import StubError
from ..utils import FuncInfo, ObjectInfo
from . import consts as C


class ImportItem:
    """One imported name: `from <mod> import <name> [as <alias>]`, maybe only for type checking."""

    def __init__(self, full_name: str, type_checking_only: bool = False, alias=None) -> None:
        mod, dot, name = full_name.rpartition(".")
        if dot:
            for prefix, replacement in C.MOD_MAP.items():
                if mod == prefix or mod.startswith(prefix + "."):
                    mod = replacement + mod[len(prefix) :]
                    break
        self.mod = mod
        self.name = name
        self.type_checking_only = type_checking_only
        self.alias = alias

    @property
    def name_with_alias(self) -> str:
        return f"{self.name} as {self.alias}" if self.alias else self.name

    @property
    def full_name(self) -> str:
        return f"{self.mod}.{self.name}" if self.mod else self.name

    def __str__(self) -> str:
        if self.mod:
            return f"from {self.mod} import {self.name_with_alias}"
        return f"import {self.name_with_alias}"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ImportItem) and (
            self.mod,
            self.name,
            self.type_checking_only,
            self.alias,
        ) == (other.mod, other.name, other.type_checking_only, other.alias)

    def __hash__(self) -> int:
        return hash((self.mod, self.name, self.type_checking_only, self.alias))


class PythonImports:
    """The imports one file's blocks need (the pipeline holds it without looking inside).

    `has_lib_load`: the file loads its extension library itself (an `--init` scaffold does).
    """

    def __init__(self, items=None, has_lib_load: bool = False) -> None:
        self.items: list[ImportItem] = list(items or [])
        self.has_lib_load = has_lib_load

    def __repr__(self) -> str:
        return f"PythonImports(items={self.items!r}, has_lib_load={self.has_lib_load!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PythonImports) and (self.items, self.has_lib_load) == (
            other.items,
            other.has_lib_load,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable


def _namer(ty_map: dict, imports: list, func_names=frozenset()):
    """Maps an FFI origin to the name a stub writes, recording the import a dotted one needs.

    A type named like a function of the same block is imported under `_<name>`.
    """

    def name_of(origin: str) -> str:
        full = ty_map.get(origin, origin)
        suffix = full.rsplit(".", 1)[-1]
        if "." not in full:
            return suffix
        alias = f"_{suffix}" if suffix in func_names else None
        imports.append(ImportItem(full, type_checking_only=True, alias=alias))
        return alias or suffix

    return name_of


def _input_ty_map(ty_map: dict) -> dict:
    """The map for parameters: containers accept any sequence / mapping unless ty-mapped."""
    out = dict(ty_map)
    for key, value in C.TY_MAP_INPUT_DEFAULTS.items():
        if ty_map.get(key, C.TY_MAP_DEFAULTS.get(key)) == C.TY_MAP_DEFAULTS.get(key):
            out[key] = value
    return out


def _annotation(schema, name_of) -> str:
    text = schema.output_repr(name_of)
    if "Callable[..., Any]" in text:
        name_of("Any")  # written out by the Callable rendering itself
    return text


def render_func_signature(func, ty_map, indent: int, input_ty_map=None) -> str:
    """`def name(_0: int, /) -> str: ...` for a function or method (self first for a member)."""
    input_ty_map = input_ty_map or ty_map
    name = func.schema.name.rsplit(".", 1)[-1]
    head = f"{' ' * indent}def {name}("
    named = func.schema.named_args
    if func.schema.origin != "Callable":
        raise StubError(f"`{func.schema.name}`: expected a function schema, got {func.schema!r}")
    if not named or "return" not in named:
        ty_map("Any")
        return head + ("self, *args: Any" if func.is_member else "*args: Any") + ") -> Any: ..."
    ret = _annotation(named["return"][0], ty_map)
    if "params" not in named:
        ty_map("Any")
        return head + f"*args: Any) -> {ret}: ..."
    parts = []
    for i, param in enumerate(named["params"]):
        if func.is_member and i == 0:
            parts.append("self")
        else:
            parts.append(f"_{i}: {_annotation_in(param, input_ty_map)}")
    params = ", ".join(parts)
    if named["params"]:
        params += ", /"
    return head + params + f") -> {ret}: ..."


def _annotation_in(schema, name_of) -> str:
    text = schema.input_repr(name_of)
    if "Callable[..., Any]" in text:
        name_of("Any")
    return text


def _field_params(info, input_ty_map) -> str:
    """The `__init__` parameters: required, then defaulted, then keyword-only ones."""
    positional = [f for f in info.init_fields if not f.kw_only]
    kw_only = [f for f in info.init_fields if f.kw_only]
    parts = [
        f"{f.name}: {_annotation_in(f.schema, input_ty_map)}"
        for f in positional
        if not f.has_default
    ]
    parts += [
        f"{f.name}: {_annotation_in(f.schema, input_ty_map)} = ..."
        for f in positional
        if f.has_default
    ]
    if kw_only:
        parts.append("*")
        parts += [
            f"{f.name}: {_annotation_in(f.schema, input_ty_map)}"
            for f in kw_only
            if not f.has_default
        ]
        parts += [
            f"{f.name}: {_annotation_in(f.schema, input_ty_map)} = ..."
            for f in kw_only
            if f.has_default
        ]
    return ", ".join(parts)


def render_object_init(info, ty_map, indent: int, input_ty_map=None) -> list[str]:
    """`def __init__(self, <init fields>) -> None: ...` when the type has a constructor."""
    if not info.has_init:
        return []
    params = _field_params(info, input_ty_map or ty_map)
    return [f"{' ' * indent}def __init__(self{', ' + params if params else ''}) -> None: ..."]


def _render_ffi_init(method, ty_map, indent: int, input_ty_map) -> str:
    """`__ffi_init__` as Python installs it: an instance method returning None."""
    named = method.schema.named_args
    pad = " " * indent
    if not named or "params" not in named:
        ty_map("Any")
        return f"{pad}def __ffi_init__(self, *args: Any) -> None: ..."
    params = [f"_{i}: {_annotation_in(p, input_ty_map)}" for i, p in enumerate(named["params"])]
    if params:
        return f"{pad}def __ffi_init__(self, {', '.join(params)}, /) -> None: ..."
    return f"{pad}def __ffi_init__(self) -> None: ..."


def render_object_ffi_init(info, ty_map, indent: int, input_ty_map=None) -> list[str]:
    """`def __ffi_init__(self, <init fields>) -> None: ...` for a type whose constructor the
    registry synthesises from its fields (no `__ffi_init__` method of its own); [] otherwise."""
    if not info.has_init or any(m.schema.name == "__ffi_init__" for m in info.methods):
        return []
    params = _field_params(info, input_ty_map or ty_map)
    return [f"{' ' * indent}def __ffi_init__(self{', ' + params if params else ''}) -> None: ..."]


def render_object_methods(info, ty_map, indent: int, input_ty_map=None) -> list[str]:
    """The methods: `__ffi_init__`, then `@staticmethod` / instance methods in registry order."""
    input_ty_map = input_ty_map or ty_map
    out = []
    for method in info.methods:
        if method.schema.name == "__ffi_init__":
            out.append(_render_ffi_init(method, ty_map, indent, input_ty_map))
            continue
        if not method.is_member:
            out.append(f"{' ' * indent}@staticmethod")
        out.append(render_func_signature(method, ty_map, indent, input_ty_map))
    return out


def render_object_fields(info, ty_map, indent: int) -> list[str]:
    """`name: <type>` for each field the type itself declares."""
    return [f"{' ' * indent}{f.name}: {_annotation(f, ty_map)}" for f in info.fields]


__all__ = [
    "FuncInfo",
    "ImportItem",
    "ObjectInfo",
    "PythonImports",
    "render_func_signature",
    "render_object_ffi_init",
    "render_object_fields",
    "render_object_init",
    "render_object_methods",
]
