"""tvm_ffi.dataclasses: py_class (Python-defined FFI types), c_class (C++ types), their helpers."""

from __future__ import annotations

from .._reflection import MISSING
from .c_class import c_class
from .common import asdict, astuple, fields, is_dataclass, replace
from .field import KW_ONLY, Field, field
from .py_class import py_class

__all__ = [
    "KW_ONLY",
    "MISSING",
    "Field",
    "asdict",
    "astuple",
    "c_class",
    "field",
    "fields",
    "is_dataclass",
    "py_class",
    "replace",
]
