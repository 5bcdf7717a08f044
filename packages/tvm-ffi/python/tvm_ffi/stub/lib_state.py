"""What the loaded libraries registered: global functions by prefix, object type keys."""

from __future__ import annotations

from .. import _core
from ..registry import get_global_func_metadata, get_registered_type_keys, list_global_func_names
from .utils import FuncInfo, ObjectInfo, _schema_of

_OBJECT_BEGIN = 64  # kTVMFFIStaticObjectBegin: indices below are POD kinds


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
    for key in get_registered_type_keys():
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


def object_info_from_type_key(type_key: str) -> ObjectInfo:
    """The ObjectInfo of a registered type key (KeyError when unknown)."""
    index = object_type_key_to_index(type_key)
    if index is None:
        raise KeyError(f"object type `{type_key}` is not registered")
    return ObjectInfo.from_type_index(index)
