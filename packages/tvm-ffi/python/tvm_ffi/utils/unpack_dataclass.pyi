"""unpack_dataclass_to_tuple: dataclass values as nested tuples, the shape FFI functions take."""

from typing import Any

UNPACK: str

def unpack_dataclass_to_tuple(x: Any) -> Any: ...

__all__ = ["UNPACK", "unpack_dataclass_to_tuple"]
