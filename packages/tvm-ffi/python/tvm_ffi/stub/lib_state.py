"""What the loaded libraries registered: global functions by prefix, object types (ObjectInfo)."""

from __future__ import annotations

from .. import _core
from ..registry import get_global_func, get_global_func_metadata, list_global_func_names
from .utils import FuncInfo, NamedTypeSchema, ObjectInfo, TypeSchema, _schema_of

_OBJECT_BEGIN = 64  # kTVMFFIStaticObjectBegin: indices below are POD kinds

#: The registry's list of every type key (POD kinds, built-in and user types), by type index.
GetRegisteredTypeKeys = get_global_func("ffi.GetRegisteredTypeKeys")


def func_info_from_global_name(name: str) -> FuncInfo:
    """The FuncInfo of the global function `name` (untyped when it records no schema)."""
    return FuncInfo.from_schema(name, _schema_of(get_global_func_metadata(name), "function"))


def collect_global_funcs() -> dict[str, list[FuncInfo]]:
    """Every global function, grouped by prefix (the name up to its last dot), sorted by name."""
    funcs: dict[str, list[FuncInfo]] = {}
    for name in list_global_func_names():
        prefix, dot, _ = name.rpartition(".")
        if dot:
            funcs.setdefault(prefix, []).append(func_info_from_global_name(name))
    for group in funcs.values():
        group.sort(key=lambda f: f.schema.name)
    return funcs


def collect_type_keys() -> dict[str, list[str]]:
    """Every registered object type key, grouped by prefix."""
    keys: dict[str, list[str]] = {}
    for key in GetRegisteredTypeKeys():
        prefix, dot, _ = key.rpartition(".")
        if dot:
            keys.setdefault(prefix, []).append(key)
    return keys


def object_type_key_to_index(type_key: str) -> int | None:
    """The index of a registered object type, or None."""
    try:
        index = _core.type_key_to_index(type_key)
    except (KeyError, ValueError):
        return None
    return index if index >= _OBJECT_BEGIN else None


_OBJECT_INFOS: dict[str, ObjectInfo] = {}


def object_info_from_type_key(type_key: str) -> ObjectInfo:
    """The ObjectInfo of a registered object type key (cached: the registry only grows).

    ValueError `Cannot find type key: <key>` when no object type has that key.
    """
    info = _OBJECT_INFOS.get(type_key)
    if info is None:
        index = object_type_key_to_index(type_key)
        if index is None:
            raise ValueError(f"Cannot find type key: {type_key}")
        info = _OBJECT_INFOS[type_key] = ObjectInfo.from_type_index(index)
    return info


def toposort_objects(type_keys: list[str]) -> list[ObjectInfo]:
    """The ObjectInfos of `type_keys` (duplicates dropped), each after its ancestors among them;
    otherwise in key order. ValueError for a key that is not a registered object type."""
    infos = {key: object_info_from_type_key(key) for key in sorted(set(type_keys))}
    done: set[str] = set()
    out: list[ObjectInfo] = []

    def visit(key: str) -> None:
        if key in done:
            return
        done.add(key)
        for ancestor in infos[key].ancestors:
            if ancestor in infos:
                visit(ancestor)
        out.append(infos[key])

    for key in infos:
        visit(key)
    return out


__all__ = [
    "FuncInfo",
    "GetRegisteredTypeKeys",
    "NamedTypeSchema",
    "ObjectInfo",
    "TypeSchema",
    "collect_global_funcs",
    "collect_type_keys",
    "func_info_from_global_name",
    "get_global_func_metadata",
    "list_global_func_names",
    "object_info_from_type_key",
    "object_type_key_to_index",
    "toposort_objects",
]
