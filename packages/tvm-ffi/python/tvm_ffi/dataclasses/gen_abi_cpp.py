"""gen_abi_cpp: a C++ header of lookup-only views of registered object types, from reflection."""

from __future__ import annotations

# fnmatch and json are imported where used: `import tvm_ffi.dataclasses` should not pay for them.
import re
from collections.abc import Sequence

from .. import _core
from .._reflection import TypeInfo, type_info_of
from ..registry import get_registered_type_keys

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_NS = "::tvm::ffi::"
# (C++ type, size, align) of the leaf carriers, by type schema and reflected size.
_SCALARS = {
    ("int", 8): ("int64_t", 8, 8),
    ("int", 4): ("int32_t", 4, 4),
    ("int", 2): ("int16_t", 2, 2),
    ("int", 1): ("int8_t", 1, 1),
    ("float", 8): ("double", 8, 8),
    ("float", 4): ("float", 4, 4),
    ("bool", 1): ("bool", 1, 1),
    ("DataType", 4): ("DLDataType", 4, 4),
    ("Device", 8): ("DLDevice", 8, 4),
}
# Object references: one pointer.
_REFS = {
    "ffi.String": "String",
    "str": "String",
    "ffi.Bytes": "Bytes",
    "bytes": "Bytes",
    "ffi.Function": "Function",
    "ffi.Object": "ObjectRef",
    "ffi.Tensor": "Tensor",
    "ffi.Shape": "Shape",
    "ffi.Module": "Module",
}
# A scalar inside a container or Optional: the FFI's own width.
_PLAIN = {
    "int": "int64_t",
    "float": "double",
    "bool": "bool",
    "DataType": "DLDataType",
    "Device": "DLDevice",
}
_CONTAINERS = {"ffi.Array": "Array", "ffi.List": "List", "ffi.Map": "Map", "ffi.Dict": "Dict"}


def _carrier(schema: dict, where: str) -> str:
    """The C++ type spelling of a (nested) type schema; any object key becomes ObjectRef."""
    kind = schema.get("type")
    args = schema.get("args", [])
    if kind == "Any":
        return _NS + "Any"
    if kind in _REFS:
        return _NS + _REFS[kind]
    if kind in _CONTAINERS:
        return _NS + _CONTAINERS[kind] + "<" + ", ".join(_carrier(a, where) for a in args) + ">"
    if kind == "Optional":  # (the C++ layer has no Variant class: a Variant field is refused)
        return _NS + kind + "<" + ", ".join(_carrier(a, where) for a in args) + ">"
    if kind in ("int", "float", "bool", "DataType", "Device"):
        return _PLAIN[kind]
    if isinstance(kind, str) and _is_object_key(kind):
        return _NS + "ObjectRef"
    raise ValueError(f"gen_abi_cpp: {where}: no C++ carrier for type schema {schema}")


def _is_object_key(key: str) -> bool:
    try:
        return _core.type_key_to_index(key) >= 64
    except KeyError:
        return False


def _field_carrier(field, where: str) -> str:
    """The C++ type of a reflected field, checked against its size and alignment."""
    text = field.metadata.get("type_schema")
    if not text:
        raise ValueError(f"gen_abi_cpp: {where} has no type schema")
    # The registry keeps JSON text; a py_class field keeps the schema of its annotation.
    if isinstance(text, dict):
        schema = text
    else:
        import json

        schema = json.loads(text)
    kind = str(schema.get("type"))
    layout = (field.size, field.alignment)
    scalar = _SCALARS.get((kind, field.size))
    if scalar is not None:
        return scalar[0]
    if kind in ("int", "float", "bool", "DataType", "Device"):
        raise ValueError(
            f"gen_abi_cpp: {where}: a {kind} field with layout {layout} has no C++ carrier"
        )
    carrier = _carrier(schema, where)
    if kind == "Any" and layout != (16, 8):
        raise ValueError(f"gen_abi_cpp: {where}: Any has layout (16, 8), reflection says {layout}")
    if (kind in _REFS or kind in _CONTAINERS or _is_object_key(kind)) and layout != (8, 8):
        raise ValueError(
            f"gen_abi_cpp: {where}: {carrier} has layout (8, 8), reflection says {layout}"
        )
    return carrier  # Optional: checked by the header's static_asserts


def _split_key(key: str) -> tuple[list[str], str]:
    *namespace, name = key.split(".")
    for part in [*namespace, name]:
        if not _IDENT.match(part):
            raise ValueError(f"gen_abi_cpp: type key {key!r} does not map to C++ names")
    return namespace, name + "Obj"


def _select(type_keys) -> list[TypeInfo]:
    """The TypeInfos of the selected keys and of their ancestors below Object, parents first."""
    selectors = [type_keys] if isinstance(type_keys, str) else type_keys
    if not isinstance(selectors, Sequence) or not all(isinstance(s, str) for s in selectors):
        raise TypeError(
            "gen_abi_cpp: argument `type_keys` must be a str or a sequence of str, got "
            f"{type(type_keys).__name__}"
        )
    import fnmatch

    registered = [str(k) for k in get_registered_type_keys()]
    chosen: dict[int, TypeInfo] = {}
    for selector in selectors:
        matches = [k for k in registered if fnmatch.fnmatchcase(k, selector)]
        if not matches:
            raise ValueError(f"Type-key selector {selector!r} did not match any registered type")
        for key in matches:
            index = _core.type_key_to_index(key)
            if index < 64 or key == "ffi.Object":
                continue  # POD kinds have no object layout; Object is the header's base
            info: TypeInfo | None = type_info_of(index)
            chain = []
            while info is not None and info.type_key != "ffi.Object":
                chain.append(info)
                info = info.parent_type_info
            for link in reversed(chain):
                chosen.setdefault(link.type_index, link)
    return sorted(chosen.values(), key=lambda info: (len(info.type_ancestors), info.type_key))


def _qualified(info: TypeInfo) -> str:
    namespace, name = _split_key(info.type_key)
    return "::" + "::".join([*namespace, name])


def _open(namespace: list[str]) -> str:
    return f"namespace {'::'.join(namespace)} {{" if namespace else ""


def _close(namespace: list[str]) -> str:
    return f"}}  // namespace {'::'.join(namespace)}" if namespace else ""


def _class(info: TypeInfo, lines: list[str]) -> None:
    namespace, name = _split_key(info.type_key)
    parent = info.parent_type_info
    base = (
        "::tvm::ffi::Object"
        if parent is None or parent.type_key == "ffi.Object"
        else _qualified(parent)
    )
    end = max((f.offset + f.size for f in parent.all_fields()), default=24) if parent else 24
    body = [f'  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("{info.type_key}", {len(info.type_ancestors)});']
    asserts = []
    if info.fields:
        body.append("")
    for i, field in enumerate(sorted(info.fields, key=lambda f: f.offset)):
        where = f"{info.type_key}.{field.name}"
        if not _IDENT.match(field.name):
            raise ValueError(f"gen_abi_cpp: {where} is not a C++ identifier")
        carrier = _field_carrier(field, where)
        aligned = -(-end // field.alignment) * field.alignment
        if field.offset < end:
            raise ValueError(
                f"gen_abi_cpp: {where} at offset {field.offset} overlaps the fields before it"
            )
        if field.offset > aligned:  # members reflection does not show: keep their bytes
            body.append(f"  uint8_t _gen_abi_pad{i}[{field.offset - end}];")
        body.append(
            f"  {carrier} {field.name};  // offset={field.offset}, size={field.size}, "
            f"align={field.alignment}"
        )
        end = field.offset + field.size
        asserts += [
            f"static_assert(sizeof(decltype({name}::{field.name})) == {field.size});",
            f"static_assert(alignof(decltype({name}::{field.name})) == {field.alignment});",
            f"static_assert(offsetof({name}, {field.name}) == {field.offset});",
        ]
    lines += [_open(namespace), "", f"struct {name} : public {base} {{", *body, "};", ""]
    lines += [*asserts, "", _close(namespace), ""]


def gen_abi_cpp(type_keys: str | Sequence[str]) -> str:
    """Generate one C++17 header declaring a view struct per selected type (and its ancestors).

    `type_keys` is a registered key, a shell-style pattern (``"testing.*"``) or a sequence of
    them. Each view derives from its parent's view (Object at the top), declares the reflected
    fields at their offsets (bytes reflection does not show become padding) and looks its type
    index up by key (``TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP``): the header registers, allocates
    and loads nothing, and ``obj.as<ns::KeyObj>()`` reads a live object's fields. Object-typed
    fields are ``ObjectRef``; ``static_assert``s check every size, alignment and offset.

    Raises TypeError for a bad `type_keys`, ValueError for a selector matching nothing or a
    field without a C++ carrier of its reflected layout.
    """
    infos = _select(type_keys)
    lines = ["#pragma once", "", "#include <tvm/ffi/tvm_ffi.h>", "", "#include <cstddef>", ""]
    for info in infos:
        namespace, name = _split_key(info.type_key)
        lines += [_open(namespace), f"struct {name};", _close(namespace), ""]
    for info in infos:
        lines += [
            "template <>",
            f"inline constexpr bool tvm::ffi::is_object_subclass_v<{_qualified(info)}> = true;",
        ]
    lines += [
        "",
        "static_assert(sizeof(::tvm::ffi::Object) == 24);",
        "",
        "#if defined(__clang__) || defined(__GNUC__)",
        "#pragma GCC diagnostic push",
        '#pragma GCC diagnostic ignored "-Winvalid-offsetof"',
        "#endif",
        "",
    ]
    for info in infos:
        _class(info, lines)
    lines += [
        "#if defined(__clang__) || defined(__GNUC__)",
        "#pragma GCC diagnostic pop",
        "#endif",
        "",
    ]
    return "\n".join(line for line in lines if line is not None)


__all__ = ["gen_abi_cpp"]
