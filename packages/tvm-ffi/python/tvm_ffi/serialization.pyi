"""Stubs of tvm_ffi.serialization."""

from typing import Any

def to_json_graph_str(obj: Any, metadata: dict[str, Any] | None = None) -> str: ...
def from_json_graph_str(json_str: str) -> Any: ...

__all__ = ["from_json_graph_str", "to_json_graph_str"]
