"""The Python generator's type maps: FFI origins and type-key prefixes -> Python names."""

from __future__ import annotations

#: FFI origin name -> Python type (a dotted name is imported under `if TYPE_CHECKING:`).
TY_MAP_DEFAULTS = {
    "Any": "typing.Any",
    "Callable": "typing.Callable",
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.MutableSequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.MutableMapping",
    "Object": "ffi.Object",
    "Tensor": "ffi.Tensor",
    "dtype": "ffi.dtype",
    "Device": "ffi.Device",
    "ffi.Enum": "tvm_ffi.dataclasses.Enum",
}

#: What parameters accept: any sequence or mapping converts (unless a ty-map overrides it).
TY_MAP_INPUT_DEFAULTS = {
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.Sequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.Mapping",
}

#: Type-key module prefixes -> the Python module that binds them.
MOD_MAP = {"testing": "tvm_ffi.testing", "ffi": "tvm_ffi"}
