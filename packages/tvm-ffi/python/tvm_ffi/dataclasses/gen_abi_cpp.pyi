"""gen_abi_cpp: a C++ header of lookup-only views of registered object types, from reflection."""

from collections.abc import Sequence

def gen_abi_cpp(type_keys: str | Sequence[str]) -> str: ...

__all__ = ["gen_abi_cpp"]
