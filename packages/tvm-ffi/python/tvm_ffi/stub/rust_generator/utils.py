"""Rust generator helpers: `use` items (RustUse, RustImports), type rendering, identifiers,
module paths of .rs files, and the tokens --check compares."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .consts import (
    RUST_KEYWORDS,
    RUST_MOD_MAP,
    RUST_NOT_RAW_IDENTIFIERS,
    RUST_RESERVED_MEMBERS,
    RUST_UNSUPPORTED_ORIGINS,
)
from .directives import Directives


class RustUse:
    """A `use <path>;` item. A dotted FFI name becomes a `::` path (its first segment through
    RUST_MOD_MAP: `ffi.String` -> `tvm_ffi::String`); a bare name (`i64`) needs no `use`."""

    def __init__(self, name: str) -> None:
        if "::" not in name and "." in name:
            head, *rest = name.split(".")
            name = "::".join([RUST_MOD_MAP.get(head, head), *rest])
        self.path = name

    def __repr__(self) -> str:
        return f"RustUse(path={self.path!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RustUse) and self.path == other.path

    def __hash__(self) -> int:
        return hash(self.path)

    @property
    def leaf(self) -> str:
        """The last path segment, the name in scope (`Array` for `tvm_ffi::Array`)."""
        return self.path.rsplit("::", 1)[-1]

    def as_use_line(self) -> str:
        """`use <path>;`, or "" for a bare (prelude or primitive) name."""
        return f"use {self.path};" if "::" in self.path else ""


@dataclass
class RustImports:
    """One file's collector: its `use` items, its Rust directives, the header-only stand-ins
    for builtin bases it needs (type key -> its parent's name) and the names its own objects
    take (which a `use` must not shadow)."""

    items: list[RustUse] = field(default_factory=list)
    directives: Directives = field(default_factory=Directives)
    builtin_mirrors: dict[str, str] = field(default_factory=dict)
    reserved: set[str] = field(default_factory=set)

    def record(self, name: str) -> str:
        """Records the `use` of `name` (once) and returns how code spells it: the leaf, or the
        full path when another path or one of the file's objects has that leaf already."""
        item = RustUse(name)
        if "::" not in item.path:
            return item.path
        if item in self.items:
            return item.leaf
        if item.leaf in self.reserved or any(i.leaf == item.leaf for i in self.items):
            return item.path
        self.items.append(item)
        return item.leaf

    def record_builtin_base(self, chain: list[str]) -> str:
        """Records the stand-ins for the builtin ancestors `chain` (root side first) and returns
        the last one's name; the crate's `Object` for an empty chain (parent ffi.Object)."""
        name = self.record("tvm_ffi::Object")
        for key in chain:
            self.builtin_mirrors.setdefault(key, name)
            name = builtin_mirror_name(key)
        return name


def builtin_mirror_name(type_key: str) -> str:
    """The name of the header-only stand-in for a builtin type (`ffi.IntEnum` ->
    `FfiIntEnumObj`): derive(Object) takes TYPE_DEPTH from the embedded base, so a type under
    a builtin needs a base at the builtin's depth, which the crate does not have."""
    *mods, name = type_key.split(".")
    return f"{'_'.join(mods).capitalize()}{name}Obj"


def is_crate_type_key(type_key: str) -> bool:
    """Whether the tvm_ffi crate binds `type_key` itself (every `ffi.*` key)."""
    return type_key.split(".", 1)[0] in RUST_MOD_MAP


def rust_ident(name: str) -> str:
    """A reflected field name spelled in Rust.

    A C++ member's one trailing underscore (`global_var_map_`) and a dunder's two pairs
    (`__dict__`) go; a keyword becomes a raw identifier, but the four `r#` cannot escape and
    `base` (the generated structs' own member) get a trailing underscore instead.
    """
    if len(name) > 4 and name.startswith("__") and name.endswith("__"):
        name = name[2:-2]
    elif len(name) > 1 and name.endswith("_") and not name.endswith("__"):
        name = name[:-1]
    if name in RUST_NOT_RAW_IDENTIFIERS or name in RUST_RESERVED_MEMBERS:
        return name + "_"
    if name in RUST_KEYWORDS:
        return "r#" + name
    return name


def render_rust_type(schema, ty_render):
    """`schema` as a Rust value type, or None when Rust has no mirror of it.

    `ty_render(origin, type_key)` names a leaf (None: no mirror); `type_key` is the key the
    schema was parsed from when the schema folded it into another origin, else None.
    """
    origin = schema.origin
    if origin in RUST_UNSUPPORTED_ORIGINS:
        return None
    if origin == "Optional":
        inner = render_rust_type(schema.args[0], ty_render)
        return None if inner is None else f"Option<{inner}>"
    key = getattr(schema, "type_key", None)
    key = key if key not in (None, origin) else None
    if origin in ("Array", "List"):
        name = ty_render(origin, key)
        inner = render_rust_type(schema.args[0], ty_render) if schema.args else "Any"
        return None if name is None or inner is None else f"{name}<{inner}>"
    if origin == "Map":
        args = [render_rust_type(a, ty_render) for a in schema.args]
        if any(a is None for a in args):
            return None
        name = ty_render(origin, key)
        return None if name is None else f"{name}<{', '.join(args)}>"
    return ty_render(origin, key)


# A `::` path's lower-case module segments (`tvm_ffi::`, `crate::ir::`, a leading `::`).
_QUALIFIER = re.compile(r"(?:::)?(?:\b[a-z_][a-z0-9_]*::)+")
_TOKEN = re.compile(r"\w+|\S")
_CLOSERS = frozenset({")", "]", "}"})


def check_tokens(lines) -> tuple[str, ...]:
    """The tokens of generated Rust `lines` that --check compares: `use` lines, comment lines
    and module qualifiers are dropped, and so is a comma before a closing bracket, so neither
    import paths nor how rustfmt wraps a call count."""
    tokens: list[str] = []
    for line in lines:
        text = line.strip()
        if text.startswith(("use ", "//")):
            continue
        tokens += _TOKEN.findall(_QUALIFIER.sub("", text))
    return tuple(
        t
        for i, t in enumerate(tokens)
        if not (t == "," and i + 1 < len(tokens) and tokens[i + 1] in _CLOSERS)
    )


_MODULE_PATHS: dict[Path, tuple[str, ...]] = {}


def rust_module_path(path: Path) -> tuple[str, ...]:
    """The module a .rs file defines, from its place under its crate's `src/`.

    The crate is the nearest folder above with a Cargo.toml; `src/lib.rs` and `src/main.rs`
    are `crate`, `src/ir.rs` and `src/ir/mod.rs` `crate::ir`, and a keyword segment is a raw
    identifier (`src/ir/type.rs` is `crate::ir::r#type`). ValueError outside a crate's src/.
    """
    cached = _MODULE_PATHS.get(path)
    if cached is None:
        cached = _MODULE_PATHS[path] = _module_path(path)
    return cached


def _module_path(path: Path) -> tuple[str, ...]:
    crate = next((p for p in path.parents if (p / "Cargo.toml").is_file()), None)
    if crate is None:
        raise ValueError(f"{path} is in no Cargo crate: no `Cargo.toml` above it")
    src = crate / "src"
    try:
        parts = list(path.relative_to(src).with_suffix("").parts)
    except ValueError:
        raise ValueError(
            f"{path} is not under `{src}`, so it is in no module of the crate"
        ) from None
    if parts in (["lib"], ["main"]):
        parts = []
    elif parts and parts[-1] == "mod":
        parts = parts[:-1]
    return ("crate", *("r#" + p if p in RUST_KEYWORDS else p for p in parts))


__all__ = [
    "Directives",
    "RustImports",
    "RustUse",
    "builtin_mirror_name",
    "check_tokens",
    "is_crate_type_key",
    "render_rust_type",
    "rust_ident",
    "rust_module_path",
]
