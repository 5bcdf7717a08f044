"""repr, copy.copy, copy.deepcopy and pickling of FFI objects, driven by reflection."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing (and the re and enum it imports) would slow `import tvm_ffi`
if TYPE_CHECKING:
    from typing import Any

from . import _core
from ._core import Object
from ._reflection import type_info_of

_ARRAY, _MAP, _SHAPE, _TENSOR, _LIST, _DICT = 71, 72, 69, 70, 75, 76


def _escape_str(text: str) -> str:
    """A str as upstream's repr quotes it: double quotes, \\n \\t \\r, \\xHH for other
    control characters, \\uXXXX / \\UXXXXXXXX for everything past ASCII."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return '"' + text + '"'
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _NAMED_ESCAPES:
            out.append(_NAMED_ESCAPES[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif code < 0x80:
            out.append(ch)
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


_NAMED_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape_bytes(data: bytes) -> str:
    """bytes as upstream's repr prints them: b"...", printable ASCII kept, the rest \\xHH."""
    return (
        'b"'
        + "".join(
            chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\x{b:02x}" for b in data
        )
        + '"'
    )


def _format_value(value: Any, active: set) -> str:
    """One value as upstream's __ffi_repr__ prints it: strings double-quoted, Arrays as tuples,
    dtypes and devices bare (`int32`, `cpu:0`), tensors as `float32[2, 3]@cpu:0`."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, str):
        from .dtype import dtype

        if isinstance(value, dtype):
            return str(value)
        return _escape_str(str(value))
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int):
        return repr(int(value))
    if isinstance(value, bytes):
        return _escape_bytes(value)
    if isinstance(value, _core.Device):
        return str(value)
    if isinstance(value, BaseException):
        return "ffi.Error"  # an FFI Error comes back to Python as the exception it raises
    if not isinstance(value, Object):
        return "ffi.OpaquePyObject"  # a Python object held by the FFI as itself
    if not value.__ffi_handle__:
        return repr(value)
    container: Any = value  # an Array or Map when the index says so
    index = value.__ffi_type_index__
    if id(value) in active or value.__ffi_handle__ in active:
        return "..."
    if index in (_ARRAY, _LIST):
        active.add(value.__ffi_handle__)
        try:
            items = [_format_value(v, active) for v in container]
        finally:
            active.discard(value.__ffi_handle__)
        if index == _LIST:
            return "[" + ", ".join(items) + "]"
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if index in (_MAP, _DICT):
        active.add(value.__ffi_handle__)
        try:
            items = [
                f"{_format_value(k, active)}: {_format_value(v, active)}"
                for k, v in container.items()
            ]
        finally:
            active.discard(value.__ffi_handle__)
        return "{" + ", ".join(items) + "}"
    if index == _SHAPE:
        return "Shape(" + ", ".join(str(d) for d in container) + ")"
    if index == _TENSOR:
        return _tensor_repr(container)
    if type(value).__repr__ is not Object.__repr__:
        return repr(value)  # a class's own __repr__ is its repr hook (upstream's __ffi_repr__)
    return _object_repr(value, active)


def _tensor_repr(tensor) -> str:
    dims = ", ".join(str(d) for d in tensor.shape)
    return f"{tensor.dtype}[{dims}]@{tensor.device}" + _addr(tensor)


def _addr(obj) -> str:
    # As upstream: TVM_FFI_REPR_WITH_ADDR=1 adds each object's address (`ffi.Function@0x...`).
    return f"@{hex(obj.__ffi_handle__)}" if os.environ.get("TVM_FFI_REPR_WITH_ADDR") == "1" else ""


def _object_repr(obj, active) -> str:
    info = type_info_of(obj.__ffi_type_index__)
    fields = [f for f in info.all_fields() if f.c_repr]
    if obj.__ffi_type_index__ == _TENSOR:
        return _tensor_repr(obj)
    if not fields and not info.all_fields():
        from ._auto_init import KWARGS

        if obj.__ffi_handle__ == KWARGS.__ffi_handle__:
            return "<KWARGS>"  # as upstream prints the sentinel
        return info.type_key + _addr(obj)  # a Function, an opaque object: the type key alone
    active.add(obj.__ffi_handle__)
    try:
        parts = [f"{f.name}={_format_value(f.getter.__get__(obj), active)}" for f in fields]
    finally:
        active.discard(obj.__ffi_handle__)
    return f"{info.type_key}{_addr(obj)}({', '.join(parts)})"


def value_repr(value) -> str:
    """repr of one value as __ffi_repr__ prints it (List and Dict use it); cycles print as `...`."""
    return _format_value(value, set())


def object_repr(obj) -> str:
    """repr(obj) of a reflected object: `type.key(field=value, ...)`; cycles print as `...`."""
    return _object_repr(obj, set())


def object_copy(obj):
    """copy.copy: a new object of the same type holding the same field values."""
    index = obj.__ffi_type_index__
    if index in (_ARRAY, _LIST):  # a List's copy is a new List: changing it leaves obj alone
        return type(obj)(list(obj))
    if index in (_MAP, _DICT):
        return type(obj)(dict(obj.items()))
    if index == _SHAPE:
        return obj
    info = type_info_of(index)
    copier = info.find_method("__ffi_shallow_copy__")
    if copier is not None:
        return copier.func(obj)
    try:
        return _core.dyn_copy(obj)
    except TypeError:
        pass
    raise TypeError(
        f"copy.copy: objects of type `{info.type_key}` cannot be copied (no __ffi_shallow_copy__)"
    )


def object_deepcopy(obj, memo):
    """copy.deepcopy: fields, Arrays and Maps copied recursively; memo keeps sharing and cycles."""
    key = obj.__ffi_handle__
    if key in memo:
        return memo[key]
    index = obj.__ffi_type_index__
    if index == _ARRAY:
        out = type(obj)([_deep(v, memo) for v in obj])
    elif index == _MAP:
        out = type(obj)({_deep(k, memo): _deep(v, memo) for k, v in obj.items()})
    elif index == _LIST:  # mutable, so it can hold itself: memoized before its items
        out = memo[key] = type(obj)()
        out.extend([_deep(v, memo) for v in obj])
        return out
    elif index == _DICT:
        out = memo[key] = type(obj)()
        out.update({_deep(k, memo): _deep(v, memo) for k, v in obj.items()})
        return out
    elif index == _SHAPE or not type_info_of(index).all_fields():
        out = obj  # immutable or opaque: shared, like upstream
    else:
        out = object_copy(obj)
        memo[key] = out
        for f in type_info_of(index).all_fields():
            value = f.getter.__get__(obj)
            copied = _deep(value, memo)
            if copied is not value:
                f.getter.set(out, copied)
        return out
    memo[key] = out
    return out


def _deep(value, memo):
    if isinstance(value, Object) and value.__ffi_handle__:
        return object_deepcopy(value, memo)
    return value


def object_reduce(obj):
    """pickle: the object's JSON graph (tvm_ffi.serialization), read by from_json_graph_str."""
    from .serialization import from_json_graph_str, to_json_graph_str

    return (from_json_graph_str, (to_json_graph_str(obj),))


def install():
    _core.set_object_hooks(object_repr, object_copy, object_deepcopy, object_reduce)
